// Package config reads and validates the deployment configuration: a YAML
// file, with secrets taken from the environment. A bad file stops the
// process with messages that name each offending key.
package config

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// Config is the whole deployment configuration.
type Config struct {
	// Mode is "production" (the default) or "dev". Dev mode runs the
	// development identity provider and embedded clusters.
	Mode string `yaml:"mode"`
	// Listen is the address the HTTP server binds, ":8080" by default; the
	// PORT environment variable overrides its port.
	Listen string `yaml:"listen"`
	// BaseURL is the public URL of the portal, used for redirects.
	BaseURL string `yaml:"base_url"`
	// PlatformAdminGroup members are Super Admin everywhere and see the
	// admin area.
	PlatformAdminGroup string `yaml:"platform_admin_group"`
	// UpstreamTimeout bounds every call to an upstream service.
	UpstreamTimeout time.Duration `yaml:"upstream_timeout"`
	// MetadataCacheTTL is how long a cluster's topic list is reused.
	MetadataCacheTTL time.Duration `yaml:"metadata_cache_ttl"`
	// MaxBodyBytes bounds request bodies.
	MaxBodyBytes int64 `yaml:"max_body_bytes"`

	Identity Identity `yaml:"identity"`
	Session  Session  `yaml:"session"`
	// Database holds sessions, jobs, the audit trail and samples.
	Database Database `yaml:"database"`
	Audit    Audit    `yaml:"audit"`
	// RateLimits protect the portal and the Cloud API from runaway callers.
	RateLimits RateLimits `yaml:"rate_limits"`
	// ConfluentCloud is the Cloud API (Connect v1, IAM v2, identity
	// providers v2) shared by every environment.
	ConfluentCloud CloudAPI      `yaml:"confluent_cloud"`
	Stages         []Stage       `yaml:"stages"`
	LandingZones   []LandingZone `yaml:"landing_zones"`
	DevIDP         *DevIDP       `yaml:"dev_idp"`
}

// Identity configures the OpenID Connect identity provider.
type Identity struct {
	// Issuer is the provider's issuer URL; "embedded" selects the
	// development provider at {base_url}/dev/idp (dev mode only).
	Issuer string `yaml:"issuer"`
	// ClientID is the portal's client (application) id.
	ClientID string `yaml:"client_id"`
	// ClientSecret is optional: without it the portal signs people in as a
	// public client with PKCE. Prefer RMS_OIDC_CLIENT_SECRET.
	ClientSecret string `yaml:"client_secret"`
	// Audience that API bearer tokens must carry; api://{client_id} by default.
	Audience string `yaml:"audience"`
	// AcceptedIssuers lists further issuers whose tokens are accepted (for
	// example an identity provider's v1 and v2 endpoints).
	AcceptedIssuers []string `yaml:"accepted_issuers"`
	// Scopes requested at sign-in.
	Scopes []string `yaml:"scopes"`
	// GroupsClaim names the token claim that lists group ids or names.
	GroupsClaim string `yaml:"groups_claim"`
}

// Session configures browser sessions.
type Session struct {
	// Keys are secrets of at least 32 characters; the first protects new
	// sessions, the others are still accepted so that keys can be rotated.
	// RMS_SESSION_KEYS (comma separated) overrides them.
	Keys []string `yaml:"keys"`
	// MaxAge bounds a session's life; 8h by default.
	MaxAge time.Duration `yaml:"max_age"`
}

// Database locates the portal's own database.
type Database struct {
	// URL is postgres://... (production, several replicas) or sqlite:PATH
	// (one node). DATABASE_URL overrides it. Dev mode defaults to SQLite
	// in a temporary file (or in --data DIR).
	URL string `yaml:"url"`
}

// IsPostgres reports whether the URL selects PostgreSQL.
func (d Database) IsPostgres() bool {
	return strings.HasPrefix(d.URL, "postgres://") || strings.HasPrefix(d.URL, "postgresql://")
}

// SQLitePath is the file of a sqlite: URL, "" for other URLs.
func (d Database) SQLitePath() string {
	p, ok := strings.CutPrefix(d.URL, "sqlite:")
	if !ok {
		return ""
	}
	return strings.TrimPrefix(p, "//")
}

// RateLimits are token buckets; a limit of 0 keeps the default, and a
// negative one turns the limit off.
type RateLimits struct {
	// Caller bounds each user or client: 50/s with bursts of 100.
	Caller Bucket `yaml:"caller"`
	// Unit bounds each business unit, whoever calls: 200/s, bursts of 400.
	Unit Bucket `yaml:"unit"`
	// CloudWritesPerUnit paces each unit's writes to the Confluent Cloud
	// API: 10/s, bursts of 50; CloudWrites all of them: 25/s, bursts of 50.
	CloudWritesPerUnit Bucket `yaml:"cloud_writes_per_unit"`
	CloudWrites        Bucket `yaml:"cloud_writes"`
}

// Bucket is a rate and a burst.
type Bucket struct {
	PerSecond float64 `yaml:"per_second"`
	Burst     int     `yaml:"burst"`
}

