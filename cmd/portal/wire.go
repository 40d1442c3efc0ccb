package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/api"
	"github.com/edh-platform/rms-portal/handlers"
	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/audit"
	"github.com/edh-platform/rms-portal/internal/auth"
	"github.com/edh-platform/rms-portal/internal/config"
	"github.com/edh-platform/rms-portal/internal/devidp"
	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/platform/confluent"
	"github.com/edh-platform/rms-portal/internal/platform/embedded"
	"github.com/edh-platform/rms-portal/internal/platform/kafkaadmin"
	"github.com/edh-platform/rms-portal/internal/platform/schemareg"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/service"
	"github.com/edh-platform/rms-portal/internal/tenancy"
	"github.com/edh-platform/rms-portal/static"
)

// portal is the assembled application.
type app struct {
	cfg      *config.Config
	echo     *echo.Echo
	tenancy  *tenancy.Tenancy
	envs     *platform.Environments
	clusters map[string]*embedded.Cluster
	audit    *audit.Log
	sampler  *service.Sampler
	org      *embedded.Org
	services *services
	closers  []func()
}

// Close releases upstream clients and stops embedded clusters.
func (p *app) Close() {
	for i := len(p.closers) - 1; i >= 0; i-- {
		p.closers[i]()
	}
}

// hooks change how the portal is assembled, for tests.
type hooks struct {
	// sessionClock replaces the clock of browser sessions (token renewal).
	sessionClock func() time.Time
}

// assemble builds the portal from a validated configuration.
func assemble(cfg *config.Config, log *slog.Logger, h hooks) (_ *app, err error) {
	ten, err := cfg.Tenancy()
	if err != nil {
		return nil, err
	}
	p := &app{cfg: cfg, tenancy: ten, envs: platform.NewEnvironments(), clusters: map[string]*embedded.Cluster{},
		audit: audit.NewLog(log.With("component", "audit"), 1000), org: embedded.NewOrg()}
	defer func() {
		if err != nil {
			p.Close()
		}
	}()
	if err := p.connect(log); err != nil {
		return nil, err
	}

	provider := auth.NewProvider(issuerOf(cfg), cfg.UpstreamTimeout)
	resolver := access.NewResolver(ten, cfg.PlatformAdminGroup)
	verifier := auth.NewVerifier(auth.VerifierOptions{
		Provider: provider, Audience: cfg.Identity.Audience, AcceptedIssuers: cfg.Identity.AcceptedIssuers,
		GroupsClaim: cfg.Identity.GroupsClaim, Resolver: resolver,
	})

	guard := service.NewGuard(ten, p.envs, p.audit)
	p.sampler = service.NewSampler(15*time.Second, time.Hour, 240, log)
	topics := service.NewTopics(guard, p.sampler)
	me := service.NewMe(guard)
	connectors := service.NewConnectors(guard)
	schemas := service.NewSchemas(guard)
	accounts := service.NewServiceAccounts(guard)
	filters, err := service.NewFilters()
	if err != nil {
		return nil, err
	}
	pools := service.NewIdentityPools(guard, filters)
	p.services = &services{accounts: accounts, pools: pools, resolver: resolver}

	login := auth.NewWebLogin(auth.WebLoginOptions{
		Provider: provider, Verifier: verifier, ClientID: cfg.Identity.ClientID, ClientSecret: cfg.Identity.ClientSecret,
		RedirectURL: cfg.BaseURL + "/auth/callback", Scopes: cfg.Identity.Scopes,
	})
	sessions := auth.NewSessions(auth.SessionOptions{
		Secrets: sessionSecrets(cfg), MaxAge: cfg.Session.MaxAge, Secure: strings.HasPrefix(cfg.BaseURL, "https://"), Login: login, Logger: log, Clock: h.sessionClock,
	})
	pages := handlers.New(handlers.Options{
		Topics: topics, Metrics: topics, Connectors: connectors, Schemas: schemas, Accounts: accounts, Pools: pools, Me: me, Sessions: sessions, Resolver: verifier, BaseURL: cfg.BaseURL, Logger: log,
	})
	e := httpserver.New(httpserver.Options{
		Logger: log, MaxBodyBytes: cfg.MaxBodyBytes, IsAPI: api.IsAPIPath, APIErrors: api.WriteProblem,
		PageErrors: pages.RenderError,
	})
	if cfg.Identity.Issuer == config.EmbeddedIssuer {
		idp, err := devidp.New(devidp.Options{BaseURL: cfg.BaseURL, Audience: cfg.Identity.Audience, Config: *cfg.DevIDP, Logger: log})
		if err != nil {
			return nil, err
		}
		e.Any(devidp.PathPrefix+"/*", echo.WrapHandler(http.StripPrefix(devidp.PathPrefix, idp)))
	}
	docs := api.NewDocs(api.DocsOptions{BaseURL: cfg.BaseURL, ClientID: cfg.Identity.ClientID,
		Audience: cfg.Identity.Audience, Provider: provider, Logger: log})
	api.New(api.Options{Topics: topics, Metrics: topics, Connectors: connectors, Schemas: schemas,
		Accounts: accounts, Pools: pools, Me: me, Verifier: verifier, Docs: docs, Logger: log}).Register(e)
	pages.Register(e)
	e.GET("/static/*", echo.WrapHandler(http.StripPrefix("/static/", static.Handler())))
	httpserver.RegisterHealth(e, p.checks(provider), 3*time.Second)
	p.echo = e
	return p, nil
}

