package main

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"
	"go.opentelemetry.io/otel/trace"

	"github.com/edh-platform/rms-portal/api"
	"github.com/edh-platform/rms-portal/api/openapi"
	"github.com/edh-platform/rms-portal/assistants"
	"github.com/edh-platform/rms-portal/handlers"
	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/admin"
	"github.com/edh-platform/rms-portal/internal/alerts"
	"github.com/edh-platform/rms-portal/internal/assembly"
	"github.com/edh-platform/rms-portal/internal/audit"
	"github.com/edh-platform/rms-portal/internal/auth"
	"github.com/edh-platform/rms-portal/internal/catalog"
	"github.com/edh-platform/rms-portal/internal/config"
	"github.com/edh-platform/rms-portal/internal/connectors"
	"github.com/edh-platform/rms-portal/internal/costs"
	"github.com/edh-platform/rms-portal/internal/events"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/jobs"
	"github.com/edh-platform/rms-portal/internal/masking"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/platform/schemareg"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/alert"
	"github.com/edh-platform/rms-portal/internal/ratelimit"
	"github.com/edh-platform/rms-portal/internal/records"
	"github.com/edh-platform/rms-portal/internal/requestid"
	"github.com/edh-platform/rms-portal/internal/service"
	"github.com/edh-platform/rms-portal/internal/store"
	"github.com/edh-platform/rms-portal/internal/store/postgres"
	"github.com/edh-platform/rms-portal/internal/store/sqlite"
	"github.com/edh-platform/rms-portal/internal/telemetry"
	"github.com/edh-platform/rms-portal/internal/tenancy"
	"github.com/edh-platform/rms-portal/internal/topics"
	"github.com/edh-platform/rms-portal/internal/upstream"
	"github.com/edh-platform/rms-portal/internal/worker"
	"github.com/edh-platform/rms-portal/static"
)

// app is the assembled application.
type app struct {
	cfg  *config.Config
	echo *echo.Echo
	// limits are the clusters' partition limits (configuration, Service
	// Quotas API).
	limits *clusterLimits
	// tenancy is the configuration's; live is the one in force, with
	// the admin area's changes.
	tenancy *tenancy.Tenancy
	live    *tenancy.Live
	envs    *platform.Environments
	store   store.Store
	// dev is dev mode's embedded platform; nil in serve mode.
	dev       *devMode
	upstreams *upstream.Registry
	// probes refreshes the upstreams' health for the health report.
	probes    *upstream.Refresher
	telemetry *telemetry.Telemetry
	// metricsBound is the address of the metrics port (metrics.listen),
	// known once metricsReady is closed.
	metricsBound string
	metricsReady chan struct{}
	provider     *auth.Provider
	sampler      *worker.Sampler
	reconciler   *worker.Leased
	// heartbeat says this replica runs, and that it stopped.
	heartbeat   *worker.Heartbeat
	costly      *ratelimit.Concurrency
	lagSampler  *worker.LagSampler
	cacheSync   *worker.CacheSync
	sweeper     *worker.Sweeper
	keySweeper  *worker.KeySweeper
	keyChecker  *worker.Leased
	restarter   *worker.Leased
	alerter     *worker.Leased
	grantExpiry *worker.Leased
	// costs reads usage and costs (one replica at a time); billing is
	// the Billing API (nil without a Cloud API).
	costs   *worker.Leased
	billing platform.Billing
	// metricsBudget takes Metrics API requests from the fleet's budget.
	metricsBudget func(ctx context.Context, requests int, owed, urgent bool) error
	// events delivers the webhooks' events (one replica at a time).
	events *events.Dispatcher
	// jobs runs this replica's background jobs and resumes those of
	// replicas that stopped.
	jobs *jobs.Runner
	// tenancySync keeps the tenancy in force in step with the database.
	tenancySync *worker.TenancySync
	// recorder writes the audit trail; replica names this process.
	recorder *audit.Recorder
	replica  string
	// built are the services; resolver turns identities into principals
	// (dev mode seeds its demo data through them).
	built    *assembly.Built
	resolver *access.Resolver
	closers  []func()
	// schemas keeps the schemas read by id, within one bound for all the
	// replica's registries (made by the first).
	schemas *schemareg.Cache
	// settled is set in dev mode once the demo data is in (and the serve
	// configuration written); until then the process is not ready.
	settled atomic.Bool
	// draining is set when the process stops: it is no longer ready.
	draining atomic.Bool
}