func (b *Bucket) orDefault(rate float64, burst int) {
	if b.PerSecond == 0 {
		b.PerSecond = rate
	}
	if b.Burst == 0 {
		b.Burst = burst
	}
}

// Audit configures the audit trail.
type Audit struct {
	// RetentionDays is how long events are kept; 400 by default.
	RetentionDays int `yaml:"retention_days"`
}

// Stage is one deployment stage.
type Stage struct {
	Name     string `yaml:"name"`
	ReadOnly bool   `yaml:"read_only"`
}

// LandingZone is a shared set of clusters, or a dedicated unit's clusters.
type LandingZone struct {
	ID               string                 `yaml:"id"`
	Dedicated        bool                   `yaml:"dedicated"`
	MainBU           string                 `yaml:"main_bu"`
	SuperAdminGroups []string               `yaml:"super_admin_groups"`
	Environments     map[string]Environment `yaml:"environments"`
	BusinessUnits    []BusinessUnit         `yaml:"business_units"`
}

// BusinessUnit is a tenant and the groups that grant roles in it.
type BusinessUnit struct {
	ID     string `yaml:"id"`
	Groups Groups `yaml:"groups"`
}

// Groups maps identity-provider groups (ids or names) to roles.
type Groups struct {
	Admin     []string `yaml:"admin"`
	Developer []string `yaml:"developer"`
	Viewer    []string `yaml:"viewer"`
}

// Environment holds the upstream connections of one landing zone in one stage.
type Environment struct {
	Kafka Kafka `yaml:"kafka"`
	// EnvironmentID and KafkaClusterID locate the cluster in Confluent
	// Cloud for the Connect API (env-..., lkc-...).
	EnvironmentID  string `yaml:"environment_id"`
	KafkaClusterID string `yaml:"kafka_cluster_id"`
	// IdentityProviderID owns the stage's identity pools (op-...).
	IdentityProviderID string         `yaml:"identity_provider_id"`
	SchemaRegistry     SchemaRegistry `yaml:"schema_registry"`
}

// CloudAPI is a connection to the Confluent Cloud API.
type CloudAPI struct {
	// Embedded starts in-process stand-ins (dev mode only).
	Embedded bool `yaml:"embedded"`
	// OrganizationID scopes role bindings.
	OrganizationID string `yaml:"organization_id"`
	URL            string `yaml:"url"`
	APIKey         string `yaml:"api_key"`
	APISecret      string `yaml:"api_secret"`
}

// Enabled reports whether a Cloud API is configured.
func (c CloudAPI) Enabled() bool { return c.Embedded || c.URL != "" || c.APIKey != "" }

// SchemaRegistry is a connection to a Schema Registry.
type SchemaRegistry struct {
	// Embedded starts an in-process registry (dev mode only).
	Embedded bool `yaml:"embedded"`
	// ClusterID (lsrc-...) scopes role bindings on subjects.
	ClusterID string `yaml:"cluster_id"`
	URL       string `yaml:"url"`
	APIKey    string `yaml:"api_key"`
	APISecret string `yaml:"api_secret"`
}

// Kafka is a cluster connection.
type Kafka struct {
	// Embedded starts an in-process cluster (dev mode only).
	Embedded         bool   `yaml:"embedded"`
	BootstrapServers string `yaml:"bootstrap_servers"`
	// SecurityProtocol is PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL.
	SecurityProtocol string `yaml:"security_protocol"`
	// SASLMechanism is PLAIN by default (Confluent Cloud API keys).
	SASLMechanism string `yaml:"sasl_mechanism"`
	APIKey        string `yaml:"api_key"`
	APISecret     string `yaml:"api_secret"`
}

// DevIDP configures the development identity provider (dev mode only).
type DevIDP struct {
	AccessTokenLifetime time.Duration `yaml:"access_token_lifetime"`
	Users               []DevUser     `yaml:"users"`
	Clients             []DevClient   `yaml:"clients"`
}

// DevUser is a demo user of the development provider.
type DevUser struct {
	Username string   `yaml:"username"`
	Name     string   `yaml:"name"`
	Groups   []string `yaml:"groups"`
	Note     string   `yaml:"note"`
}

// DevClient is a client of the development provider.
type DevClient struct {
	ID string `yaml:"id"`
	// Secret makes a confidential client; without it the client is public
	// and must use PKCE S256.
	Secret string `yaml:"secret"`
	// RedirectPaths are paths under base_url accepted as redirect URIs.
	RedirectPaths []string `yaml:"redirect_paths"`
	// LoopbackRedirects accepts http://127.0.0.1:<port>/... and
	// http://localhost:<port>/... for command-line tools.
	LoopbackRedirects bool `yaml:"loopback_redirects"`
	// ClientCredentials enables the client credentials grant; the token's
	// subject is the client and Groups are its groups.
	ClientCredentials bool     `yaml:"client_credentials"`
	Groups            []string `yaml:"groups"`
}

// Modes.
const (
	ModeProduction = "production"
	ModeDev        = "dev"
)

// EmbeddedIssuer selects the development identity provider.
const EmbeddedIssuer = "embedded"

//go:embed dev.yaml
var devYAML []byte

