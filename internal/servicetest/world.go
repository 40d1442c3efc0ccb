// Package servicetest builds the portal's services over in-memory and
// embedded upstreams, for the tests of the services and of both front
// doors: the demo tenancy of dev mode, one fake cluster per environment,
// the embedded Connect, IAM and identity-pool stand-ins, a real Schema
// Registry (the embedded one) on a loopback port, and a real store
// (SQLite in a temporary file).
package servicetest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/admin"
	"github.com/edh-platform/rms-portal/internal/assembly"
	"github.com/edh-platform/rms-portal/internal/audit"
	"github.com/edh-platform/rms-portal/internal/auth"
	"github.com/edh-platform/rms-portal/internal/config"
	"github.com/edh-platform/rms-portal/internal/dev/cloud"
	"github.com/edh-platform/rms-portal/internal/dev/registry"
	"github.com/edh-platform/rms-portal/internal/events"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/jobs"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/platform/schemareg"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/store"
	"github.com/edh-platform/rms-portal/internal/store/sqlite"
	"github.com/edh-platform/rms-portal/internal/store/sqlitetest"
	"github.com/edh-platform/rms-portal/internal/tenancy"
	"github.com/edh-platform/rms-portal/internal/topics"
	"github.com/edh-platform/rms-portal/internal/upstream"
	"github.com/edh-platform/rms-portal/internal/worker"
)

// World is the dev tenancy with its services over test upstreams.
type World struct {
	// Tenancy is the tenancy in force (the admin area changes it).
	Tenancy  *tenancy.Live
	Envs     *platform.Environments
	Clusters map[string]*Cluster
	Connect  map[string]*cloud.Connect
	Org      *cloud.Org
	Store    *sqlite.Store
	Audit    *audit.Recorder
	Guard    *gate.Guard
	// Built are the services, wired as cmd/portal wires them.
	*assembly.Built
	// Metrics answers every environment's Metrics API queries; Charts
	// is the cache in front of it.
	Metrics *Metrics
	Charts  *topics.MetricCache
	// Sync keeps Tenancy in step with the store's units and switches.
	Sync *worker.TenancySync
	// Jobs runs the world's background jobs (bulk creates) until the
	// test ends.
	Jobs *jobs.Runner
	// Keys signs in with new API keys for every environment.
	Keys *KeyCheck
	// ahead is how far the guard's clock runs ahead of time.Now.
	ahead atomic.Int64
}

// Advance moves the services' clock on by d.
func (w *World) Advance(d time.Duration) { w.ahead.Add(int64(d)) }

func (w *World) now() time.Time { return time.Now().Add(time.Duration(w.ahead.Load())) }

// KeyCheck stands for signing in with a new API key: it takes every key
// with the secret it was made with, except while Refuse is set (a key not
// spread yet).
type KeyCheck struct {
	Refuse atomic.Bool
	// Secrets are the secrets it was asked with, by key.
	mu      sync.Mutex
	secrets map[string]string
}

// CheckKey records the secret it was asked with and answers.
func (k *KeyCheck) CheckKey(_ context.Context, _ bool, key, secret string) error {
	k.mu.Lock()
	if k.secrets == nil {
		k.secrets = map[string]string{}
	}
	k.secrets[key] = secret
	k.mu.Unlock()
	if k.Refuse.Load() {
		return errors.New("SASL authentication failed: the key is not known yet")
	}
	return nil
}

// Secret is the secret a key was last checked with ("" if never).
func (k *KeyCheck) Secret(key string) string {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.secrets[key]
}

// Budget is the world's upstream timeout: a write answers within it.
const Budget = time.Second

// PublicReceivers resolve every webhook host to a public address, as a
// receiver on the internet would (tests have no DNS).
func PublicReceivers() events.Receivers {
	return events.Receivers{Lookup: func(context.Context, string) ([]netip.Addr, error) {
		return []netip.Addr{netip.MustParseAddr("93.184.216.34")}, nil
	}}
}

// Discard is a logger that writes nothing.
func Discard() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// New builds a world; every cluster starts with the seed topics.
func New(t testing.TB, seed ...string) *World {
	t.Helper()
	return NewConfigured(t, nil, seed...)
}