// sessionSecrets are the configured session keys; dev mode may have none
// and gets a random one, so sessions end with the process.
func sessionSecrets(cfg *config.Config) []string {
	if len(cfg.Session.Keys) > 0 {
		return cfg.Session.Keys
	}
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return []string{hex.EncodeToString(b)}
}

func issuerOf(cfg *config.Config) string {
	if cfg.Identity.Issuer == config.EmbeddedIssuer {
		return cfg.BaseURL + devidp.PathPrefix
	}
	return cfg.Identity.Issuer
}

// connect creates one Kafka client per environment, starting embedded
// clusters where the configuration asks for them.
func (p *app) connect(log *slog.Logger) error {
	for _, z := range p.cfg.LandingZones {
		for _, st := range p.cfg.Stages {
			env := &platform.Environment{Zone: z.ID, Stage: st.Name}
			k := z.Environments[st.Name].Kafka
			if k.Embedded {
				cl, err := embedded.StartCluster(env.Name())
				if err != nil {
					return err
				}
				p.clusters[env.Name()] = cl
				p.closers = append(p.closers, cl.Close)
				k.BootstrapServers, k.SecurityProtocol = cl.Addr(), "PLAINTEXT"
			}
			client, err := kafkaadmin.New(kafkaadmin.Options{
				Name: env.Name(), BootstrapServers: k.BootstrapServers, SecurityProtocol: k.SecurityProtocol,
				SASLMechanism: k.SASLMechanism, APIKey: k.APIKey, APISecret: k.APISecret,
				Timeout: p.cfg.UpstreamTimeout, CacheTTL: p.cfg.MetadataCacheTTL, Logger: log,
			})
			if err != nil {
				return err
			}
			p.closers = append(p.closers, client.Close)
			env.Topics = client
			if err := p.connectCloud(env, z.Environments[st.Name], log); err != nil {
				return err
			}
			p.envs.Add(env)
		}
	}
	return nil
}