// Dev returns the committed development configuration: the demo tenancy,
// embedded clusters and the development identity provider.
func Dev(env func(string) string) (*Config, error) {
	return parse(devYAML, "dev.yaml", env)
}

// Load reads, expands and validates a configuration file.
func Load(path string, env func(string) string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	return parse(data, path, env)
}

func parse(data []byte, name string, env func(string) string) (*Config, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, fmt.Errorf("config %s: %w", name, err)
	}
	if err := expand(&root, env); err != nil {
		return nil, fmt.Errorf("config %s: %w", name, err)
	}
	var c Config
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	if err := enc.Encode(&root); err != nil {
		return nil, fmt.Errorf("config %s: %w", name, err)
	}
	dec := yaml.NewDecoder(&buf)
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("config %s: %w", name, err)
	}
	c.applyEnv(env)
	c.applyDefaults()
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("config %s is invalid:\n%w", name, err)
	}
	return &c, nil
}

var envRef = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// expand replaces ${NAME} in scalar values by the environment variable
// NAME, so that secrets need not be written in the file.
func expand(n *yaml.Node, env func(string) string) error {
	var errs []error
	var walk func(*yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Kind == yaml.ScalarNode && strings.Contains(n.Value, "${") {
			n.Value = envRef.ReplaceAllStringFunc(n.Value, func(ref string) string {
				name := envRef.FindStringSubmatch(ref)[1]
				v := env(name)
				if v == "" {
					errs = append(errs, fmt.Errorf("line %d: environment variable %s is not set", n.Line, name))
				}
				return v
			})
			n.Tag = "!!str"
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(n)
	return errors.Join(errs...)
}

func (c *Config) applyEnv(env func(string) string) {
	if port := env("PORT"); port != "" {
		host := c.Listen
		if i := strings.LastIndex(host, ":"); i >= 0 {
			host = host[:i]
		}
		c.Listen = host + ":" + port
	}
	if u := env("BASE_URL"); u != "" {
		c.BaseURL = u
	}
	if u := env("DATABASE_URL"); u != "" {
		c.Database.URL = u
	}
	if keys := env("RMS_SESSION_KEYS"); keys != "" {
		c.Session.Keys = strings.Split(keys, ",")
	}
	if s := env("RMS_OIDC_CLIENT_SECRET"); s != "" {
		c.Identity.ClientSecret = s
	}
}

func (c *Config) applyDefaults() {
	if c.Mode == "" {
		c.Mode = ModeProduction
	}
	if c.Listen == "" {
		c.Listen = ":8080"
	}
	if c.BaseURL == "" && c.Mode == ModeDev {
		c.BaseURL = "http://localhost:" + c.Listen[strings.LastIndex(c.Listen, ":")+1:]
	}
	c.BaseURL = strings.TrimSuffix(c.BaseURL, "/")
	if c.UpstreamTimeout == 0 {
		c.UpstreamTimeout = 5 * time.Second
	}
	if c.MetadataCacheTTL == 0 {
		c.MetadataCacheTTL = 5 * time.Second
	}
	if c.MaxBodyBytes == 0 {
		c.MaxBodyBytes = 1 << 20
	}
	if c.Identity.Audience == "" && c.Identity.ClientID != "" {
		c.Identity.Audience = "api://" + c.Identity.ClientID
	}
	if len(c.Identity.Scopes) == 0 {
		c.Identity.Scopes = []string{"openid", "profile", "offline_access", c.Identity.Audience + "/.default"}
	}
	if c.Identity.GroupsClaim == "" {
		c.Identity.GroupsClaim = "groups"
	}
	c.RateLimits.Caller.orDefault(50, 100)
	c.RateLimits.Unit.orDefault(200, 400)
	c.RateLimits.CloudWritesPerUnit.orDefault(10, 50)
	c.RateLimits.CloudWrites.orDefault(25, 50)
	if c.Audit.RetentionDays == 0 {
		c.Audit.RetentionDays = 400
	}
	if c.Session.MaxAge == 0 {
		c.Session.MaxAge = 8 * time.Hour
	}
	if c.DevIDP != nil && c.DevIDP.AccessTokenLifetime == 0 {
		c.DevIDP.AccessTokenLifetime = 15 * time.Minute
	}
	if c.ConfluentCloud.APIKey != "" && c.ConfluentCloud.URL == "" {
		c.ConfluentCloud.URL = "https://api.confluent.cloud"
	}
	for i := range c.LandingZones {
		for st, e := range c.LandingZones[i].Environments {
			if e.Kafka.SecurityProtocol == "" {
				if e.Kafka.APIKey != "" {
					e.Kafka.SecurityProtocol = "SASL_SSL"
				} else {
					e.Kafka.SecurityProtocol = "PLAINTEXT"
				}
			}
			if e.Kafka.SASLMechanism == "" && strings.HasPrefix(e.Kafka.SecurityProtocol, "SASL") {
				e.Kafka.SASLMechanism = "PLAIN"
			}
			c.LandingZones[i].Environments[st] = e
		}
	}
}

// IsDev reports whether the configuration is for dev mode.
func (c *Config) IsDev() bool { return c.Mode == ModeDev }