// Close releases upstream clients, stops embedded clusters and closes the
// store.
func (p *app) Close() {
	for i := len(p.closers) - 1; i >= 0; i-- {
		p.closers[i]()
	}
}

// hooks change how the portal is assembled, for tests.
type hooks struct {
	// sessionClock replaces the clock of browser sessions (token renewal).
	sessionClock func() time.Time
	// tracerProvider replaces the traces' provider.
	tracerProvider trace.TracerProvider
	// clock replaces the services' clock (grants' expiry, read-only
	// switches); nil is time.Now.
	clock func() time.Time
}

// assemble builds the portal from a validated configuration.
func assemble(ctx context.Context, cfg *config.Config, log *slog.Logger, h hooks) (_ *app, err error) {
	ten, err := cfg.Tenancy()
	if err != nil {
		return nil, err
	}
	p := &app{cfg: cfg, metricsReady: make(chan struct{}), tenancy: ten, live: tenancy.NewLive(ten), envs: platform.NewEnvironments(),
		upstreams: upstream.NewRegistry(upstream.Options{Shares: upstream.Shares{Concurrency: cfg.RateLimits.UpstreamShare.Concurrency,
			Wait: cfg.RateLimits.UpstreamShare.Wait, Busy: cfg.RateLimits.UpstreamShare.BusyPerMinute}})}
	p.probes = upstream.NewRefresher(upstream.ReportEvery, p.probeUpstreams)
	defer func() {
		if err != nil {
			p.Close()
		}
	}()
	if cfg.IsDev() {
		// Dev mode starts its embedded platform and names it in cfg, which
		// the rest of the wiring reads as any deployment's.
		if p.dev, err = startDev(cfg); err != nil {
			return nil, err
		}
		p.closers = append(p.closers, p.dev.close)
	}
	st, took, err := openStore(ctx, cfg, log)
	if err != nil {
		return nil, err
	}
	p.store = st
	p.closers = append(p.closers, func() { _ = st.Close() })
	log.Info("store ready", "kind", st.Kind(), "migrations_ms", took.Milliseconds())
	tel, err := telemetry.New(ctx, st, h.tracerProvider)
	if err != nil {
		return nil, fmt.Errorf("telemetry: %w", err)
	}
	p.telemetry = tel
	p.closers = append(p.closers, func() {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = tel.Shutdown(sctx)
	})
	p.upstreams.SetObserver(tel)
	if t, ok := st.(interface{ SetTracer(trace.Tracer) }); ok && tel.Tracing() {
		t.SetTracer(tel.Tracer())
	}
	if err := p.connect(log); err != nil {
		return nil, err
	}

	provider := auth.NewProvider(cfg.Identity.Issuer, cfg.UpstreamTimeout, p.upstreams.Get(upstream.IdentityProvider, cfg.Identity.Issuer), tel.Transport(nil))
	p.provider = provider
	p.closers = append(p.closers, provider.Close)
	resolver := access.NewResolver(p.live, cfg.PlatformAdminGroup)
	verifier := auth.NewVerifier(auth.VerifierOptions{
		Provider: provider, Audience: cfg.Identity.Audience, AcceptedIssuers: cfg.Identity.AcceptedIssuers,
		GroupsClaim: cfg.Identity.GroupsClaim, Resolver: resolver,
	})

	recorder := audit.New(st, log.With("component", "audit"))
	for _, z := range cfg.LandingZones {
		for _, stage := range cfg.Stages {
			tel.Metrics.ReportKeysFor(z.ID, stage.Name)
		}
	}
	recorder.OnWrite(tel.Metrics.Audit)
	recorder.OnFailure(tel.Metrics.AuditFailure)
	p.recorder, p.replica = recorder, replicaID()
	recorder.Replica(p.replica)
	secrets, err := sessionSecrets(cfg)
	if err != nil {
		return nil, err
	}
	pageKey := sha256.Sum256([]byte("rms-portal page tokens\x00" + secrets[0]))
	rl := cfg.RateLimits
	bucket := func(b config.Bucket) gate.Rate { return gate.Rate{PerSecond: b.PerSecond, Burst: b.Burst} }
	p.tenancySync = worker.NewTenancySync(cfg.TenancySpec(), p.live, st, st, log)
	if err := p.tenancySync.Load(ctx); err != nil {
		return nil, fmt.Errorf("loading the admin area's business units: %w", err)
	}
	guard := gate.New(gate.Options{Tenancy: p.live, Envs: p.envs, Audit: recorder, Notify: st, Logger: log, Now: h.clock,
		PlatformAdminGroup: cfg.PlatformAdminGroup, Locks: st, Holder: p.replica, UpstreamTimeout: cfg.UpstreamTimeout, Reservations: st,
		Limits: gate.Limits{Caller: bucket(rl.Caller), Unit: bucket(rl.Unit), CloudWritesPerUnit: bucket(rl.CloudWritesPerUnit),
			CloudWrites: bucket(rl.CloudWrites)}, PageKey: pageKey[:]})
	p.sampler = worker.NewSampler(15*time.Second, time.Hour, 240, st, log)
	// Webhooks reach public receivers (and the ranges allowed), and their
	// signing secrets are sealed at rest with the session keys.
	receivers := events.Receivers{Allowed: cfg.Webhooks.AllowedPrefixes()}
	webhookSecrets, err := auth.NewSealer("webhook secret", secrets)
	if err != nil {
		return nil, err
	}
	// A new API key's secret is kept sealed likewise until a check with
	// it succeeds (any replica checks).
	keySecrets, err := auth.NewSealer("api key check", secrets)
	if err != nil {
		return nil, err
	}
	// Filtered record scans and large bodies share one bound of the
	// replica's processors.
	cw := cfg.RateLimits.CostlyWork
	p.costly = ratelimit.NewConcurrency(ratelimit.Shares{PerCaller: cw.PerCaller, PerUnit: cw.PerUnit, Total: cw.Total, Wait: cw.Wait, Busy: cw.BusyPerMinute})
	p.cacheSync = worker.NewCacheSync(p.envs, st, log)
	p.jobs = jobs.New(st, p.replica, log)
	p.sweeper = worker.NewSweeper(st, time.Duration(cfg.Audit.RetentionDays)*24*time.Hour, log)
	alertDefaults, err := alertRules(cfg.Alerts)
	if err != nil {
		return nil, err
	}
	classes, err := classifications(cfg.Catalog)
	if err != nil {
		return nil, err
	}
	built, err := assembly.New(assembly.Deps{Guard: guard, Store: st, Sampler: p.sampler, Charts: topics.NewMetricCache(st, log), Jobs: p.jobs,
		ClusterLimit: p.limits.Limit, RequestMaxAge: cfg.ChangeRequests.MaxAge,
		Webhooks: events.ServiceOptions{AllowHTTP: cfg.IsDev(), Receivers: receivers, Secrets: webhookSecrets, MaxPerZone: cfg.Webhooks.MaxPerZone},
		Costly:   p.costly, KeySecrets: keySecrets, Masking: maskingRules(cfg.Masking),
		Backoff:       connectors.Backoff{First: cfg.ConnectorAutoRestart.FirstAfter, Max: cfg.ConnectorAutoRestart.MaxBackoff},
		AlertDefaults: alertDefaults, Classes: classes, GrantWarnBefore: cfg.Catalog.WarnBefore,
		BindingDelay: cfg.ConfluentCloud.BindingDelay, CostBaseRule: cfg.Costs.BaseRule,
		Admin: admin.Options{Sync: p.tenancySync, Health: p.upstreams.Report, Config: cfg.Effective, Ignored: cfg.Unknown, Resolver: resolver,
			GroupsClaim: cfg.Identity.GroupsClaim}})
	if err != nil {
		return nil, err
	}
	p.built, p.resolver = built, resolver
	// Unknown outcomes are settled by looking upstream, and grant
	// decisions, applies and change-request applies whose replica stopped are
	// finished, on one replica.
	every, stoppedAfter, settleAfter := cfg.Recovery.Values()
	p.heartbeat = &worker.Heartbeat{Replicas: st, ID: p.replica, Every: cfg.Recovery.HeartbeatEvery(), Log: log}
	reconciler := service.NewReconciler(p.envs, st, settleAfter).SettleStopped()
	built.APIKeys.StopRotationsAfter(stoppedAfter)
	p.reconciler = &worker.Leased{Name: "audit-reconcile", Leases: st, Holder: p.replica, Every: every, Log: log,
		Round: func(ctx context.Context) (int, error) {
			n, err := built.Grants.Resume(ctx, stoppedAfter)
			m, aerr := built.Requests.Resume(ctx, stoppedAfter)
			q, perr := built.Plans.Resume(ctx, stoppedAfter)
			k, rerr := reconciler.Round(ctx)
			return n + m + q + k, errors.Join(err, aerr, perr, rerr)
		}}
	p.keySweeper = worker.NewKeySweeper(built.APIKeys, st, p.replica, log)
	p.keySweeper.Every = min(p.keySweeper.Every, every)
	// New API keys are tried as their clients will use them, on one
	// replica at a time, until they sign in.
	p.keyChecker = &worker.Leased{Name: "api-key-readiness", Leases: st, Holder: p.replica, Every: time.Second, Log: log,
		Round: built.APIKeys.CheckProvisioning}
	// Failed connectors whose auto-restart is on are restarted by one
	// replica at a time, one listing per cluster a round.
	p.restarter = &worker.Leased{Name: "connector-auto-restart", Leases: st, Holder: p.replica, Every: cfg.ConnectorAutoRestart.Every, Log: log,
		Round: built.Connectors.AutoRestart}
	// The units' alert rules are evaluated by one replica at a time.
	p.alerter = &worker.Leased{Name: "alert-rules", Leases: st, Holder: p.replica, Every: cfg.Alerts.Every, Log: log, Round: built.Alerts.AlertRound}
	// Grants whose time is up are revoked, and those ending soon
	// announced, by one replica at a time.
	p.grantExpiry = &worker.Leased{Name: "grant-expiry", Leases: st, Holder: p.replica, Every: cfg.Catalog.ExpiryEvery, Log: log, Round: built.Grants.Expire}
	// Usage and costs are read by one replica at a time, a few stages a
	// round.
	collector := costs.NewCollector(costs.Options{Store: st, Tenancy: p.live.Current, Envs: p.envs.All, Billing: p.billing, Admit: p.metricsBudget,
		BaseRule: cfg.Costs.BaseRule, Backfill: cfg.Costs.Backfill, StagesPerRound: cfg.Costs.StagesPerRound,
		HourlyRetention: cfg.Costs.HourlyRetention, DailyRetention: cfg.Costs.DailyRetention, Log: log.With("component", "costs")})
	p.costs = &worker.Leased{Name: "usage-and-costs", Leases: st, Holder: p.replica, Every: cfg.Costs.Every, Log: log,
		Round: func(ctx context.Context) (int, error) {
			// Dev mode's stand-ins have their month of history once the
			// demo data is in.
			if p.dev != nil && !p.settled.Load() {
				return 0, nil
			}
			return collector.Round(ctx)
		}}
	p.events = events.NewDispatcher(events.DispatcherOptions{Store: st, Holder: p.replica, Log: log, Backoff: cfg.Webhooks.Backoff,
		GiveUp: cfg.Webhooks.GiveUp, Client: &http.Client{Timeout: 10 * time.Second, Transport: p.telemetry.Transport(receivers.Transport())},
		Produce: events.EnvironmentProducer(p.envs), Secrets: webhookSecrets})
	p.lagSampler = worker.NewLagSampler(built.Groups, 10*time.Second)

	login := auth.NewWebLogin(auth.WebLoginOptions{
		Provider: provider, Verifier: verifier, ClientID: cfg.Identity.ClientID, ClientSecret: cfg.Identity.ClientSecret,
		RedirectURL: cfg.BaseURL + "/auth/callback", Scopes: cfg.Identity.Scopes,
	})
	sessions, err := auth.NewSessions(auth.SessionOptions{Store: st, Secrets: secrets, MaxAge: cfg.Session.MaxAge,
		MaxPerUser: cfg.Session.MaxPerUser, Secure: strings.HasPrefix(cfg.BaseURL, "https://"), Login: login, Logger: log, Clock: h.sessionClock})
	if err != nil {
		return nil, err
	}
	throttle := auth.NewThrottle(ratelimit.Rate{PerSecond: rl.Anonymous.PerSecond, Burst: rl.Anonymous.Burst})
	lane := httpserver.NewLane(rl.LargeRequestBytes, p.costly)
	pages := handlers.New(handlers.Options{Services: built.Services(), Throttle: throttle, Sessions: sessions, Resolver: verifier, Lane: lane,
		BaseURL: cfg.BaseURL, Logger: log})
	e := httpserver.New(httpserver.Options{
		Logger: log, MaxBodyBytes: cfg.MaxBodyBytes, APIErrors: api.WriteProblem,
		IsAPI: func(path string) bool {
			return api.IsAPIPath(path) || httpserver.MachinePath(path) || assistants.IsDoorPath(path)
		},
		PageErrors: pages.RenderError, IdentityOrigin: origin(cfg.Identity.Issuer), HSTS: strings.HasPrefix(cfg.BaseURL, "https://"),
		Observe: tel.Middleware, TrustedProxies: cfg.TrustedProxyPrefixes(),
	})
	if cfg.Metrics.Listen == "" {
		e.GET("/metrics", echo.WrapHandler(p.metricsHandler()))
	}
	if p.dev != nil {
		if err := p.dev.mount(e, cfg, log); err != nil {
			return nil, err
		}
	}
	docs := openapi.NewDocs(openapi.DocsOptions{BaseURL: cfg.BaseURL, Server: cfg.BaseURL + api.Base, ClientID: cfg.Identity.ClientID,
		Audience: cfg.Identity.Audience, Provider: provider, Logger: log})
	api.New(api.Options{Services: built.Services(), Throttle: throttle, Verifier: verifier, Docs: docs, Logger: log, Lane: lane}).Register(e)
	// Assistants call the API through their own door, as the person.
	door, err := assistants.New(assistants.Options{Services: built.Services(), API: e, Verifier: verifier, Throttle: throttle,
		BaseURL: cfg.BaseURL, Issuer: cfg.Identity.Issuer, Audience: cfg.Identity.Audience, Logger: log})
	if err != nil {
		return nil, err
	}
	door.Register(e)
	pages.Register(e)
	files := http.StripPrefix("/static/", static.Handler())
	e.GET("/static/*", func(c echo.Context) error {
		if !static.Has(c.Param("*")) {
			return portal.New(portal.NotFound, "no static file %s", portal.Clip(c.Param("*"), portal.MaxField))
		}
		files.ServeHTTP(c.Response(), c.Request())
		return nil
	})
	httpserver.RegisterHealth(e, p.readiness(), p.upstreamReport, bearerOnly(verifier, throttle), 3*time.Second)
	p.echo = e
	return p, nil
}

