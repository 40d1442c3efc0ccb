package config

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// problems collects validation messages, each prefixed by its key path.
type problems []error

func (p *problems) add(key, format string, args ...any) {
	*p = append(*p, fmt.Errorf("%s: %s", key, fmt.Sprintf(format, args...)))
}

// Validate checks the whole configuration and reports every problem, each
// naming its key ("landing_zones[0].environments.dev.kafka.api_key: ...").
func (c *Config) Validate() error {
	var p problems
	switch c.Mode {
	case ModeProduction, ModeDev:
	default:
		p.add("mode", "must be %q or %q, not %q", ModeProduction, ModeDev, c.Mode)
	}
	c.validateServer(&p)
	c.validateIdentity(&p)
	c.validateSession(&p)
	c.validateDatabase(&p)
	c.validateCloud(&p)
	c.validateZones(&p)
	c.validateMasking(&p)
	c.validateCosts(&p)
	c.validateAutoRestart(&p)
	if len(p) == 0 {
		if _, err := c.Tenancy(); err != nil {
			p.add("landing_zones", "%v", err)
		}
	}
	return errors.Join(p...)
}

func (c *Config) validateServer(p *problems) {
	if c.BaseURL == "" {
		p.add("base_url", "required: the public URL of the portal, e.g. https://portal.example.com")
	} else if u, err := url.Parse(c.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		p.add("base_url", "must be an absolute http(s) URL, not %q", c.BaseURL)
	}
	if c.UpstreamTimeout < 0 {
		p.add("upstream_timeout", "must be positive")
	}
	if c.KafkaIdleAfter < 0 {
		p.add("kafka_idle_after", "must be positive")
	}
	if c.MetadataCacheTTL < 0 {
		p.add("metadata_cache_ttl", "must not be negative")
	}
	if c.ConfluentCloud.EmbeddedKeyDelay < 0 || c.ConfluentCloud.EmbeddedBindingDelay < 0 {
		p.add("confluent_cloud.embedded_key_delay", "the embedded stand-in's delays must not be negative")
	}
	if c.ConfluentCloud.BindingDelay < 0 || c.ConfluentCloud.BindingDelay > 50*time.Second {
		p.add("confluent_cloud.binding_delay", "must be between 0s and 50s (a delete waits for it), not %s", c.ConfluentCloud.BindingDelay)
	}
	if c.MetadataMaxStaleness < c.MetadataCacheTTL {
		p.add("metadata_max_staleness", "must be at least metadata_cache_ttl (%s)", c.MetadataCacheTTL)
	}
	if c.MaxBodyBytes < 1024 {
		p.add("max_body_bytes", "must be at least 1024")
	}
	if c.Metrics.Profiling && c.Metrics.Listen == "" {
		p.add("metrics.profiling", "needs metrics.listen: profiles are served on the metrics port only, never on the public one")
	}
	if u := c.RateLimits.UpstreamShare; u.Concurrency < 0 || u.Wait < 0 || u.BusyPerMinute < 0 {
		p.add("rate_limits.upstream_share", "must not be negative")
	}
	if sh := c.RateLimits.CostlyWork; sh.PerCaller < 0 || sh.PerUnit < 0 || sh.Total < 0 || sh.Wait < 0 || sh.BusyPerMinute < 0 {
		p.add("rate_limits.costly_work", "must not be negative")
	}
	for i, n := range c.Webhooks.AllowedNetworks {
		if _, err := netip.ParsePrefix(strings.TrimSpace(n)); err != nil {
			p.add(fmt.Sprintf("webhooks.allowed_networks[%d]", i), "must be a CIDR (10.20.0.0/16), not %q", n)
		}
	}
	if c.Webhooks.MaxPerZone < 0 {
		p.add("webhooks.max_per_zone", "must not be negative")
	}
	if c.RateLimits.LargeRequestBytes < 0 {
		p.add("rate_limits.large_request_bytes", "must not be negative")
	}
	if c.Database.MaxOpenConns < 2 || c.Database.MaxOpenConns > 200 {
		p.add("database.max_open_conns", "must be between 2 and 200, not %d", c.Database.MaxOpenConns)
	}
	for i, cidr := range c.TrustedProxies {
		if _, err := netip.ParsePrefix(cidr); err != nil {
			if _, aerr := netip.ParseAddr(cidr); aerr != nil {
				p.add(fmt.Sprintf("trusted_proxies[%d]", i), "must be an address or a CIDR (10.0.0.0/8), not %q", cidr)
			}
		}
	}
}