// NewConfigured is New with the dev configuration changed first by
// configure (a stage's switches), when set.
func NewConfigured(t testing.TB, configure func(*config.Config), seed ...string) *World {
	t.Helper()
	cfg, err := config.Dev(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	// The world's read-only stage keeps the stock switches of one (no
	// records read or written by hand, tagged fields masked): dev.yaml
	// opens run's records to Viewers and its produce to Admins, for the
	// demo.
	for i, st := range cfg.Stages {
		if st.ReadOnly {
			cfg.Stages[i].DataAccess, cfg.Stages[i].Produce, cfg.Stages[i].Masking = tenancy.DataOff, tenancy.ProduceOff, tenancy.MaskingTags
		}
	}
	if configure != nil {
		configure(cfg)
	}
	ten, err := cfg.Tenancy()
	if err != nil {
		t.Fatal(err)
	}
	w := &World{Tenancy: tenancy.NewLive(ten), Envs: platform.NewEnvironments(), Clusters: map[string]*Cluster{},
		Connect: map[string]*cloud.Connect{}, Org: cloud.NewOrg(), Metrics: NewMetrics(), Keys: &KeyCheck{}}
	reg, err := registry.StartRegistry("", "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(reg.Close)
	schemas, err := schemareg.New(schemareg.Options{Name: "test", URL: reg.URL(), Timeout: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(schemas.Close)
	for _, z := range ten.LandingZones() {
		for _, st := range ten.Stages() {
			f := NewCluster(seed...)
			k := cloud.NewConnect()
			scope := platform.IAMScope{OrganizationID: "org-test", EnvironmentID: "env-" + z.ID + "-" + st.Name,
				KafkaClusterID: "lkc-" + z.ID + "-" + st.Name, SchemaRegistryID: "lsrc-" + st.Name}
			env := &platform.Environment{Zone: z.ID, Stage: st.Name, Topics: f, Groups: f, Messages: f, Connectors: k, Schemas: schemas,
				IAM: w.Org.IAMFor(scope), Pools: w.Org.PoolsFor("op-" + st.Name), APIKeys: w.Org.APIKeys(), Scope: scope,
				Access: platform.ClientAccess{BootstrapServers: "pkc-" + z.ID + "-" + st.Name + ".example.com:9092", SecurityProtocol: "SASL_SSL",
					SASLMechanism: "PLAIN", RegistryURL: "https://psrc-" + z.ID + "-" + st.Name + ".example.com"},
				Metrics: w.Metrics, ClusterID: scope.KafkaClusterID, KeyCheck: w.Keys}
			w.Envs.Add(env)
			w.Clusters[env.Name()] = f
			w.Connect[env.Name()] = k
		}
	}
	st, _, err := sqlite.Open(context.Background(), sqlitetest.File(t, ""), 5*time.Second, Discard())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	w.Store = st
	w.Audit = audit.New(st, Discard())
	w.Guard = gate.New(gate.Options{Tenancy: w.Tenancy, Envs: w.Envs, Audit: w.Audit, Notify: st, Logger: Discard(),
		PlatformAdminGroup: "platform-admins", Locks: st, Holder: "test", UpstreamTimeout: Budget, Reservations: st, Now: w.now})
	w.Charts = topics.NewMetricCache(st, Discard())
	w.Sync = worker.NewTenancySync(cfg.TenancySpec(), w.Tenancy, st, st, Discard())
	w.Jobs = jobs.New(st, "test", Discard())
	sealer, err := auth.NewSealer("api key check", []string{"servicetest-session-key-0123456789"})
	if err != nil {
		t.Fatal(err)
	}
	w.Built, err = assembly.New(assembly.Deps{Guard: w.Guard, Store: st, KeySecrets: sealer, Sampler: worker.NewSampler(time.Minute, time.Hour, 10, st, Discard()),
		Charts: w.Charts, Jobs: w.Jobs, Webhooks: events.ServiceOptions{Receivers: PublicReceivers()},
		Admin: admin.Options{Sync: w.Sync, Health: func() []upstream.Health { return nil }, Config: cfg.Effective,
			Resolver: access.NewResolver(w.Tenancy, "platform-admins"), GroupsClaim: "groups"}})
	if err != nil {
		t.Fatal(err)
	}
	// Lag in time is reckoned by the world's clock, as everything else.
	w.Groups.SetClock(w.now)
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		w.Jobs.Run(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		<-stopped
	})
	return w
}

// AuditEvents lists the audit trail, newest first.
func (w *World) AuditEvents(t testing.TB) []trail.AuditEvent {
	t.Helper()
	ev, err := w.Store.ListAudit(context.Background(), store.AuditFilter{Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

// Cluster returns the fake cluster of a landing zone in a stage.
func (w *World) Cluster(zone, stage string) *Cluster { return w.Clusters[zone+"/"+stage] }

// Env returns the environment of a landing zone in a stage, so that a test
// can swap one of its ports.
func (w *World) Env(zone, stage string) *platform.Environment {
	env, err := w.Envs.Get(zone, stage)
	if err != nil {
		panic(err)
	}
	return env
}

// As is a context whose caller has role in bu (and no other role).
func As(bu string, role portal.Role) context.Context {
	roles := map[string]portal.Role{}
	if role > portal.NoRole {
		roles[bu] = role
	}
	return portal.WithPrincipal(context.Background(), portal.PrincipalWithRoles("tester", roles))
}

// AsGroups is a context whose caller has these groups, resolved by the
// real policy against the world's tenancy.
func (w *World) AsGroups(groups ...string) context.Context {
	r := access.NewResolver(w.Tenancy, "platform-admins")
	return portal.WithPrincipal(context.Background(), r.Resolve(portal.Identity{Subject: "u", Username: "u", Groups: groups}))
}

// CheckDone checks what one allowed write left in the trail since it had
// before events: want events, each done (outcome ok) by someone on
// something.
func (w *World) CheckDone(t testing.TB, before, want int) {
	t.Helper()
	evs := w.AuditEvents(t)
	added := evs[:len(evs)-before]
	var seen []string
	for _, e := range added {
		seen = append(seen, e.Action.String()+" "+e.Outcome)
	}
	if len(added) != want {
		t.Fatalf("the trail has %d new events %v, want %d", len(added), seen, want)
	}
	for _, e := range added {
		if e.Outcome != "ok" || e.Actor == "" || e.Resource == "" {
			t.Errorf("an event of the write: %s by %q on %q, outcome %q", e.Action, e.Actor, e.Resource, e.Outcome)
		}
	}
}

// AsRole is a context whose caller, named after the role, has role in
// scada (and no other role).
func AsRole(role portal.Role) context.Context {
	return portal.WithPrincipal(context.Background(), portal.PrincipalWithRoles(role.String(), map[string]portal.Role{"scada": role}))
}

// Problems is an error's problems, one per line: kind, field and message.
func Problems(err error) string {
	var parts []string
	for _, p := range portal.Problems(err) {
		parts = append(parts, fmt.Sprintf("%s %s: %s", p.Kind, p.Field, p.Message))
	}
	return strings.Join(parts, "\n")
}
