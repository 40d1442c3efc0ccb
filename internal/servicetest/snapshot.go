package servicetest

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/connect"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
	"github.com/edh-platform/rms-portal/internal/portal/schema"
	"github.com/edh-platform/rms-portal/internal/portal/topic"
)

// Snapshot describes everything upstream that a write could change, in
// every environment: topics (with the count of write calls), connectors
// with their states and settings, schema versions, service accounts and
// identity pools. Two equal snapshots mean that nothing changed.
func (w *World) Snapshot(t testing.TB) string {
	t.Helper()
	return w.SnapshotUpstream(t) + w.snapshotStore(t)
}

// SnapshotUpstream is the upstream part of Snapshot alone: it reads no
// store, so that a test whose database is down can take it.
func (w *World) SnapshotUpstream(t testing.TB) string {
	t.Helper()
	ctx := context.Background()
	var b strings.Builder
	for _, env := range w.Envs.All() {
		c := w.Clusters[env.Name()]
		fmt.Fprintf(&b, "%s topics %v writes %d\n", env.Name(), c.Names(), c.Writes())
		groups, _ := c.ListGroups(ctx)
		for _, g := range groups {
			offs := c.Committed(g.ID)
			keys := make([]string, 0, len(offs))
			for tp, o := range offs {
				keys = append(keys, fmt.Sprintf("%s[%d]=%d", tp.Topic, tp.Partition, o))
			}
			sort.Strings(keys)
			fmt.Fprintf(&b, "%s group %s %v\n", env.Name(), g.ID, keys)
		}
		cs, err := env.Connectors.ListConnectors(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range cs {
			// A connector moves from provisioning to running (or failing)
			// by itself as time passes; only a pause is someone's doing.
			state := "active"
			if k.State == connect.StatePaused {
				state = k.State
			}
			fmt.Fprintf(&b, "%s connector %s %s %v\n", env.Name(), k.Name, state, k.Config)
		}
		vs, err := env.Schemas.ListSchemas(ctx, "", false)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range vs {
			fmt.Fprintf(&b, "%s schema %s@%d\n", env.Name(), v.Subject, v.Version)
		}
		pools, err := env.Pools.ListPools(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range pools {
			fmt.Fprintf(&b, "%s pool %s %s %q\n", env.Name(), p.ID, p.DisplayName, p.Filter)
		}
	}
	accounts, err := w.Envs.All()[0].IAM.ListServiceAccounts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, a := range accounts {
		names = append(names, a.ID+" "+a.DisplayName)
	}
	sort.Strings(names)
	fmt.Fprintf(&b, "accounts %v\n", names)
	keys, err := w.Org.APIKeys().ListAPIKeys(ctx, "", "")
	if err != nil {
		t.Fatal(err)
	}
	names = names[:0]
	for _, k := range keys {
		names = append(names, k.ID+" "+k.Owner+" "+k.Resource+" "+k.Description)
	}
	sort.Strings(names)
	fmt.Fprintf(&b, "api keys %v\n", names)
	return b.String()
}

// snapshotStore describes what the admin area changes in the store:
// units, switches, sessions.
func (w *World) snapshotStore(t testing.TB) string {
	t.Helper()
	ctx := context.Background()
	var b strings.Builder
	units, err := w.Store.UnitRecords(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range units {
		fmt.Fprintf(&b, "unit %s %s %v %v %v\n", u.ID, u.LandingZone, u.Admin, u.Developer, u.Viewer)
	}
	switches, err := w.Store.SwitchRecords(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range switches {
		fmt.Fprintf(&b, "switch %s/%s %v %q\n", s.LandingZone, s.Stage, s.ReadOnly, s.Reason)
	}
	sessions, err := w.Store.SessionsOf(ctx, "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sessions {
		fmt.Fprintf(&b, "session %s %s\n", s.ID, s.Username)
	}
	fmt.Fprintf(&b, "tenancy units %d\n", len(w.Tenancy.Current().Units()))
	return b.String()
}

// Seeded names what Seed made in a unit and stage.
type Seeded struct {
	Topic, Connector, Subject string
	AccountID, PoolID         string
	// KeyID is the account's API key on the stage's cluster.
	KeyID string
	// Group is a consumer group without members, with an offset on Topic.
	Group string
}

// Seed creates, as a platform admin, one resource of each kind in
// bu/stage, so that tests have something to read, change and delete.
func (w *World) Seed(t testing.TB, bu, stage string) Seeded {
	t.Helper()
	ctx := portal.WithPrincipal(context.Background(), portal.NewPrincipal(portal.Identity{Subject: "seed", Username: "seed"}, true,
		map[string]portal.Grant{bu: {Role: portal.SuperAdmin}}))
	var s Seeded
	topic, err := w.Topics.Create(ctx, portal.Scope{BU: bu, Stage: stage}, topic.NewTopic{Name: "existing"})
	if err != nil {
		t.Fatal(err)
	}
	s.Topic = topic.Name
	k, err := w.Connectors.Create(ctx, portal.Scope{BU: bu, Stage: stage}, connect.NewConnector{Name: "existing", Config: map[string]string{
		"connector.class": "DatagenSource", "kafka.topic": "existing", "quickstart": "ORDERS", "output.data.format": "JSON",
		"kafka.api.key": "KEY", "kafka.api.secret": "SECRET"}})
	if err != nil {
		t.Fatal(err)
	}
	s.Connector = k.Name
	v, err := w.Schemas.Create(ctx, portal.Scope{BU: bu, Stage: stage}, schema.NewSchema{Topic: "existing", SubjectType: "value",
		SchemaDef: schema.SchemaDef{SchemaType: "AVRO", Schema: `{"type":"record","name":"R","fields":[{"name":"a","type":"string"}]}`}})
	if err != nil {
		t.Fatal(err)
	}
	s.Subject = v.Subject
	a, err := w.Accounts.Create(ctx, portal.Scope{BU: bu, Stage: stage}, iam.NewServiceAccount{Name: "existing", Type: "consumer"})
	if err != nil {
		t.Fatal(err)
	}
	s.AccountID = a.ID
	key, err := w.APIKeys.Create(ctx, portal.Scope{BU: bu, Stage: stage}, a.ID, iam.NewAPIKey{Resource: iam.KeyForKafka})
	if err != nil {
		t.Fatal(err)
	}
	s.KeyID = key.ID
	p, err := w.Pools.Create(ctx, portal.Scope{BU: bu, Stage: stage}, iam.NewPool{Name: "existing", Type: "consumer", Filter: `claims.sub == "x"`})
	if err != nil {
		t.Fatal(err)
	}
	s.PoolID = p.ID
	s.Group = strings.TrimSuffix(s.Topic, "existing") + "existing-readers"
	w.Cluster(w.zoneOf(bu), stage).AddGroup(s.Group, nil, map[platform.TopicPartition]int64{{Topic: s.Topic, Partition: 0}: 20})
	return s
}

// zoneOf is the landing zone of a unit.
func (w *World) zoneOf(bu string) string {
	u, _ := w.Tenancy.Current().Unit(bu)
	return u.LandingZone.ID
}