func (c *Config) validateIdentity(p *problems) {
	id := c.Identity
	switch {
	case id.Issuer == "":
		p.add("identity.issuer", "required: the OpenID Connect issuer URL")
	case id.Issuer == EmbeddedIssuer:
		if !c.IsDev() {
			p.add("identity.issuer", "%q selects the development identity provider, which runs only in dev mode", EmbeddedIssuer)
		}
		if c.DevIDP == nil {
			p.add("dev_idp", "required when identity.issuer is %q", EmbeddedIssuer)
		}
	default:
		if u, err := url.Parse(id.Issuer); err != nil || u.Scheme == "" || u.Host == "" {
			p.add("identity.issuer", "must be an absolute URL, not %q", id.Issuer)
		}
	}
	if id.ClientID == "" {
		p.add("identity.client_id", "required")
	}
	for i, iss := range id.AcceptedIssuers {
		if u, err := url.Parse(iss); err != nil || u.Scheme == "" || u.Host == "" {
			p.add(fmt.Sprintf("identity.accepted_issuers[%d]", i), "must be an absolute URL, not %q", iss)
		}
	}
	if c.DevIDP != nil {
		if !c.IsDev() {
			p.add("dev_idp", "the development identity provider runs only in dev mode; remove dev_idp")
		} else {
			c.validateDevIDP(p)
		}
	}
}

func (c *Config) validateDevIDP(p *problems) {
	seen := map[string]bool{}
	for i, u := range c.DevIDP.Users {
		key := fmt.Sprintf("dev_idp.users[%d].username", i)
		if u.Username == "" {
			p.add(key, "required")
		} else if seen[u.Username] {
			p.add(key, "%q is defined twice", u.Username)
		}
		seen[u.Username] = true
	}
	for i, cl := range c.DevIDP.Clients {
		if cl.ID == "" {
			p.add(fmt.Sprintf("dev_idp.clients[%d].id", i), "required")
		}
		if cl.ClientCredentials && cl.Secret == "" {
			p.add(fmt.Sprintf("dev_idp.clients[%d].secret", i), "required for client_credentials")
		}
	}
}

func (c *Config) validateSession(p *problems) {
	if len(c.Session.Keys) == 0 && !c.IsDev() {
		p.add("session.keys", "required: at least one secret of 32 or more characters (or set RMS_SESSION_KEYS)")
	}
	for i, k := range c.Session.Keys {
		if len(strings.TrimSpace(k)) < 32 {
			p.add(fmt.Sprintf("session.keys[%d]", i), "must be at least 32 characters long")
		}
	}
	if c.Session.MaxPerUser < 0 {
		p.add("session.max_per_user", "must not be negative")
	}
	if c.Session.MaxAge < 0 {
		p.add("session.max_age", "must be positive")
	}
}

func (c *Config) validateDatabase(p *problems) {
	d := c.Database
	switch {
	case d.URL == "" && c.IsDev():
		// dev mode picks a file of its own
	case d.URL == "":
		p.add("database.url", "required: postgres://user@host/db (any number of replicas) or sqlite:/var/lib/portal/portal.db (one node); or set DATABASE_URL")
	case d.IsPostgres():
		if u, err := url.Parse(d.URL); err != nil || u.Host == "" {
			p.add("database.url", "is not a valid postgres:// URL")
		}
	case d.SQLitePath() != "":
	default:
		p.add("database.url", "must start with postgres:// or sqlite:, not %q", redactURL(d.URL))
	}
	if c.Audit.RetentionDays < 1 {
		p.add("audit.retention_days", "must be at least 1")
	}
}

// redactURL drops a URL's password (in its user part or a password query
// parameter), for messages and the effective configuration.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		if i := strings.Index(s, "@"); i >= 0 {
			return "…" + s[i:]
		}
		return s
	}
	q := u.Query()
	for k := range q {
		if strings.Contains(strings.ToLower(k), "password") {
			q.Set(k, "xxxxx")
			u.RawQuery = q.Encode()
		}
	}
	return u.Redacted()
}

func (c *Config) validateAutoRestart(p *problems) {
	a := c.ConnectorAutoRestart
	if a.FirstAfter < time.Second || a.Every < time.Second {
		p.add("connector_auto_restart", "first_after and every must be at least 1s")
	}
	if a.MaxBackoff < a.FirstAfter {
		p.add("connector_auto_restart.max_backoff", "must not be below first_after (%s)", a.FirstAfter)
	}
}

