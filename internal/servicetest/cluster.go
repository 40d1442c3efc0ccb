package servicetest

import (
	"context"
	"maps"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/topicconfig"
)

// Cluster is an in-memory Kafka cluster behind the platform.Topics port;
// it counts the calls it receives, so tests can prove what was (not) done.
type Cluster struct {
	mu     sync.Mutex
	topics map[string]*clusterTopic
	groups map[string]*fakeGroup
	// records, when set for a topic, are what ReadMessages reads there.
	records map[string][]platform.Message
	// configCalls counts TopicConfigs calls (a list's batched request);
	// batchCreates CreateTopics calls; batchUpdates AlterTopicConfigs and
	// AddPartitions calls.
	configCalls, batchCreates, batchUpdates int
	calls                                   int
	writes                                  int
	// latency, when set, delays reads and config changes of topics, to
	// widen the windows in which concurrent changes interleave.
	latency atomic.Int64
	// refuse are topics whose changes the cluster refuses, with what.
	refuse map[string]error
	// created, when set, is called after a topic is created (outside the
	// cluster's lock), so a test can act between two steps of an apply.
	created func(name string)
}

// OnCreate has fn called after each topic the cluster creates, one at a
// time or in a batch.
func (f *Cluster) OnCreate(fn func(name string)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.created = fn
}

func (f *Cluster) announce(names ...string) {
	f.mu.Lock()
	fn := f.created
	f.mu.Unlock()
	if fn != nil {
		for _, n := range names {
			fn(n)
		}
	}
}

// Refuse has the cluster refuse every change of a topic's settings or
// partitions with err (nil accepts them again).
func (f *Cluster) Refuse(name string, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.refuse == nil {
		f.refuse = map[string]error{}
	}
	f.refuse[name] = err
}

// SetLatency delays every topic read and configuration change by d.
func (f *Cluster) SetLatency(d time.Duration) { f.latency.Store(int64(d)) }

func (f *Cluster) pause() {
	if d := time.Duration(f.latency.Load()); d > 0 {
		time.Sleep(d) // the cluster's answer takes that long
	}
}

type clusterTopic struct {
	partitions int
	config     map[string]string
}

// NewCluster returns a cluster holding topics with the given names.
func NewCluster(names ...string) *Cluster {
	f := &Cluster{topics: map[string]*clusterTopic{}, groups: map[string]*fakeGroup{}, records: map[string][]platform.Message{}}
	for _, n := range names {
		f.topics[n] = &clusterTopic{partitions: 1, config: map[string]string{}}
	}
	return f
}

// Calls counts the calls received so far.
func (f *Cluster) Calls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls
}

// Writes counts the calls that change the cluster (create, alter,
// partitions, delete), whether they succeeded or not.
func (f *Cluster) Writes() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.writes
}

// Has reports whether the cluster holds a topic.
func (f *Cluster) Has(name string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	_, ok := f.topics[name]
	return ok
}

// Names lists the cluster's topics, sorted.
func (f *Cluster) Names() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]string, 0, len(f.topics))
	for n := range f.topics {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// ListTopics implements platform.Topics.
func (f *Cluster) ListTopics(context.Context) ([]platform.TopicInfo, error) {
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

// DescribeTopic implements platform.Topics.
func (f *Cluster) DescribeTopic(_ context.Context, name string) (platform.TopicDetail, error) {
	f.pause()
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
	d.Config = t.entries()
	return d, nil
}

// entries are the topic's settings: overrides, else the defaults.
func (t *clusterTopic) entries() []platform.ConfigEntry {
	var out []platform.ConfigEntry
	for _, s := range topicconfig.TopicSettings() {
		v, over := t.config[s.Key]
		if !over {
			v = s.Default
		}
		out = append(out, platform.ConfigEntry{Name: s.Key, Value: v, Override: over})
	}
	for k, v := range t.config {
		if _, editable := topicconfig.LookupTopicSetting(k); !editable {
			out = append(out, platform.ConfigEntry{Name: k, Value: v, Override: true})
		}
	}
	return out
}

// CreateTopic implements platform.Topics.
func (f *Cluster) CreateTopic(_ context.Context, s platform.TopicSpec) error {
	f.mu.Lock()
	f.calls++
	f.writes++
	if _, ok := f.topics[s.Name]; ok {
		f.mu.Unlock()
		return portal.New(portal.AlreadyExists, "topic %s already exists", s.Name)
	}
	f.topics[s.Name] = &clusterTopic{partitions: s.Partitions, config: maps.Clone(s.Config)}
	f.mu.Unlock()
	f.announce(s.Name)
	return nil
}

// CreateTopics implements platform.Topics: one call for all.
func (f *Cluster) CreateTopics(_ context.Context, specs []platform.TopicSpec) ([]error, error) {
	f.mu.Lock()
	f.calls++
	f.writes++
	f.batchCreates++
	out := make([]error, len(specs))
	var made []string
	for i, s := range specs {
		if _, ok := f.topics[s.Name]; ok {
			out[i] = portal.New(portal.AlreadyExists, "topic %s already exists", s.Name)
			continue
		}
		f.topics[s.Name] = &clusterTopic{partitions: s.Partitions, config: maps.Clone(s.Config)}
		made = append(made, s.Name)
	}
	f.mu.Unlock()
	f.announce(made...)
	return out, nil
}

// BatchCreates counts CreateTopics calls.
func (f *Cluster) BatchCreates() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.batchCreates
}

// AlterTopicConfig implements platform.Topics.
func (f *Cluster) AlterTopicConfig(_ context.Context, name string, c platform.ConfigChange) error {
	f.pause()
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	f.writes++
	return f.changeLocked(name, func(t *clusterTopic) { t.alter(c) })
}

// CreatePartitions implements platform.Topics.
func (f *Cluster) CreatePartitions(_ context.Context, name string, total int) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	f.writes++
	return f.changeLocked(name, func(t *clusterTopic) { t.partitions = total })
}

