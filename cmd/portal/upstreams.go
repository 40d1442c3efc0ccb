package main

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/edh-platform/rms-portal/internal/config"
	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/platform/confluent"
	"github.com/edh-platform/rms-portal/internal/platform/kafkaadmin"
	"github.com/edh-platform/rms-portal/internal/platform/schemareg"
	"github.com/edh-platform/rms-portal/internal/topics"
	"github.com/edh-platform/rms-portal/internal/upstream"
)

// connect creates the clients of every environment: Kafka, Confluent
// Cloud (Connect, IAM, identity pools, Metrics) and Schema Registry. Dev
// mode reaches its embedded platform the same way (dev.Start rewrote the
// configuration to name it).
func (p *app) connect(log *slog.Logger) error {
	var cloud *confluent.Client
	var metrics platform.CloudMetrics = platform.Unconfigured{What: "the Confluent Cloud Metrics API (confluent_cloud.metrics_url)"}
	cc := p.cfg.ConfluentCloud
	client := func(name, base, key, secret string, retries int) *confluent.Client {
		return confluent.NewClient(confluent.Options{BaseURL: base, APIKey: key, APISecret: secret, Timeout: p.cfg.UpstreamTimeout,
			MaxRetries: retries, Logger: log, Upstreams: p.upstreams, Name: name,
			HTTPClient: &http.Client{Transport: p.telemetry.Transport(nil)}, Cache: p.telemetry.Metrics.Cache})
	}
	p.limits = newClusterLimits(nil)
	if cc.Enabled() {
		cloud = client("confluent-cloud", cc.URL, cc.APIKey, cc.APISecret, 0)
		q := confluent.NewQuotas(cloud)
		p.limits.quotas = &q
		p.billing = confluent.NewBilling(cloud)
		if cc.MetricsURL != "" {
			// The Metrics API is rate-limited per organisation: one retry
			// at most, and the portal's cache answers meanwhile.
			// Every replica's requests draw on one budget in the
			// database; check-upstream, which opens none, sends one query.
			var budget func(ctx context.Context, requests int, owed, urgent bool) error
			if p.store != nil {
				b := p.cfg.RateLimits.MetricsAPI
				budget = topics.MetricsBudget(p.store, b.PerSecond, b.Burst, time.Now)
				p.metricsBudget = budget
			}
			metrics = confluent.NewMetrics(client("confluent-metrics", cc.MetricsURL, cc.APIKey, cc.APISecret, 1), budget)
		}
	}
	// Environments that reach one cluster alike share its connections,
	// open only while in use; they close side by side when the process
	// stops (each waits for its threads).
	links := kafkaadmin.NewLinks()
	var kafkaClients []*kafkaadmin.Client
	p.closers = append(p.closers, func() {
		var wg sync.WaitGroup
		for _, c := range kafkaClients {
			wg.Add(1)
			go func() { defer wg.Done(); c.Close() }()
		}
		wg.Wait()
	})
	for _, z := range p.cfg.LandingZones {
		for _, st := range p.cfg.Stages {
			env := &platform.Environment{Zone: z.ID, Stage: st.Name}
			ec := z.Environments[st.Name]
			k := ec.Kafka
			client, err := kafkaadmin.New(kafkaadmin.Options{
				Name: env.Name(), BootstrapServers: k.BootstrapServers, SecurityProtocol: k.SecurityProtocol,
				SASLMechanism: k.SASLMechanism, APIKey: k.APIKey, APISecret: k.APISecret,
				Timeout: p.cfg.UpstreamTimeout, CacheTTL: p.cfg.MetadataCacheTTL, MaxStaleness: p.cfg.MetadataMaxStaleness, Logger: log,
				Upstream: p.upstreams.Get(upstream.Cluster, env.Name()), Cache: p.telemetry.Metrics.Cache,
				StatsEvery: 5 * time.Second, IdleAfter: p.cfg.KafkaIdleAfter, Links: links,
			})
			if err != nil {
				return err
			}
			p.telemetry.Metrics.KafkaConnects(env.Name(), client.ConnectAttempts)
			kafkaClients = append(kafkaClients, client)
			env.Topics, env.Groups, env.Messages = client, client, client
			p.connectCloud(env, cloud, cc, ec)
			p.limits.add(z.ID, st.Name, ec.PartitionLimit, ec.EnvironmentID, ec.KafkaClusterID)
			env.Access = platform.ClientAccess{BootstrapServers: k.BootstrapServers, SecurityProtocol: k.SecurityProtocol,
				SASLMechanism: k.ClientSASLMechanism, RegistryURL: ec.SchemaRegistry.URL}
			env.Metrics, env.ClusterID = metrics, ec.KafkaClusterID
			if u, ok := metrics.(platform.Unconfigured); ok {
				u.Env = env.Name()
				env.Metrics = u
			}
			if err := p.connectRegistry(env, ec.SchemaRegistry); err != nil {
				return err
			}
			// A new API key is checked as its clients will use it.
			checks := platform.KeyChecks{Kafka: kafkaadmin.Credentials{BootstrapServers: k.BootstrapServers, SecurityProtocol: k.SecurityProtocol,
				SASLMechanism: k.ClientSASLMechanism, Timeout: p.cfg.UpstreamTimeout}.Check}
			if r, ok := env.Schemas.(*schemareg.Registry); ok {
				checks.Registry = r.CheckCredentials
			}
			env.KeyCheck = checks
			p.envs.Add(env)
		}
	}
	return nil
}