func (c *Config) validateCosts(p *problems) {
	switch c.Costs.BaseRule {
	case "equal", "partitions", "bytes":
	default:
		p.add("costs.base_rule", "must be equal, partitions or bytes, not %q", c.Costs.BaseRule)
	}
	if c.Costs.Every < 10*time.Second {
		p.add("costs.every", "must be at least 10s, not %s", c.Costs.Every)
	}
	if c.Costs.StagesPerRound < 1 {
		p.add("costs.stages_per_round", "must be at least 1")
	}
	if c.Costs.HourlyRetention < c.Costs.Backfill {
		p.add("costs.hourly_retention", "must be at least costs.backfill (%s)", c.Costs.Backfill)
	}
	if c.Costs.DailyRetention < c.Costs.HourlyRetention {
		p.add("costs.daily_retention", "must be at least costs.hourly_retention (%s)", c.Costs.HourlyRetention)
	}
}

func (c *Config) validateMasking(p *problems) {
	switch c.Masking.UnmaskedRole {
	case "viewer", "developer", "admin", "super_admin":
	default:
		p.add("masking.unmasked_role", "must be viewer, developer, admin or super_admin, not %q", c.Masking.UnmaskedRole)
	}
	for i, tag := range c.Masking.Tags {
		if strings.TrimSpace(tag) == "" {
			p.add(fmt.Sprintf("masking.tags[%d]", i), "must not be empty")
		}
	}
}

func (c *Config) validateZones(p *problems) {
	if len(c.Stages) == 0 {
		p.add("stages", "at least one stage is required")
	}
	for i, st := range c.Stages {
		switch st.DataAccess {
		case tenancy.DataOff, tenancy.DataDevelopers, tenancy.DataViewers:
		default:
			p.add(fmt.Sprintf("stages[%d].data_access", i), "must be off, developers or viewers, not %q", st.DataAccess)
		}
		switch st.Masking {
		case tenancy.MaskingOff, tenancy.MaskingTags:
		default:
			p.add(fmt.Sprintf("stages[%d].masking", i), "must be off or tags, not %q", st.Masking)
		}
		switch st.MaskingUnclassified {
		case tenancy.UnclassifiedMask, tenancy.UnclassifiedRefuse:
		default:
			p.add(fmt.Sprintf("stages[%d].masking_unclassified", i), "must be mask or refuse, not %q", st.MaskingUnclassified)
		}
		switch st.Produce {
		case tenancy.ProduceOff, tenancy.ProduceDevelopers, tenancy.ProduceAdmins:
		default:
			p.add(fmt.Sprintf("stages[%d].produce", i), "must be off, developers or admins, not %q", st.Produce)
		}
		switch st.Changes {
		case "", tenancy.ChangesDirect, tenancy.ChangesRequest:
		default:
			p.add(fmt.Sprintf("stages[%d].changes", i), "must be direct or request, not %q", st.Changes)
		}
		if st.APIKeyMaxAge < 0 || (st.APIKeyMaxAge > 0 && st.APIKeyMaxAge < time.Hour) {
			p.add(fmt.Sprintf("stages[%d].api_key_max_age", i), "must be at least 1h, or absent for none, not %v", st.APIKeyMaxAge)
		}
	}
	for i, z := range c.LandingZones {
		key := fmt.Sprintf("landing_zones[%d]", i)
		if z.ID == "" {
			p.add(key+".id", "required")
		}
		for name := range z.Environments {
			if !slices.ContainsFunc(c.Stages, func(s Stage) bool { return s.Name == name }) {
				p.add(fmt.Sprintf("%s.environments.%s", key, name), "no stage is named %q", name)
			}
		}
		for _, s := range c.Stages {
			env, ok := z.Environments[s.Name]
			ekey := fmt.Sprintf("%s.environments.%s", key, s.Name)
			if !ok {
				p.add(ekey, "missing: every landing zone needs an environment for each stage")
				continue
			}
			c.validateKafka(p, ekey+".kafka", env.Kafka)
			c.validateCloudIDs(p, ekey, env)
			c.validateRegistry(p, ekey+".schema_registry", env.SchemaRegistry)
		}
		for j, u := range z.BusinessUnits {
			if u.ID == "" {
				p.add(fmt.Sprintf("%s.business_units[%d].id", key, j), "required")
			}
		}
	}
}

