// Package servicetest builds the portal's services over in-memory and
// embedded upstreams, for the tests of the services and of both front
// doors: the demo tenancy of dev mode, one fake cluster per environment,
// the embedded Connect, IAM and identity-pool stand-ins, and a real Schema
// Registry (the embedded one) on a loopback port.
package servicetest

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/audit"
	"github.com/edh-platform/rms-portal/internal/config"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/platform/embedded"
	"github.com/edh-platform/rms-portal/internal/platform/schemareg"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/service"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// World is the dev tenancy with its services over test upstreams.
type World struct {
	Tenancy    *tenancy.Tenancy
	Envs       *platform.Environments
	Clusters   map[string]*Cluster
	Connect    map[string]*embedded.Connect
	Org        *embedded.Org
	Audit      *audit.Log
	Guard      *service.Guard
	Topics     *service.Topics
	Connectors *service.Connectors
	Schemas    *service.Schemas
	Accounts   *service.ServiceAccounts
	Pools      *service.IdentityPools
	Me         *service.Me
}

// Discard is a logger that writes nothing.
func Discard() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// New builds a world; every cluster starts with the seed topics.
func New(t testing.TB, seed ...string) *World {
	t.Helper()
	cfg, err := config.Dev(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	ten, err := cfg.Tenancy()
	if err != nil {
		t.Fatal(err)
	}
	w := &World{Tenancy: ten, Envs: platform.NewEnvironments(), Clusters: map[string]*Cluster{},
		Connect: map[string]*embedded.Connect{}, Org: embedded.NewOrg()}
	reg, err := embedded.StartRegistry("", "")
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
			k := embedded.NewConnect()
			scope := platform.IAMScope{OrganizationID: "org-test", EnvironmentID: "env-" + z.ID + "-" + st.Name,
				KafkaClusterID: "lkc-" + z.ID + "-" + st.Name, SchemaRegistryID: "lsrc-" + st.Name}
			env := &platform.Environment{Zone: z.ID, Stage: st.Name, Topics: f, Connectors: k, Schemas: schemas,
				IAM: w.Org.IAMFor(scope), Pools: w.Org.PoolsFor("op-" + st.Name)}
			w.Envs.Add(env)
			w.Clusters[env.Name()] = f
			w.Connect[env.Name()] = k
		}
	}
	w.Audit = audit.NewLog(Discard(), 1000)
	w.Guard = service.NewGuard(ten, w.Envs, w.Audit)
	w.Topics = service.NewTopics(w.Guard, service.NewSampler(time.Minute, time.Hour, 10, Discard()))
	w.Connectors = service.NewConnectors(w.Guard)
	w.Schemas = service.NewSchemas(w.Guard)
	w.Accounts = service.NewServiceAccounts(w.Guard)
	filters, err := service.NewFilters()
	if err != nil {
		t.Fatal(err)
	}
	w.Pools = service.NewIdentityPools(w.Guard, filters)
	w.Me = service.NewMe(w.Guard)
	return w
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
