// Package config reads and validates the deployment configuration: a YAML
// file, with secrets taken from the environment. A bad file stops the
// process with messages that name each offending key.
package config

import (
	_ "embed"
	"net/netip"
	"strings"
	"time"
)

// Config is the whole deployment configuration.
type Config struct {
	// Mode is "production" (the default) or "dev". Dev mode runs the
	// development identity provider and embedded clusters.
	Mode string `yaml:"mode"`
	// Listen is the address the HTTP server binds, ":8080" by default; the
	// PORT environment variable overrides its port.
	Listen string `yaml:"listen" env:"PORT (its port)"`
	// BaseURL is the public URL of the portal, used for redirects.
	BaseURL string `yaml:"base_url" env:"BASE_URL" default:"http://localhost:{port} in dev mode"`
	// PlatformAdminGroup members are Super Admin everywhere and see the
	// admin area.
	PlatformAdminGroup string `yaml:"platform_admin_group"`
	// UpstreamTimeout bounds every call to an upstream service.
	UpstreamTimeout time.Duration `yaml:"upstream_timeout"`
	// MetadataCacheTTL is how often a cluster's cached topic list is
	// refetched in the background (topics created outside the portal
	// show within it; the portal's own writes show at once).
	MetadataCacheTTL time.Duration `yaml:"metadata_cache_ttl"`
	// MetadataMaxStaleness bounds the age of a topic list served while
	// refetching fails; past it, lists fail with the cluster (503).
	MetadataMaxStaleness time.Duration `yaml:"metadata_max_staleness"`
	// KafkaIdleAfter is how long a cluster's client connections stay
	// open after an environment's last use (10 minutes by default): a
	// replica holds connections and threads for the environments in use,
	// not for every one configured.
	KafkaIdleAfter time.Duration `yaml:"kafka_idle_after"`
	// MaxBodyBytes bounds request bodies: 2 MiB by default, room for a
	// produce of 1 MiB of records with the JSON or form around them.
	MaxBodyBytes int64 `yaml:"max_body_bytes"`

	Identity Identity `yaml:"identity"`
	Session  Session  `yaml:"session"`
	// Database holds sessions, jobs, the audit trail and samples.
	Database Database `yaml:"database"`
	Audit    Audit    `yaml:"audit"`
	// RateLimits protect the portal and the Cloud API from runaway callers.
	RateLimits RateLimits `yaml:"rate_limits"`
	// TrustedProxies are the addresses (CIDRs) of the proxies in front of
	// the portal whose X-Forwarded-For is believed: the client's address
	// in logs, the audit trail and per-address limits is the last one a
	// trusted proxy added. None by default: the peer's address is used.
	TrustedProxies []string `yaml:"trusted_proxies"`
	// Metrics configures the Prometheus endpoint.
	Metrics Metrics `yaml:"metrics"`
	// ConfluentCloud is the Cloud API (Connect v1, IAM v2, identity
	// providers v2) shared by every environment.
	ConfluentCloud CloudAPI `yaml:"confluent_cloud"`
	// Stages are the deployment stages, in promotion order (dev, qas, run).
	Stages []Stage `yaml:"stages"`
	// LandingZones are the clusters and the business units on them.
	LandingZones []LandingZone `yaml:"landing_zones"`
	// Shutdown is how a replica stops on SIGTERM.
	Shutdown Shutdown `yaml:"shutdown"`
	// Webhooks are how events reach the webhooks platform admins
	// configure in the admin area.
	Webhooks Webhooks `yaml:"webhooks"`
	// ChangeRequests bound the life of change requests.
	ChangeRequests ChangeRequests `yaml:"change_requests"`
	// ConnectorAutoRestart paces the portal's restarts of failed
	// connectors whose auto-restart is on.
	ConnectorAutoRestart ConnectorAutoRestart `yaml:"connector_auto_restart"`
	// Alerts configures the units' alert rules: how often they are
	// evaluated, and the platform's default rules.
	Alerts Alerts `yaml:"alerts"`
	// Catalog configures the zones' topic catalog: the data
	// classifications owners choose from (which bound grants), and the
	// expiry of grants.
	Catalog Catalog `yaml:"catalog"`
	// Masking says which schema tags mark a field as sensitive, and who
	// sees such fields whole where a stage masks them.
	Masking Masking `yaml:"masking"`
	// Costs configures what each unit uses and costs: how often usage and
	// costs are read, how shared clusters' base capacity is split, and how
	// long the rollups are kept.
	Costs Costs `yaml:"costs"`
	// Recovery is how the replicas finish what a stopped replica left.
	Recovery Recovery `yaml:"recovery"`
	// DevIDP configures the development identity provider (dev mode only).
	DevIDP *DevIDP `yaml:"dev_idp"`

	// Unknown lists the keys of the file that this release does not know
	// ("path (line N)"): they are ignored, logged at start and shown in
	// the admin area; check-config --strict refuses them.
	Unknown []string `yaml:"-"`
}

