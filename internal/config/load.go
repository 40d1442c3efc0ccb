package config

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/edh-platform/rms-portal/internal/tenancy"
)

//go:embed dev.yaml
var devYAML []byte

// Dev returns the committed development configuration: the demo tenancy,
// embedded clusters and the development identity provider.
func Dev(env func(string) string) (*Config, error) {
	return Parse(devYAML, "dev.yaml", env)
}

// Load reads, expands and validates a configuration file.
func Load(path string, env func(string) string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	return Parse(data, path, env)
}

// Parse expands and validates a configuration read from a file named
// name.
func Parse(data []byte, name string, env func(string) string) (*Config, error) {
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
	// Keys this release does not know are warnings, not errors: the
	// previous release must start with the next one's configuration.
	c.Unknown = unknownKeys(&root, reflect.TypeFor[Config]())
	if err := yaml.NewDecoder(&buf).Decode(&c); err != nil {
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
	if s := env("RMS_CLOUD_API_KEY"); s != "" {
		c.ConfluentCloud.APIKey = s
	}
	if s := env("RMS_CLOUD_API_SECRET"); s != "" {
		c.ConfluentCloud.APISecret = s
	}
	if s := env("RMS_DEV_CLOUD_ROLES"); s != "" {
		c.ConfluentCloud.EmbeddedRoles = s
	}
	if s := env("RMS_METRICS_BEARER_TOKEN"); s != "" {
		c.Metrics.BearerToken = s
	}
	if s := env("RMS_METRICS_PASSWORD"); s != "" {
		c.Metrics.Password = s
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
	if c.ConfluentCloud.Embedded && c.ConfluentCloud.EmbeddedKeyDelay == 0 {
		c.ConfluentCloud.EmbeddedKeyDelay = 3 * time.Second
	}
	if c.ConfluentCloud.Embedded && c.ConfluentCloud.EmbeddedBindingDelay == 0 {
		c.ConfluentCloud.EmbeddedBindingDelay = 2 * time.Second
	}
	if c.ConfluentCloud.BindingDelay == 0 {
		c.ConfluentCloud.BindingDelay = 30 * time.Second
		if c.ConfluentCloud.Embedded {
			c.ConfluentCloud.BindingDelay = c.ConfluentCloud.EmbeddedBindingDelay
		}
	}
	if c.UpstreamTimeout == 0 {
		c.UpstreamTimeout = 5 * time.Second
	}
	if c.MetadataCacheTTL == 0 {
		c.MetadataCacheTTL = 15 * time.Second
	}
	if c.KafkaIdleAfter == 0 {
		c.KafkaIdleAfter = 10 * time.Minute
	}
	if c.MetadataMaxStaleness == 0 {
		c.MetadataMaxStaleness = 5 * time.Minute
	}
	if c.Shutdown.Drain == 0 && c.Mode != ModeDev {
		c.Shutdown.Drain = 10 * time.Second
	}
	if c.Shutdown.Grace == 0 {
		c.Shutdown.Grace = 20 * time.Second
	}
	if c.MaxBodyBytes == 0 {
		c.MaxBodyBytes = 2 << 20
	}
	if c.Database.MaxOpenConns == 0 {
		c.Database.MaxOpenConns = 10
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
	c.RateLimits.Anonymous.orDefault(1, 30)
	c.RateLimits.MetricsAPI.orDefault(0.75, 15)
	c.RateLimits.UpstreamShare.orDefault()
	c.RateLimits.CostlyWork.orDefault()
	if c.Webhooks.MaxPerZone == 0 {
		c.Webhooks.MaxPerZone = 20
	}
	if c.RateLimits.LargeRequestBytes == 0 {
		c.RateLimits.LargeRequestBytes = 256 << 10
	}
	for i := range c.Stages {
		if c.Stages[i].DataAccess == "" {
			c.Stages[i].DataAccess = tenancy.DataDevelopers
			if c.Stages[i].ReadOnly {
				c.Stages[i].DataAccess = tenancy.DataOff
			}
		}
		if c.Stages[i].MaskingUnclassified == "" {
			c.Stages[i].MaskingUnclassified = tenancy.UnclassifiedMask
		}
		if c.Stages[i].Masking == "" {
			c.Stages[i].Masking = tenancy.MaskingOff
			if c.Stages[i].ReadOnly {
				c.Stages[i].Masking = tenancy.MaskingTags
			}
		}
		if c.Stages[i].Produce == "" {
			c.Stages[i].Produce = tenancy.ProduceDevelopers
			if c.Stages[i].ReadOnly {
				c.Stages[i].Produce = tenancy.ProduceOff
			}
		}
	}
	if c.ConnectorAutoRestart.FirstAfter == 0 {
		c.ConnectorAutoRestart.FirstAfter = time.Minute
	}
	if c.ConnectorAutoRestart.MaxBackoff == 0 {
		c.ConnectorAutoRestart.MaxBackoff = time.Hour
	}
	if c.ConnectorAutoRestart.Every == 0 {
		c.ConnectorAutoRestart.Every = 15 * time.Second
	}
	if c.Catalog.ExpiryEvery == 0 {
		c.Catalog.ExpiryEvery = time.Minute
	}
	if c.Catalog.WarnBefore == 0 {
		c.Catalog.WarnBefore = 72 * time.Hour
	}
	if c.Costs.Every == 0 {
		c.Costs.Every = 5 * time.Minute
	}
	if c.Costs.BaseRule == "" {
		c.Costs.BaseRule = "equal"
	}
	if c.Costs.StagesPerRound == 0 {
		c.Costs.StagesPerRound = 3
	}
	if c.Costs.Backfill == 0 {
		c.Costs.Backfill = 7 * 24 * time.Hour
	}
	if c.Costs.HourlyRetention == 0 {
		c.Costs.HourlyRetention = 35 * 24 * time.Hour
	}
	if c.Costs.DailyRetention == 0 {
		c.Costs.DailyRetention = 396 * 24 * time.Hour
	}
	if c.Alerts.Every == 0 {
		c.Alerts.Every = 30 * time.Second
	}
	if c.Masking.Tags == nil {
		c.Masking.Tags = []string{"PII"}
	}
	if c.Masking.UnmaskedRole == "" {
		c.Masking.UnmaskedRole = "admin"
	}
	if c.Audit.RetentionDays == 0 {
		c.Audit.RetentionDays = 400
	}
	if c.Session.MaxPerUser == 0 {
		c.Session.MaxPerUser = 10
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
	if c.ConfluentCloud.APIKey != "" && c.ConfluentCloud.MetricsURL == "" {
		c.ConfluentCloud.MetricsURL = "https://api.telemetry.confluent.cloud"
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
			if e.Kafka.ClientSASLMechanism == "" {
				e.Kafka.ClientSASLMechanism = "PLAIN"
			}
			c.LandingZones[i].Environments[st] = e
		}
	}
}