// DeleteTopic implements platform.Topics.
func (f *Cluster) DeleteTopic(_ context.Context, name string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	f.writes++
	if _, ok := f.topics[name]; !ok {
		return portal.New(portal.NotFound, "topic %s not found", name)
	}
	delete(f.topics, name)
	return nil
}

// TopicOffsets implements platform.Topics.
func (f *Cluster) TopicOffsets(_ context.Context, name string, partitions int) ([]platform.PartitionOffsets, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	out := make([]platform.PartitionOffsets, partitions)
	for i := range out {
		out[i] = platform.PartitionOffsets{Partition: i, Earliest: 10, Latest: int64(100 * (i + 1))}
	}
	return out, nil
}

// TopicConfigs implements platform.Topics: overrides, else the settings'
// defaults; one call however many topics.
func (f *Cluster) TopicConfigs(_ context.Context, names []string) (map[string][]platform.ConfigEntry, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	f.configCalls++
	out := map[string][]platform.ConfigEntry{}
	for _, n := range names {
		if t, ok := f.topics[n]; ok {
			out[n] = t.entries()
		}
	}
	return out, nil
}

// DescribeTopics implements platform.Topics: one call for all.
func (f *Cluster) DescribeTopics(ctx context.Context, names []string) (map[string]platform.TopicDetail, error) {
	out := map[string]platform.TopicDetail{}
	for _, n := range names {
		if d, err := f.DescribeTopic(ctx, n); err == nil {
			out[n] = d
		}
	}
	f.mu.Lock()
	f.calls -= len(names) - 1
	f.mu.Unlock()
	return out, nil
}

// AlterTopicConfigs implements platform.Topics: one call for all.
func (f *Cluster) AlterTopicConfigs(_ context.Context, changes map[string]platform.ConfigChange) (map[string]error, error) {
	f.pause()
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	f.writes++
	f.batchUpdates++
	out := map[string]error{}
	for name, c := range changes {
		out[name] = f.changeLocked(name, func(t *clusterTopic) { t.alter(c) })
	}
	return out, nil
}

// AddPartitions implements platform.Topics: one call for all.
func (f *Cluster) AddPartitions(_ context.Context, totals map[string]int) (map[string]error, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	f.writes++
	f.batchUpdates++
	out := map[string]error{}
	for name, total := range totals {
		out[name] = f.changeLocked(name, func(t *clusterTopic) { t.partitions = total })
	}
	return out, nil
}

// changeLocked changes a topic, or says why the cluster does not.
func (f *Cluster) changeLocked(name string, change func(t *clusterTopic)) error {
	if err := f.refuse[name]; err != nil {
		return err
	}
	t, ok := f.topics[name]
	if !ok {
		return portal.New(portal.NotFound, "topic %s not found", name)
	}
	change(t)
	return nil
}

// alter sets and resets a topic's settings.
func (t *clusterTopic) alter(c platform.ConfigChange) {
	maps.Copy(t.config, c.Set)
	for _, k := range c.Reset {
		delete(t.config, k)
	}
}

// BatchUpdates counts AlterTopicConfigs and AddPartitions calls.
func (f *Cluster) BatchUpdates() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.batchUpdates
}

// ConfigCalls counts TopicConfigs calls.
func (f *Cluster) ConfigCalls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.configCalls
}

// ClusterInfo implements platform.Topics.
func (f *Cluster) ClusterInfo(context.Context) (platform.ClusterInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	return platform.ClusterInfo{ID: "fake", Brokers: 3}, nil
}

// SetConfig overrides a setting directly, as a platform team might.
func (f *Cluster) SetConfig(topic, key, value string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.topics[topic].config[key] = value
}