// Shutdown is how a replica stops: on SIGTERM /readyz fails at once while
// the listener keeps serving through the drain period, so that load
// balancers take the replica out before it stops taking connections; then
// the listener closes, requests in flight finish within the grace period,
// and background work stops at a safe point (a bulk job between two
// items, handed over to another replica).
type Shutdown struct {
	// Drain is how long the replica keeps serving after SIGTERM; 10s by
	// default, none in dev mode; a negative value turns it off.
	Drain time.Duration `yaml:"drain"`
	// Grace bounds the wait for requests in flight once the listener is
	// closed; 20s by default.
	Grace time.Duration `yaml:"grace"`
}

// Webhooks bound the delivery of events: a failed delivery is retried
// after RetryBase, doubling up to RetryMax, until GiveUp after its event.
type Webhooks struct {
	// RetryBase is the wait after a delivery's first failed attempt.
	RetryBase time.Duration `yaml:"retry_base" default:"5s"`
	// RetryMax bounds the wait between attempts (it doubles up to it).
	RetryMax time.Duration `yaml:"retry_max" default:"10m"`
	// GiveUp ends the retries of an event this long after it.
	GiveUp time.Duration `yaml:"give_up" default:"24h"`
	// AllowedNetworks are ranges (CIDRs) webhooks may reach although they
	// are not public, such as a receiver inside the company network.
	// Anything else internal (this host, private networks, link-local and
	// cloud metadata addresses) is refused when a webhook is saved and
	// again when it is delivered. Dev mode allows loopback.
	AllowedNetworks []string `yaml:"allowed_networks"`
	// MaxPerZone bounds the webhooks of one landing zone.
	MaxPerZone int `yaml:"max_per_zone" default:"20"`
}

// AllowedPrefixes are AllowedNetworks, parsed (Validate refuses bad ones).
func (w Webhooks) AllowedPrefixes() []netip.Prefix {
	var out []netip.Prefix
	for _, s := range w.AllowedNetworks {
		if p, err := netip.ParsePrefix(strings.TrimSpace(s)); err == nil {
			out = append(out, p.Masked())
		}
	}
	return out
}

// Catalog: the classifications owners give their topics, least strict
// first, and how grants expire.
type Catalog struct {
	// Classifications replace the built-in ones when given: public
	// (grants up to 365 days, write may be asked), internal (90 days,
	// write), confidential (30 days, read only), restricted (7 days, read
	// only, two approvals).
	Classifications []Classification `yaml:"classifications" default:"public, internal, confidential, restricted"`
	// Default is the classification of a topic its owner has not
	// classified.
	Default string `yaml:"default" default:"internal"`
	// ExpiryEvery is how often one replica revokes the grants whose time
	// is up and announces those that end soon.
	ExpiryEvery time.Duration `yaml:"expiry_every" default:"1m"`
	// WarnBefore is how long before its end a grant is announced (an
	// event, and the unit's expiring list).
	WarnBefore time.Duration `yaml:"warn_before" default:"72h"`
}