// bearerOnly admits requests that carry a valid bearer token, with the
// throttle of unauthenticated callers in front.
func bearerOnly(v *auth.Verifier, t *auth.Throttle) func(r *http.Request) error {
	return func(r *http.Request) error {
		ip := requestid.ClientFrom(r.Context()).IP
		if err := t.Check(ip); err != nil {
			return err
		}
		scheme, raw, _ := strings.Cut(r.Header.Get("Authorization"), " ")
		if !strings.EqualFold(scheme, "Bearer") {
			raw = ""
		}
		if _, err := v.Verify(r.Context(), strings.TrimSpace(raw)); err != nil {
			if portal.Is(err, portal.Unauthenticated) {
				_ = t.Take(ip)
			}
			return err
		}
		return nil
	}
}

// metricsAddr waits for the metrics port and returns its address ("" when
// it does not listen).
func (p *app) metricsAddr() string {
	select {
	case <-p.metricsReady:
		return p.metricsBound
	case <-time.After(10 * time.Second):
		return ""
	}
}

// protectManagement puts a management endpoint behind the metrics
// credentials, when configured.
func (p *app) protectManagement(h http.Handler) http.Handler {
	m := p.cfg.Metrics
	return telemetry.Protect(h, m.BearerToken, m.Username, m.Password)
}