// connectCloud sets up the environment's managed connectors, IAM and
// identity pools on the Cloud API, or an Unconfigured port that says what
// is missing.
func (p *app) connectCloud(env *platform.Environment, cloud *confluent.Client, cc config.CloudAPI, ec config.Environment) {
	if cloud == nil {
		none := platform.Unconfigured{What: "Confluent Cloud", Env: env.Name()}
		env.Connectors, env.IAM, env.Pools, env.APIKeys = none, none, none, none
		return
	}
	scope := platform.IAMScope{OrganizationID: cc.OrganizationID, EnvironmentID: ec.EnvironmentID,
		KafkaClusterID: ec.KafkaClusterID, SchemaRegistryID: ec.SchemaRegistry.ClusterID}
	env.Scope = scope
	env.Connectors = confluent.NewConnect(cloud, ec.EnvironmentID, ec.KafkaClusterID)
	env.IAM = confluent.NewIAM(cloud, scope)
	env.APIKeys = confluent.NewAPIKeys(cloud)
	env.Pools = platform.Unconfigured{What: "an identity provider (identity_provider_id)", Env: env.Name()}
	if ec.IdentityProviderID != "" {
		env.Pools = confluent.NewPools(cloud, ec.IdentityProviderID)
	}
}

// schemaCache is the replica's one cache of schemas read by id.
func (p *app) schemaCache() *schemareg.Cache {
	if p.schemas == nil {
		p.schemas = schemareg.NewCache(schemareg.DefaultCacheBytes)
	}
	return p.schemas
}

// connectRegistry sets up the environment's Schema Registry.
func (p *app) connectRegistry(env *platform.Environment, sr config.SchemaRegistry) error {
	if sr.URL == "" {
		env.Schemas = platform.Unconfigured{What: "Schema Registry", Env: env.Name()}
		return nil
	}
	schemas, err := schemareg.New(schemareg.Options{Name: env.Name(), URL: sr.URL, APIKey: sr.APIKey, APISecret: sr.APISecret,
		Timeout: p.cfg.UpstreamTimeout, Upstream: p.upstreams.Get(upstream.SchemaRegistry, env.Name()),
		Transport: p.telemetry.Transport(nil), Cache: p.schemaCache()})
	if err != nil {
		return err
	}
	p.closers = append(p.closers, schemas.Close)
	env.Schemas = schemas
	return nil
}

// readiness is what decides whether this process can serve: its database.
// Upstreams are reported apart, so that one tenant's cluster outage does
// not take every replica out of the load balancer.
func (p *app) readiness() []httpserver.Check {
	// Every change is audited ahead in the database: a database that
	// answers but cannot be written serves no change, so readiness writes.
	checks := []httpserver.Check{{Name: "shutdown", Probe: func(context.Context) (string, error) {
		if p.draining.Load() {
			return "", errors.New("the process is stopping: draining")
		}
		return "serving", nil
	}}, {Name: "database (" + p.store.Kind() + ")", Probe: func(ctx context.Context) (string, error) {
		if err := p.store.CheckWritable(ctx, p.replica, time.Now()); err != nil {
			return "", err
		}
		if err := p.recorder.Health(); err != nil {
			return "", err
		}
		return "takes writes", nil
	}}}
	if p.dev != nil {
		checks = append(checks, httpserver.Check{Name: "demo data", Probe: func(context.Context) (string, error) {
			if !p.settled.Load() {
				return "", errors.New("still being seeded")
			}
			return "seeded", nil
		}})
	}
	return checks
}

// upstreamReport reports every upstream's health (state, circuit,
// latency, last error and since when) from what their circuits know,
// after a probe of every cluster and the identity provider when the last
// one is older than upstream.ReportEvery.
func (p *app) upstreamReport(ctx context.Context) (any, bool) {
	p.probes.Refresh(ctx)
	report := p.upstreams.Report()
	ok := true
	for _, h := range report {
		ok = ok && h.State != "failing" && h.Circuit == "closed"
	}
	return report, ok
}

// probeUpstreams asks every cluster and the identity provider (through
// their upstreams, so that their health is fresh).
func (p *app) probeUpstreams(ctx context.Context) {
	var wg sync.WaitGroup
	for _, env := range p.envs.All() {
		wg.Go(func() { _, _ = env.Topics.ClusterInfo(ctx) })
	}
	wg.Go(func() { _ = p.provider.Probe(ctx) })
	wg.Wait()
}