// connectCloud sets up the environment's managed connectors and Schema
// Registry: the embedded stand-ins, the configured services, or an
// Unconfigured port that says what is missing.
func (p *app) connectCloud(env *platform.Environment, ec config.Environment, log *slog.Logger) error {
	cc := p.cfg.ConfluentCloud
	scope := platform.IAMScope{OrganizationID: cc.OrganizationID, EnvironmentID: ec.EnvironmentID,
		KafkaClusterID: ec.KafkaClusterID, SchemaRegistryID: ec.SchemaRegistry.ClusterID}
	provider := ec.IdentityProviderID
	switch {
	case cc.Embedded:
		// Stand-in ids, so that role bindings read like Confluent Cloud's.
		id := env.Zone + "-" + env.Stage
		scope = platform.IAMScope{OrganizationID: "org-dev", EnvironmentID: "env-" + id, KafkaClusterID: "lkc-" + id, SchemaRegistryID: "lsrc-" + id}
		env.Connectors = embedded.NewConnect()
		env.IAM, env.Pools = p.org.IAMFor(scope), p.org.PoolsFor("op-"+env.Stage)
	case cc.Enabled():
		client := confluent.NewClient(confluent.Options{BaseURL: cc.URL, APIKey: cc.APIKey, APISecret: cc.APISecret,
			Timeout: p.cfg.UpstreamTimeout, Logger: log})
		env.Connectors = confluent.NewConnect(client, ec.EnvironmentID, ec.KafkaClusterID)
		env.IAM = confluent.NewIAM(client, scope)
		env.Pools = platform.Unconfigured{What: "an identity provider (identity_provider_id)", Env: env.Name()}
		if provider != "" {
			env.Pools = confluent.NewPools(client, provider)
		}
	default:
		none := platform.Unconfigured{What: "Confluent Cloud", Env: env.Name()}
		env.Connectors, env.IAM, env.Pools = none, none, none
	}
	sr := ec.SchemaRegistry
	if sr.Embedded {
		reg, err := embedded.StartRegistry(sr.APIKey, sr.APISecret)
		if err != nil {
			return err
		}
		p.closers = append(p.closers, reg.Close)
		sr.URL = reg.URL()
	}
	if sr.URL == "" {
		env.Schemas = platform.Unconfigured{What: "Schema Registry", Env: env.Name()}
		return nil
	}
	schemas, err := schemareg.New(schemareg.Options{Name: env.Name(), URL: sr.URL, APIKey: sr.APIKey, APISecret: sr.APISecret,
		Timeout: p.cfg.UpstreamTimeout})
	if err != nil {
		return err
	}
	p.closers = append(p.closers, schemas.Close)
	env.Schemas = schemas
	return nil
}

// checks are the readiness probes: every cluster and the identity provider.
func (p *app) checks(provider *auth.Provider) []httpserver.Check {
	var checks []httpserver.Check
	for _, env := range p.envs.All() {
		checks = append(checks, httpserver.Check{Name: "kafka " + env.Name(), Probe: func(ctx context.Context) (string, error) {
			info, err := env.Topics.ClusterInfo(ctx)
			if err != nil {
				return "", err
			}
			return fmt.Sprintf("cluster %s, %d broker(s)", info.ID, info.Brokers), nil
		}})
	}
	checks = append(checks, httpserver.Check{Name: "identity provider", Probe: func(ctx context.Context) (string, error) {
		if _, _, err := provider.AuthEndpoints(ctx); err != nil {
			return "", err
		}
		return provider.Issuer(), nil
	}})
	return checks
}

// services are the services the demo data is seeded through.
type services struct {
	accounts *service.ServiceAccounts
	pools    *service.IdentityPools
	resolver *access.Resolver
}

// seed fills the embedded platform with the demo data: topics, connectors
// and schemas directly, service accounts and identity pools through their
// services (so that they get their role bindings), as a platform admin.
func (p *app) seed(ctx context.Context, o embedded.SeedOptions) error {
	if err := embedded.Seed(ctx, p.tenancy, p.envs, p.clusters, o); err != nil {
		return err
	}
	admin := p.services.resolver.Resolve(portal.Identity{Subject: "demo-seed", Username: "demo-seed", Groups: []string{p.cfg.PlatformAdminGroup}})
	ctx = portal.WithPrincipal(ctx, admin)
	stage := p.tenancy.StageNames()[0]
	for _, u := range p.tenancy.Units() {
		if u.IsMain() {
			continue
		}
		_, err := p.services.accounts.Create(ctx, u.ID, stage, portal.NewServiceAccount{Name: "demo-app", Type: "producer",
			Description: "Demo producer of " + u.ID})
		if err != nil && !portal.Is(err, portal.AlreadyExists) {
			return fmt.Errorf("seed service account of %s: %w", u.ID, err)
		}
		_, err = p.services.pools.Create(ctx, u.ID, stage, portal.NewPool{Name: "ci", Type: "consumer", Description: "CI jobs of " + u.ID,
			Filter: `claims.aud == "confluent" && claims.sub.startsWith("ci-` + u.ID + `")`})
		if err != nil && !portal.Is(err, portal.AlreadyExists) {
			return fmt.Errorf("seed identity pool of %s: %w", u.ID, err)
		}
	}
	return nil
}