// metricsHandler serves /metrics with the configured protection.
func (p *app) metricsHandler() http.Handler {
	m := p.cfg.Metrics
	return p.telemetry.Metrics.Handler(m.BearerToken, m.Username, m.Password)
}

// openStore opens the configured database: PostgreSQL or SQLite.
func openStore(ctx context.Context, cfg *config.Config, log *slog.Logger) (store.Store, time.Duration, error) {
	if cfg.Database.IsPostgres() {
		return postgres.OpenPool(ctx, cfg.Database.URL, cfg.UpstreamTimeout, cfg.Database.MaxOpenConns, log)
	}
	return sqlite.Open(ctx, cfg.Database.SQLitePath(), cfg.UpstreamTimeout, log)
}

// sessionSecrets are the configured session keys; dev mode may have none
// and gets a random one, so sessions end with the process.
func sessionSecrets(cfg *config.Config) ([]string, error) {
	if len(cfg.Session.Keys) > 0 {
		return cfg.Session.Keys, nil
	}
	if !cfg.IsDev() {
		return nil, fmt.Errorf("session.keys: required")
	}
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return []string{hex.EncodeToString(b)}, nil
}

// replicaID names this process in the jobs it runs.
func replicaID() string {
	host, _ := os.Hostname()
	b := make([]byte, 3)
	_, _ = rand.Read(b)
	return fmt.Sprintf("%s-%d-%s", host, os.Getpid(), hex.EncodeToString(b))
}

