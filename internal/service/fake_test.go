package service

import (
	"context"
	"maps"
	"slices"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/audit"
	"github.com/edh-platform/rms-portal/internal/config"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/platform/embedded"
	"github.com/edh-platform/rms-portal/internal/platform/schemareg"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// fakeTopics is an in-memory cluster that counts the calls it receives.
type fakeTopics struct {
	mu     sync.Mutex
	topics map[string]*fakeTopic
	calls  int
}

type fakeTopic struct {
	partitions int
	config     map[string]string
}

func newFakeTopics(names ...string) *fakeTopics {
	f := &fakeTopics{topics: map[string]*fakeTopic{}}
	for _, n := range names {
		f.topics[n] = &fakeTopic{partitions: 1, config: map[string]string{}}
	}
	return f
}

func (f *fakeTopics) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls
}

func (f *fakeTopics) ListTopics(context.Context) ([]platform.TopicInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	var out []platform.TopicInfo
	for n, t := range f.topics {
		out = append(out, platform.TopicInfo{Name: n, Partitions: t.partitions, Internal: n[0] == '_'})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

func (f *fakeTopics) DescribeTopic(_ context.Context, name string) (platform.TopicDetail, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	t, ok := f.topics[name]
	if !ok {
		return platform.TopicDetail{}, portal.New(portal.NotFound, "topic %s not found", name)
	}
	d := platform.TopicDetail{Name: name}
	for i := 0; i < t.partitions; i++ {
		d.Partitions = append(d.Partitions, platform.PartitionInfo{ID: i, Leader: 1, Replicas: []int{1, 2, 3}, ISR: []int{1, 2, 3}})
	}
	for _, s := range portal.TopicSettings() {
		v, over := t.config[s.Key]
		if !over {
			v = s.Default
		}
		d.Config = append(d.Config, platform.ConfigEntry{Name: s.Key, Value: v, Override: over})
	}
	for k, v := range t.config {
		if _, editable := portal.LookupTopicSetting(k); !editable {
			d.Config = append(d.Config, platform.ConfigEntry{Name: k, Value: v, Override: true})
		}
	}
	return d, nil
}

func (f *fakeTopics) CreateTopic(_ context.Context, s platform.TopicSpec) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if _, ok := f.topics[s.Name]; ok {
		return portal.New(portal.AlreadyExists, "topic %s already exists", s.Name)
	}
	f.topics[s.Name] = &fakeTopic{partitions: s.Partitions, config: maps.Clone(s.Config)}
	return nil
}

func (f *fakeTopics) AlterTopicConfig(_ context.Context, name string, c platform.ConfigChange) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	t, ok := f.topics[name]
	if !ok {
		return portal.New(portal.NotFound, "topic %s not found", name)
	}
	maps.Copy(t.config, c.Set)
	for _, k := range c.Reset {
		delete(t.config, k)
	}
	return nil
}

func (f *fakeTopics) CreatePartitions(_ context.Context, name string, total int) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	f.topics[name].partitions = total
	return nil
}

func (f *fakeTopics) DeleteTopic(_ context.Context, name string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if _, ok := f.topics[name]; !ok {
		return portal.New(portal.NotFound, "topic %s not found", name)
	}
	delete(f.topics, name)
	return nil
}

func (f *fakeTopics) TopicOffsets(_ context.Context, name string, partitions int) ([]platform.PartitionOffsets, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	out := make([]platform.PartitionOffsets, partitions)
	for i := range out {
		out[i] = platform.PartitionOffsets{Partition: i, Earliest: 10, Latest: int64(100 * (i + 1))}
	}
	return out, nil
}

func (f *fakeTopics) ClusterInfo(context.Context) (platform.ClusterInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	return platform.ClusterInfo{ID: "fake", Brokers: 3}, nil
}

// world is the dev tenancy over fake clusters, one per environment.
type world struct {
	tenancy    *tenancy.Tenancy
	clusters   map[string]*fakeTopics
	guard      *Guard
	topics     *Topics
	connectors *Connectors
	schemas    *Schemas
	accounts   *ServiceAccounts
	pools      *IdentityPools
	org        *embedded.Org
	connect    map[string]*embedded.Connect
	audit      *audit.Log
}

func newWorld(t *testing.T, seed ...string) *world {
	t.Helper()
	cfg, err := config.Dev(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	ten, err := cfg.Tenancy()
	if err != nil {
		t.Fatal(err)
	}
	w := &world{tenancy: ten, clusters: map[string]*fakeTopics{}, connect: map[string]*embedded.Connect{}}
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
	envs := platform.NewEnvironments()
	w.org = embedded.NewOrg()
	for _, z := range ten.LandingZones() {
		for _, st := range ten.Stages() {
			f := newFakeTopics(seed...)
			k := embedded.NewConnect()
			scope := platform.IAMScope{OrganizationID: "org-test", EnvironmentID: "env-" + z.ID + "-" + st.Name,
				KafkaClusterID: "lkc-" + z.ID + "-" + st.Name, SchemaRegistryID: "lsrc-" + st.Name}
			env := &platform.Environment{Zone: z.ID, Stage: st.Name, Topics: f, Connectors: k, Schemas: schemas,
				IAM: w.org.IAMFor(scope), Pools: w.org.PoolsFor("op-" + st.Name)}
			envs.Add(env)
			w.clusters[env.Name()] = f
			w.connect[env.Name()] = k
		}
	}
	w.audit = audit.NewLog(discard(), 100)
	w.guard = NewGuard(ten, envs, w.audit)
	w.topics = NewTopics(w.guard, NewSampler(time.Minute, time.Hour, 10, discard()))
	w.connectors = NewConnectors(w.guard)
	w.schemas = NewSchemas(w.guard)
	w.accounts = NewServiceAccounts(w.guard)
	filters, err := NewFilters()
	if err != nil {
		t.Fatal(err)
	}
	w.pools = NewIdentityPools(w.guard, filters)
	return w
}

func (w *world) cluster(zone, stage string) *fakeTopics { return w.clusters[zone+"/"+stage] }

func as(bu string, role portal.Role) context.Context {
	roles := map[string]portal.Role{}
	if role > portal.NoRole {
		roles[bu] = role
	}
	return portal.WithPrincipal(context.Background(), portal.PrincipalWithRoles("tester", roles))
}

func intp(n int) *int       { return &n }
func strp(s string) *string { return &s }

func names(ts []portal.Topic) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Name
	}
	return slices.Clip(out)
}