// Costs: usage read from the Metrics API by one replica at a time (a few
// stages a round, each stage's hours since it was last read, grouped by
// topic) and daily costs from the Billing API, split across each shared
// cluster's units by their share of the matching usage.
type Costs struct {
	// BaseRule splits a shared cluster's base capacity and its Schema
	// Registry across its units: equal, partitions or bytes (in and out).
	BaseRule string `yaml:"base_rule" default:"equal"`
	// Every is how often a round runs.
	Every time.Duration `yaml:"every" default:"5m"`
	// StagesPerRound bounds the stages read a round, so that a round takes
	// few Metrics API requests (three a stage, more past 1,000 topics).
	StagesPerRound int `yaml:"stages_per_round" default:"3"`
	// Backfill is how far back a stage is read the first time, and how
	// long a gap is read again: the Metrics API's retention.
	Backfill time.Duration `yaml:"backfill" default:"168h (744h in dev mode, whose stand-in keeps a month)"`
	// HourlyRetention and DailyRetention bound what the database keeps of
	// the hourly and the daily rollups (and the costs).
	HourlyRetention time.Duration `yaml:"hourly_retention" default:"840h"`
	DailyRetention  time.Duration `yaml:"daily_retention" default:"9504h (13 months)"`
}

// Classification is a data classification and what grants on its topics
// may be.
type Classification struct {
	// Name is lower-case letters, digits, '-', '_' or '.'.
	Name string `yaml:"name"`
	// MaxGrant is the longest a grant lasts (and what a request naming no
	// duration gets); at least 1h.
	MaxGrant time.Duration `yaml:"max_grant"`
	// Write lets other units ask for write access.
	Write bool `yaml:"write"`
	// Approvals is how many of the owner's Admins approve a grant: 1 or
	// 2.
	Approvals int `yaml:"approvals"`
}

// Alerts: one replica evaluates every unit's alert rules Every; Defaults
// are every unit's rules until the unit saves one of the same name.
type Alerts struct {
	// Every is how often the rules are evaluated (one read of each kind
	// per cluster a round, whatever the number of rules).
	Every time.Duration `yaml:"every" default:"30s"`
	// Defaults replace the built-in default rules (connector-failed,
	// key-expiring) when given ([] for none). A rule that reads the
	// clusters (lag_time, stalled, topic_growth) keeps every environment's
	// Kafka clients open.
	Defaults []AlertRule `yaml:"defaults" default:"connector-failed (2 min), key-expiring (7 days)"`
}

// AlertRule is a default alert rule.
type AlertRule struct {
	// Name identifies the rule in every unit (lower case, digits, dashes).
	Name string `yaml:"name"`
	// Kind is lag_time, stalled, connector_failed, key_expiring,
	// budget_headroom, topic_growth or cost_forecast.
	Kind string `yaml:"kind"`
	// Target is a group, connector or topic identifier, or * for all.
	Target string `yaml:"target"`
	// Threshold is in the kind's unit: seconds behind, days before
	// expiry, percent of a limit left, records a second.
	Threshold float64 `yaml:"threshold"`
	// For is how long the condition holds before the rule fires (and
	// ends before it resolves).
	For time.Duration `yaml:"for"`
	// Disabled keeps the rule listed but off until a unit turns it on.
	Disabled bool `yaml:"disabled"`
}

// ConnectorAutoRestart: a failed connector (or task) whose auto-restart
// is on is restarted FirstAfter after its failure was seen, then after
// twice the last wait, up to MaxBackoff; one replica looks Every.
type ConnectorAutoRestart struct {
	// FirstAfter is the wait from a failure seen to the first restart.
	FirstAfter time.Duration `yaml:"first_after" default:"1m"`
	// MaxBackoff bounds the wait between restarts (it doubles up to it).
	MaxBackoff time.Duration `yaml:"max_backoff" default:"1h"`
	// Every is how often the connectors' states are read (one listing
	// per cluster that has connectors with auto-restart on).
	Every time.Duration `yaml:"every" default:"15s"`
}

// Masking hides the values of record fields that their schema tags as
// sensitive (confluent:tags in Avro and JSON Schema), in the stages whose
// masking is on, from readers below a role.
type Masking struct {
	// Tags mark the fields whose values are masked (compared without
	// regard to case).
	Tags []string `yaml:"tags" default:"[PII]"`
	// UnmaskedRole is the lowest role on the unit that reads masked
	// fields whole: viewer, developer, admin or super_admin.
	UnmaskedRole string `yaml:"unmasked_role" default:"admin"`
}