// origin is a URL's scheme and host.
func origin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// background runs the portal's periodic work until ctx ends: sampling
// watched topics, writing the audit outcomes the store did not take,
// applying other replicas' cache announcements, sweeping the store,
// following the tenancy. wait returns when all of it has stopped.
func (p *app) background(ctx context.Context, log *slog.Logger) (wait func()) {
	var wg sync.WaitGroup
	wg.Go(func() { p.sampler.Run(ctx) })
	wg.Go(func() { p.recorder.Run(ctx, 2*time.Second) })
	wg.Go(func() {
		if err := p.cacheSync.Run(ctx); err != nil && ctx.Err() == nil {
			log.Error("cache announcements are not followed", "error", err)
		}
	})
	wg.Go(func() { p.sweeper.Run(ctx, 5*time.Minute) })
	wg.Go(func() { p.reconciler.Run(ctx) })
	wg.Go(func() { p.heartbeat.Run(ctx) })
	wg.Go(func() { p.jobs.Run(ctx) })
	wg.Go(func() { p.keySweeper.Run(ctx) })
	wg.Go(func() { p.keyChecker.Run(ctx) })
	wg.Go(func() { p.restarter.Run(ctx) })
	wg.Go(func() { p.alerter.Run(ctx) })
	wg.Go(func() { p.grantExpiry.Run(ctx) })
	wg.Go(func() { p.costs.Run(ctx) })
	wg.Go(func() { p.events.Run(ctx) })
	wg.Go(func() { p.lagSampler.Run(ctx) })
	wg.Go(func() { p.tenancySync.Run(ctx) })
	if p.dev != nil {
		p.dev.run(ctx)
	}
	return wg.Wait
}