func (c *Config) validateCloud(p *problems) {
	cc := c.ConfluentCloud
	switch {
	case cc.Embedded && !c.IsDev():
		p.add("confluent_cloud.embedded", "the Confluent Cloud stand-ins run only in dev mode")
	case cc.Embedded:
	case cc.Enabled():
		if u, err := url.Parse(cc.URL); err != nil || u.Scheme == "" || u.Host == "" {
			p.add("confluent_cloud.url", "must be an absolute URL, not %q", cc.URL)
		}
		if cc.APIKey == "" {
			p.add("confluent_cloud.api_key", "required: a Cloud API key (not a cluster key)")
		}
		if cc.APISecret == "" {
			p.add("confluent_cloud.api_secret", "required (use ${ENV_VAR} to read it from the environment)")
		}
		if cc.OrganizationID == "" {
			p.add("confluent_cloud.organization_id", "required: the organization id, for role bindings")
		}
	}
}

// validateCloudIDs requires the ids the Cloud API needs when it is configured.
func (c *Config) validateCloudIDs(p *problems, key string, env Environment) {
	if !c.ConfluentCloud.Enabled() || c.ConfluentCloud.Embedded {
		return
	}
	if !strings.HasPrefix(env.EnvironmentID, "env-") {
		p.add(key+".environment_id", "required with confluent_cloud: the Confluent Cloud environment id (env-...)")
	}
	if !strings.HasPrefix(env.KafkaClusterID, "lkc-") {
		p.add(key+".kafka_cluster_id", "required with confluent_cloud: the Kafka cluster id (lkc-...)")
	}
}

func (c *Config) validateRegistry(p *problems, key string, sr SchemaRegistry) {
	switch {
	case sr.Embedded && !c.IsDev():
		p.add(key+".embedded", "the embedded Schema Registry runs only in dev mode")
	case sr.Embedded, sr.URL == "" && sr.APIKey == "":
	default:
		if u, err := url.Parse(sr.URL); err != nil || u.Scheme == "" || u.Host == "" {
			p.add(key+".url", "must be an absolute URL, not %q", sr.URL)
		}
		if (sr.APIKey == "") != (sr.APISecret == "") {
			p.add(key+".api_secret", "api_key and api_secret go together")
		}
	}
}

func (c *Config) validateKafka(p *problems, key string, k Kafka) {
	if k.Embedded {
		if !c.IsDev() {
			p.add(key+".embedded", "embedded clusters run only in dev mode")
		}
		return
	}
	if k.BootstrapServers == "" {
		p.add(key+".bootstrap_servers", "required")
	}
	switch k.SecurityProtocol {
	case "PLAINTEXT", "SSL":
	case "SASL_PLAINTEXT", "SASL_SSL":
		if k.APIKey == "" {
			p.add(key+".api_key", "required with %s", k.SecurityProtocol)
		}
		if k.APISecret == "" {
			p.add(key+".api_secret", "required with %s (use ${ENV_VAR} to read it from the environment)", k.SecurityProtocol)
		}
	default:
		p.add(key+".security_protocol", "must be PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL, not %q", k.SecurityProtocol)
	}
	for _, m := range [][2]string{{"sasl_mechanism", k.SASLMechanism}, {"client_sasl_mechanism", k.ClientSASLMechanism}} {
		switch m[1] {
		case "", "PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512":
		default:
			p.add(key+"."+m[0], "must be PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512, not %q", m[1])
		}
	}
}

// Tenancy builds the tenancy described by the configuration.
func (c *Config) Tenancy() (*tenancy.Tenancy, error) { return tenancy.New(c.TenancySpec()) }

// TenancySpec describes the configuration's tenancy, before validation.
func (c *Config) TenancySpec() tenancy.Spec {
	spec := tenancy.Spec{}
	for _, s := range c.Stages {
		spec.Stages = append(spec.Stages, tenancy.Stage{Name: s.Name, ReadOnly: s.ReadOnly, DataAccess: s.DataAccess, Produce: s.Produce, APIKeyMaxAge: s.APIKeyMaxAge,
			Changes: s.Changes, FourEyes: s.FourEyes, Masking: s.Masking, Unclassified: s.MaskingUnclassified})
	}
	for _, z := range c.LandingZones {
		zs := tenancy.ZoneSpec{ID: z.ID, Dedicated: z.Dedicated, MainBU: z.MainBU, SuperAdminGroups: z.SuperAdminGroups}
		for _, u := range z.BusinessUnits {
			zs.Units = append(zs.Units, tenancy.UnitSpec{
				ID: u.ID, AdminGroups: u.Groups.Admin, DeveloperGroups: u.Groups.Developer, ViewerGroups: u.Groups.Viewer,
			})
		}
		spec.LandingZones = append(spec.LandingZones, zs)
	}
	return spec
}