// ChangeRequests: an open request expires MaxAge after it was filed.
type ChangeRequests struct {
	// MaxAge is how long a request stays open for review.
	MaxAge time.Duration `yaml:"max_age" default:"168h"`
}

// Recovery is how the replicas finish what a stopped replica left half
// done: a grant decision, a change request's apply or a key rotation
// under way for longer than StoppedAfter is taken for stopped (a running
// one holds its lock, and is waited for) and finished by one replica; an
// audit attempt whose outcome is still unknown after SettleAfter is
// settled by looking at the upstream, or published as unknown.
type Recovery struct {
	// Every is how often one replica looks.
	Every time.Duration `yaml:"every" default:"15s"`
	// StoppedAfter is how long an operation may be under way before it
	// is taken for stopped; at least 10s, longer than a job's lease, so
	// that a job the stopped replica ran (an account of an apply) is
	// finished by its own runner first.
	StoppedAfter time.Duration `yaml:"stopped_after" default:"1m"`
	// SettleAfter is how long an attempt stays unknown before the
	// upstream settles it: longer than a write waits for its upstream.
	SettleAfter time.Duration `yaml:"settle_after" default:"2m"`
	// Heartbeat is how often each replica says it runs; one not heard of
	// for three heartbeats, or that said it stopped, is stopped, and what
	// it left unknown is settled at the next look, without waiting for
	// settle_after (at least 1s).
	Heartbeat time.Duration `yaml:"heartbeat" default:"10s"`
}

// HeartbeatEvery is the replicas' heartbeat, with its default.
func (r Recovery) HeartbeatEvery() time.Duration {
	if r.Heartbeat <= 0 {
		return 10 * time.Second
	}
	return max(r.Heartbeat, time.Second)
}

// Values are the recovery's settings, with their defaults.
func (r Recovery) Values() (every, stoppedAfter, settleAfter time.Duration) {
	or := func(d, def time.Duration) time.Duration {
		if d <= 0 {
			return def
		}
		return d
	}
	return or(r.Every, 15*time.Second), max(or(r.StoppedAfter, time.Minute), 10*time.Second), or(r.SettleAfter, 2*time.Minute)
}

// Backoff is the wait before the attempt after n failed ones.
func (w Webhooks) Backoff(n int) time.Duration {
	base, most := w.RetryBase, w.RetryMax
	if base <= 0 {
		base = 5 * time.Second
	}
	if most <= 0 {
		most = 10 * time.Minute
	}
	return min(base<<min(n-1, 20), most)
}

// DrainPeriod is the drain period in force (none when turned off).
func (s Shutdown) DrainPeriod() time.Duration { return max(s.Drain, 0) }

// Identity configures the OpenID Connect identity provider.
type Identity struct {
	// Issuer is the provider's issuer URL; "embedded" selects the
	// development provider at {base_url}/dev/idp (dev mode only).
	Issuer string `yaml:"issuer"`
	// ClientID is the portal's client (application) id.
	ClientID string `yaml:"client_id"`
	// ClientSecret is optional: without it the portal signs people in as a
	// public client with PKCE. Prefer RMS_OIDC_CLIENT_SECRET.
	ClientSecret string `yaml:"client_secret" env:"RMS_OIDC_CLIENT_SECRET"`
	// Audience that API bearer tokens must carry; api://{client_id} by default.
	Audience string `yaml:"audience" default:"api://{client_id}"`
	// AcceptedIssuers lists further issuers whose tokens are accepted (for
	// example an identity provider's v1 and v2 endpoints).
	AcceptedIssuers []string `yaml:"accepted_issuers"`
	// Scopes requested at sign-in.
	Scopes []string `yaml:"scopes" default:"openid, profile, offline_access, {audience}/.default"`
	// GroupsClaim names the token claim that lists group ids or names.
	GroupsClaim string `yaml:"groups_claim"`
}