// maskingRules is what record reads mask, as the configuration says
// (validated: the role is known).
func maskingRules(cfg config.Masking) records.Masking {
	role, _ := portal.ParseRole(cfg.UnmaskedRole)
	return records.Masking{Tags: masking.NewTags(cfg.Tags...), Unmasked: role}
}

// alertRules are the platform's default alert rules: the configuration's,
// checked (an empty list: none), or nil for the built-in ones.
// classifications are the catalog's classifications in force.
func classifications(cfg config.Catalog) (catalog.Classes, error) {
	var list []catalog.Class
	for _, c := range cfg.Classifications {
		list = append(list, catalog.Class{Name: c.Name, MaxGrant: c.MaxGrant, Write: c.Write, Approvals: c.Approvals})
	}
	classes, err := catalog.NewClasses(list, cfg.Default)
	if err != nil {
		return classes, fmt.Errorf("catalog: %w", err)
	}
	return classes, nil
}

func alertRules(cfg config.Alerts) ([]store.AlertRuleRecord, error) {
	if cfg.Defaults == nil {
		return nil, nil // the built-in ones
	}
	out := []store.AlertRuleRecord{}
	for i, r := range cfg.Defaults {
		rule := alert.AlertRule{Name: r.Name, Kind: r.Kind, Target: r.Target, Threshold: r.Threshold, For: r.For, Enabled: !r.Disabled}
		if err := alerts.CheckRule(rule); err != nil {
			return nil, fmt.Errorf("alerts.defaults[%d]: %w", i, err)
		}
		if rule.Target == "" {
			rule.Target = "*"
		}
		out = append(out, store.AlertRuleRecord{Name: rule.Name, Kind: rule.Kind, Target: rule.Target, Threshold: rule.Threshold, For: rule.For,
			Enabled: rule.Enabled})
	}
	return out, nil
}