// Session configures browser sessions.
type Session struct {
	// Keys are secrets of at least 32 characters; the first protects new
	// sessions, the others are still accepted so that keys can be rotated.
	// RMS_SESSION_KEYS (comma separated) overrides them.
	Keys []string `yaml:"keys" env:"RMS_SESSION_KEYS (comma separated)"`
	// MaxAge bounds a session's life; 8h by default.
	MaxAge time.Duration `yaml:"max_age"`
	// MaxPerUser bounds a person's live sessions; a new sign-in beyond it
	// ends the oldest. 10 by default.
	MaxPerUser int `yaml:"max_per_user"`
}

// Database locates the portal's own database.
type Database struct {
	// URL is postgres://... (production, several replicas) or sqlite:PATH
	// (one node). DATABASE_URL overrides it. Dev mode defaults to SQLite
	// in a temporary file (or in --data DIR).
	URL string `yaml:"url" env:"DATABASE_URL" default:"SQLite in a temporary directory in dev mode"`
	// MaxOpenConns bounds a replica's connections to PostgreSQL (2 to
	// 200). Size it so that replicas (the autoscaler's maximum) times this
	// stays under the server's max_connections, less its reserve.
	MaxOpenConns int `yaml:"max_open_conns" default:"10"`
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
	// Anonymous bounds, per source address, the requests of callers who
	// are not authenticated: failed tokens and sign-in starts. 1/s with
	// bursts of 30.
	Anonymous Bucket `yaml:"anonymous"`
	// UpstreamShare bounds what one business unit takes of each upstream
	// (a cluster, a Schema Registry, a Cloud API), so that one unit's
	// flood waits or is refused alone.
	UpstreamShare UpstreamShare `yaml:"upstream_share"`
	// CostlyWork bounds the work that costs the portal's own processors
	// rather than an upstream's: record reads with filters (text or CEL)
	// and requests whose bodies reach LargeRequestBytes (reading and
	// decoding them). Both share these bounds, so that one unit's costly
	// work never takes every processor from the other units' requests.
	CostlyWork Shares `yaml:"costly_work"`
	// LargeRequestBytes is the body size from which a request is costly
	// work; 256 KiB by default.
	LargeRequestBytes int64 `yaml:"large_request_bytes"`
	// MetricsAPI is the whole fleet's budget of Confluent Cloud Metrics
	// API requests (each page of a query counts), shared by every replica
	// through the database: 0.75/s with bursts of 15, so that the API sees
	// at most 15 + 45 = 60 requests in any minute, its limit per source
	// address (beyond, only the pages a query owes when its answer grew).
	MetricsAPI Bucket `yaml:"metrics_api"`
}

// UpstreamShare is one unit's share of one upstream.
type UpstreamShare struct {
	// Concurrency is how many calls of one unit an upstream serves at
	// once; 4 by default.
	Concurrency int `yaml:"concurrency"`
	// Wait bounds how long a person's call waits for a slot before it is
	// refused with 429 and Retry-After; 2s by default. Bulk jobs and
	// applies wait as long as they need.
	Wait time.Duration `yaml:"wait"`
	// BusyPerMinute is how much of an upstream's time (the sum of its
	// calls' durations) one unit may use per minute; 2m by default.
	BusyPerMinute time.Duration `yaml:"busy_per_minute"`
}

// Shares bound costly work at once.
type Shares struct {
	// PerCaller is how many one person or client runs at once; 1 by
	// default.
	PerCaller int `yaml:"per_caller"`
	// PerUnit is how many one business unit runs at once; 2 by default.
	PerUnit int `yaml:"per_unit"`
	// Total is how many a replica runs at once; 0 (the default) is half
	// its CPUs, at least 1, so that they never take every processor from
	// other requests.
	Total int `yaml:"total"`
	// Wait bounds how long one waits for its turn before it is refused
	// with 429; 2s by default.
	Wait time.Duration `yaml:"wait"`
	// BusyPerMinute is how much of a replica's time of such work one
	// business unit may take a minute; 30s by default (half a processor).
	BusyPerMinute time.Duration `yaml:"busy_per_minute"`
}

// Bucket is a rate and a burst.
type Bucket struct {
	// PerSecond is the steady rate.
	PerSecond float64 `yaml:"per_second"`
	// Burst is how many may come at once.
	Burst int `yaml:"burst"`
}

func (b *Bucket) orDefault(rate float64, burst int) {
	if b.PerSecond == 0 {
		b.PerSecond = rate
	}
	if b.Burst == 0 {
		b.Burst = burst
	}
}

func (u *UpstreamShare) orDefault() {
	if u.Concurrency == 0 {
		u.Concurrency = 4
	}
	if u.Wait == 0 {
		u.Wait = 2 * time.Second
	}
	if u.BusyPerMinute == 0 {
		u.BusyPerMinute = 2 * time.Minute
	}
}

func (s *Shares) orDefault() {
	if s.PerCaller == 0 {
		s.PerCaller = 1
	}
	if s.PerUnit == 0 {
		s.PerUnit = 2
	}
	if s.Wait == 0 {
		s.Wait = 2 * time.Second
	}
	if s.BusyPerMinute == 0 {
		s.BusyPerMinute = 30 * time.Second
	}
}

// Metrics configures /metrics, which never needs a user's token.
type Metrics struct {
	// Listen, when set (":9090"), serves /metrics on its own port instead
	// of the main one.
	Listen string `yaml:"listen"`
	// BearerToken or Username and Password, when set, protect /metrics.
	BearerToken string `yaml:"bearer_token" env:"RMS_METRICS_BEARER_TOKEN"`
	Username    string `yaml:"username"`
	Password    string `yaml:"password" env:"RMS_METRICS_PASSWORD"`
	// Profiling serves Go's runtime profiles (/debug/pprof/: heap,
	// goroutines, CPU) on the metrics port, behind its credentials. It
	// needs Listen, so that profiles never reach the public port.
	Profiling bool `yaml:"profiling"`
}

// Audit configures the audit trail.
type Audit struct {
	// RetentionDays is how long events are kept; 400 by default.
	RetentionDays int `yaml:"retention_days"`
}

// Stage is one deployment stage.
type Stage struct {
	// Name of the stage (dev, qas, run).
	Name string `yaml:"name"`
	// ReadOnly stages refuse Developers' writes.
	ReadOnly bool `yaml:"read_only"`
	// DataAccess says who may read topics' records in the stage: off,
	// developers (and up) or viewers (and up).
	DataAccess string `yaml:"data_access" default:"off in read-only stages, else developers"`
	// Produce says who may write records to topics by hand (the portal's
	// produce form, API and portalctl produce): off, developers (and up)
	// or admins (and up). In a stage that is read-only at the time, only
	// Admins and up may, as for any change.
	Produce string `yaml:"produce" default:"off in read-only stages, else developers"`
	// APIKeyMaxAge is the longest an API key of the stage lives ("2160h"
	// for 90 days): every key gets an expiry at most this far from its
	// creation, keys made outside the portal are adopted with one from
	// theirs, and the portal deletes expired keys. None when absent.
	APIKeyMaxAge time.Duration `yaml:"api_key_max_age"`
	// Changes says how Developers change the stage: direct (their writes
	// go through) or request (their writes are refused with the way to a
	// change request that an Admin reviews).
	Changes string `yaml:"changes" default:"request in read-only stages, else direct"`
	// FourEyes makes Admins and Super Admins go through a change request
	// too: nobody changes the stage alone; another person approves.
	FourEyes bool `yaml:"four_eyes"`
	// Masking says whether record reads (the records browser, downloads,
	// tails, the API) mask the fields the schema tags (masking.tags) for
	// readers below masking.unmasked_role: off or tags.
	Masking string `yaml:"masking" default:"tags in read-only stages, else off"`
	// MaskingUnclassified says what masking does, for readers below
	// masking.unmasked_role, with a record whose value it cannot classify
	// (not in the Schema Registry's wire format: plain text, JSON without
	// a registered schema): mask (the value masked whole, its encoding
	// and the class of its length kept) or refuse (a read that meets one
	// is refused with 403 DATA_ACCESS_DISABLED).
	MaskingUnclassified string `yaml:"masking_unclassified" default:"mask"`
}

// LandingZone is a shared set of clusters, or a dedicated unit's clusters.
type LandingZone struct {
	// ID names the zone; resource names start with it (edh-shared-...).
	ID string `yaml:"id"`
	// Dedicated zones belong to one business unit of the same id.
	Dedicated bool `yaml:"dedicated"`
	// MainBU is the unit from which the zone's Super Admins see the whole cluster.
	MainBU string `yaml:"main_bu"`
	// SuperAdminGroups are Super Admin in every unit of the zone.
	SuperAdminGroups []string `yaml:"super_admin_groups"`
	// Environments are the zone's connections, by stage name.
	Environments map[string]Environment `yaml:"environments"`
	// BusinessUnits are the zone's tenants.
	BusinessUnits []BusinessUnit `yaml:"business_units"`
}

// BusinessUnit is a tenant and the groups that grant roles in it.
type BusinessUnit struct {
	// ID names the unit (lower case letters and digits).
	ID string `yaml:"id"`
	// Groups grant the unit's roles.
	Groups Groups `yaml:"groups"`
}

// Groups maps identity-provider groups (ids or names) to roles.
type Groups struct {
	// Admin groups may write in every stage, read-only ones too.
	Admin []string `yaml:"admin"`
	// Developer groups may write in stages that are not read-only.
	Developer []string `yaml:"developer"`
	// Viewer groups may read.
	Viewer []string `yaml:"viewer"`
}

// Environment holds the upstream connections of one landing zone in one stage.
type Environment struct {
	Kafka Kafka `yaml:"kafka"`
	// EnvironmentID and KafkaClusterID locate the cluster in Confluent
	// Cloud for the Connect API (env-..., lkc-...).
	EnvironmentID  string `yaml:"environment_id"`
	KafkaClusterID string `yaml:"kafka_cluster_id"`
	// IdentityProviderID owns the stage's identity pools (op-...).
	IdentityProviderID string `yaml:"identity_provider_id"`
	// PartitionLimit is the cluster's partition limit, which the admin
	// area's budgets compare every unit's partitions with (a warning at
	// 80%); when 0, it is read from Confluent Cloud's Service Quotas API
	// (kafka.max_partitions.per_cluster) for kafka_cluster_id.
	PartitionLimit int64          `yaml:"partition_limit"`
	SchemaRegistry SchemaRegistry `yaml:"schema_registry"`
}

// CloudAPI is a connection to the Confluent Cloud API.
type CloudAPI struct {
	// Embedded starts in-process stand-ins (dev mode only).
	Embedded bool `yaml:"embedded"`
	// EmbeddedRoles, comma-separated, are the only roles the embedded
	// stand-in's key holds (AccountAdmin, CloudClusterAdmin,
	// MetricsViewer), to try a key without one; all by default.
	EmbeddedRoles string `yaml:"embedded_roles" env:"RMS_DEV_CLOUD_ROLES"`
	// EmbeddedKeyDelay and EmbeddedBindingDelay are how long the embedded
	// stand-in takes before a new API key signs in and before a changed
	// role binding is enforced, as Confluent Cloud takes up to about two
	// minutes and 90 s (dev mode only).
	EmbeddedKeyDelay     time.Duration `yaml:"embedded_key_delay" default:"3s"`
	EmbeddedBindingDelay time.Duration `yaml:"embedded_binding_delay" default:"2s"`
	// BindingDelay is how long Confluent Cloud takes to enforce a removed
	// role binding. A delete that ends other units' grants (its topic's,
	// or its principal's) waits as long after removing their bindings
	// before the resource goes, so that one made again under its name is
	// not readable by the grant's principal meanwhile: at most 50s (the
	// request must answer); the embedded stand-in's delay in dev mode.
	BindingDelay time.Duration `yaml:"binding_delay" default:"30s (embedded_binding_delay in dev mode)"`
	// OrganizationID scopes role bindings.
	OrganizationID string `yaml:"organization_id"`
	// URL of the Cloud API; https://api.confluent.cloud when an API key is set.
	URL string `yaml:"url" default:"https://api.confluent.cloud when api_key is set"`
	// APIKey and APISecret are a Cloud API key of a service account allowed
	// to manage connectors, service accounts, role bindings and identity pools.
	APIKey    string `yaml:"api_key" env:"RMS_CLOUD_API_KEY"`
	APISecret string `yaml:"api_secret" env:"RMS_CLOUD_API_SECRET"`
	// MetricsURL is the Metrics API v2 (throughput, retained bytes,
	// consumer lag), read with the same key.
	MetricsURL string `yaml:"metrics_url" default:"https://api.telemetry.confluent.cloud when api_key is set"`
}

// Enabled reports whether a Cloud API is configured.
func (c CloudAPI) Enabled() bool { return c.Embedded || c.URL != "" || c.APIKey != "" }

// SchemaRegistry is a connection to a Schema Registry.
type SchemaRegistry struct {
	// Embedded starts an in-process registry (dev mode only).
	Embedded bool `yaml:"embedded"`
	// ClusterID (lsrc-...) scopes role bindings on subjects.
	ClusterID string `yaml:"cluster_id"`
	// URL of the registry's REST API.
	URL string `yaml:"url"`
	// APIKey and APISecret are the registry's API key (write them as ${NAME}).
	APIKey    string `yaml:"api_key"`
	APISecret string `yaml:"api_secret"`
}

// Kafka is a cluster connection.
type Kafka struct {
	// Embedded starts an in-process cluster (dev mode only).
	Embedded bool `yaml:"embedded"`
	// BootstrapServers is the cluster's host:port list.
	BootstrapServers string `yaml:"bootstrap_servers"`
	// SecurityProtocol is PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL.
	SecurityProtocol string `yaml:"security_protocol" default:"SASL_SSL with an api_key, else PLAINTEXT"`
	// SASLMechanism is PLAIN by default (Confluent Cloud API keys).
	SASLMechanism string `yaml:"sasl_mechanism" default:"PLAIN with SASL"`
	// ClientSASLMechanism is the mechanism applications use with the API
	// keys the portal makes for them: what it writes into a new key's
	// client configuration.
	ClientSASLMechanism string `yaml:"client_sasl_mechanism" default:"PLAIN"`
	// APIKey and APISecret are the cluster's API key (write them as ${NAME}).
	APIKey    string `yaml:"api_key"`
	APISecret string `yaml:"api_secret"`
}

// DevIDP configures the development identity provider (dev mode only).
type DevIDP struct {
	// AccessTokenLifetime of the tokens it issues.
	AccessTokenLifetime time.Duration `yaml:"access_token_lifetime" default:"15m"`
	// Users who may sign in.
	Users []DevUser `yaml:"users"`
	// Clients that may ask for tokens.
	Clients []DevClient `yaml:"clients"`
}

// DevUser is a demo user of the development provider.
type DevUser struct {
	// Username to sign in with.
	Username string `yaml:"username"`
	// Name shown in the portal.
	Name string `yaml:"name"`
	// Groups in the user's tokens.
	Groups []string `yaml:"groups"`
	// Note shown on the sign-in page.
	Note string `yaml:"note"`
}

// DevClient is a client of the development provider.
type DevClient struct {
	// ID of the client.
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
	ClientCredentials bool `yaml:"client_credentials"`
	// Groups of the client's tokens (client credentials).
	Groups []string `yaml:"groups"`
}

// Modes.
const (
	ModeProduction = "production"
	ModeDev        = "dev"
)

// EmbeddedIssuer selects the development identity provider.
const EmbeddedIssuer = "embedded"

// IsDev reports whether the configuration is for dev mode.
func (c *Config) IsDev() bool { return c.Mode == ModeDev }

// TrustedProxyPrefixes are TrustedProxies as prefixes (an address alone is
// its own /32 or /128); entries that do not parse were refused by Validate.
func (c *Config) TrustedProxyPrefixes() []netip.Prefix {
	var out []netip.Prefix
	for _, s := range c.TrustedProxies {
		if p, err := netip.ParsePrefix(s); err == nil {
			out = append(out, p)
		} else if a, err := netip.ParseAddr(s); err == nil {
			out = append(out, netip.PrefixFrom(a, a.BitLen()))
		}
	}
	return out
}
