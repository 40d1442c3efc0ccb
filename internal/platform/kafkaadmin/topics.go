package kafkaadmin

import (
	"context"
	"sort"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
)

var _ platform.Topics = (*Client)(nil)

// ListTopics returns every topic from one metadata request, cached for the
// configured TTL. The returned slice is shared: callers must not modify it.
func (c *Client) ListTopics(ctx context.Context) ([]platform.TopicInfo, error) {
	// A list served from the cache is a use too: it keeps the refresh
	// loop running, or starts it again.
	release, err := c.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	return c.cache.get(ctx, c.listTopics)
}

// listTopics fetches the list through the cluster's upstream.
func (c *Client) listTopics(ctx context.Context) (out []platform.TopicInfo, err error) {
	err = c.call(ctx, "list_topics", func(ctx context.Context) error {
		out, err = c.fetchTopics(ctx)
		return err
	})
	return out, err
}

// fetchTopics asks the cluster for every topic.
func (c *Client) fetchTopics(ctx context.Context) ([]platform.TopicInfo, error) {
	_, cancel, ms := c.bound(ctx)
	defer cancel()
	md, err := c.h().lister.GetMetadata(nil, true, ms)
	if err != nil {
		return nil, c.translate(err, "")
	}
	c.down.Store(false)
	out := make([]platform.TopicInfo, 0, len(md.Topics))
	for name, t := range md.Topics {
		if t.Error.Code() != kafka.ErrNoError {
			continue
		}
		out = append(out, platform.TopicInfo{Name: name, Partitions: len(t.Partitions), Internal: name[0] == '_'})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// describeTopic returns a topic's partitions and every setting. The two
// requests are independent and asked side by side: a topic's page, and
// every produce's check of the topic's limits, costs one round trip to
// the cluster rather than two, and a broker that stalls holds it once.
func (c *Client) describeTopic(ctx context.Context, name string) (platform.TopicDetail, error) {
	ctx, cancel, _ := c.bound(ctx)
	defer cancel()
	h := c.h()
	type described struct {
		res []kafka.ConfigResourceResult
		err error
	}
	configs := make(chan described, 1)
	go func() {
		res, err := h.admin.DescribeConfigs(ctx, []kafka.ConfigResource{{Type: kafka.ResourceTopic, Name: name}},
			kafka.SetAdminRequestTimeout(c.timeout))
		configs <- described{res, err}
	}()
	d, err := c.describePartitions(ctx, h, name)
	if err != nil {
		// The topic's own answer says why: the settings' request is
		// called off.
		cancel()
		<-configs
		return platform.TopicDetail{}, err
	}
	cfg := <-configs
	if cfg.err != nil {
		return platform.TopicDetail{}, c.translate(cfg.err, name)
	}
	for _, r := range cfg.res {
		if err := c.translate(r.Error, name); err != nil {
			return platform.TopicDetail{}, err
		}
		d.Config = append(d.Config, configEntries(r.Config)...)
	}
	sort.Slice(d.Config, func(i, j int) bool { return d.Config[i].Name < d.Config[j].Name })
	return d, nil
}

// describePartitions returns a topic's partitions, without its settings.
func (c *Client) describePartitions(ctx context.Context, h *handles, name string) (platform.TopicDetail, error) {
	res, err := h.admin.DescribeTopics(ctx, kafka.NewTopicCollectionOfTopicNames([]string{name}),
		kafka.SetAdminRequestTimeout(c.timeout))
	if err != nil {
		return platform.TopicDetail{}, c.translate(err, name)
	}
	if len(res.TopicDescriptions) != 1 {
		return platform.TopicDetail{}, portal.New(portal.Internal, "cluster %s described %d topics for one name", c.name, len(res.TopicDescriptions))
	}
	td := res.TopicDescriptions[0]
	if err := c.translate(td.Error, name); err != nil {
		return platform.TopicDetail{}, err
	}
	return topicDetail(td), nil
}

// createTopics creates topics with the cluster's default replication in
// one CreateTopics request; each topic made is learnt and patched into the
// cached list.
func (c *Client) createTopics(ctx context.Context, specs []platform.TopicSpec) ([]error, error) {
	out := make([]error, len(specs))
	if len(specs) == 0 {
		return out, nil
	}
	ctx, cancel, _ := c.bound(ctx)
	defer cancel()
	req := make([]kafka.TopicSpecification, len(specs))
	index := make(map[string]int, len(specs))
	for i, s := range specs {
		req[i] = kafka.TopicSpecification{Topic: s.Name, NumPartitions: s.Partitions, ReplicationFactor: -1, Config: s.Config}
		index[s.Name] = i
	}
	res, err := c.h().admin.CreateTopics(ctx, req, kafka.SetAdminRequestTimeout(c.timeout), kafka.SetAdminOperationTimeout(c.timeout))
	if err != nil {
		return nil, c.translate(err, specs[0].Name)
	}
	for _, r := range res {
		i, ok := index[r.Topic]
		if !ok {
			continue
		}
		if out[i] = c.translate(r.Error, r.Topic); out[i] == nil {
			c.cache.apply(platform.TopicChange{Name: r.Topic, Partitions: specs[i].Partitions})
		}
	}
	return out, nil
}

// CreateTopic creates a topic with the cluster's default replication.
func (c *Client) createTopic(ctx context.Context, spec platform.TopicSpec) error {
	ctx, cancel, _ := c.bound(ctx)
	defer cancel()
	res, err := c.h().admin.CreateTopics(ctx, []kafka.TopicSpecification{{
		Topic: spec.Name, NumPartitions: spec.Partitions, ReplicationFactor: -1, Config: spec.Config,
	}}, kafka.SetAdminRequestTimeout(c.timeout), kafka.SetAdminOperationTimeout(c.timeout))
	if err != nil {
		return c.translate(err, spec.Name)
	}
	if err := c.translate(res[0].Error, spec.Name); err != nil {
		return err
	}
	// Not learnt: a topic the client does not know is looked up when an
	// offsets request needs it (learning it would keep it for good).
	c.cache.apply(platform.TopicChange{Name: spec.Name, Partitions: spec.Partitions})
	return nil
}

// AlterTopicConfig sets and resets settings in one incremental request.
func (c *Client) alterTopicConfig(ctx context.Context, name string, change platform.ConfigChange) error {
	if change.Empty() {
		return nil
	}
	ctx, cancel, _ := c.bound(ctx)
	defer cancel()
	var entries []kafka.ConfigEntry
	for k, v := range change.Set {
		entries = append(entries, kafka.ConfigEntry{Name: k, Value: v, IncrementalOperation: kafka.AlterConfigOpTypeSet})
	}
	for _, k := range change.Reset {
		entries = append(entries, kafka.ConfigEntry{Name: k, IncrementalOperation: kafka.AlterConfigOpTypeDelete})
	}
	res, err := c.h().admin.IncrementalAlterConfigs(ctx, []kafka.ConfigResource{{Type: kafka.ResourceTopic, Name: name, Config: entries}},
		kafka.SetAdminRequestTimeout(c.timeout))
	if err != nil {
		return c.translate(err, name)
	}
	return c.translate(res[0].Error, name)
}

// CreatePartitions raises a topic's partition count to total.
func (c *Client) createPartitions(ctx context.Context, name string, total int) error {
	ctx, cancel, _ := c.bound(ctx)
	defer cancel()
	res, err := c.h().admin.CreatePartitions(ctx, []kafka.PartitionsSpecification{{Topic: name, IncreaseTo: total}},
		kafka.SetAdminRequestTimeout(c.timeout), kafka.SetAdminOperationTimeout(c.timeout))
	if err != nil {
		return c.translate(err, name)
	}
	if err := c.translate(res[0].Error, name); err != nil {
		return err
	}
	c.cache.apply(platform.TopicChange{Name: name, Partitions: total})
	c.learn(name)
	return nil
}

// DeleteTopic deletes a topic and its data.
func (c *Client) deleteTopic(ctx context.Context, name string) error {
	ctx, cancel, _ := c.bound(ctx)
	defer cancel()
	res, err := c.h().admin.DeleteTopics(ctx, []string{name},
		kafka.SetAdminRequestTimeout(c.timeout), kafka.SetAdminOperationTimeout(c.timeout))
	if err != nil {
		return c.translate(err, name)
	}
	if err := c.translate(res[0].Error, name); err != nil {
		return err
	}
	c.cache.apply(platform.TopicChange{Name: name, Deleted: true})
	return nil
}

// TopicOffsets returns the earliest and latest offsets of every partition,
// with two ListOffsets requests for the whole topic.
func (c *Client) topicOffsets(ctx context.Context, name string, partitions int) ([]platform.PartitionOffsets, error) {
	ctx, cancel, _ := c.bound(ctx)
	defer cancel()
	query := func(spec kafka.OffsetSpec) (map[int]int64, error) {
		req := map[kafka.TopicPartition]kafka.OffsetSpec{}
		topic := name
		for p := 0; p < partitions; p++ {
			req[kafka.TopicPartition{Topic: &topic, Partition: int32(p)}] = spec
		}
		res, err := c.h().admin.ListOffsets(ctx, req, kafka.SetAdminRequestTimeout(c.timeout))
		if err != nil {
			return nil, c.translate(err, name)
		}
		out := map[int]int64{}
		for tp, r := range res.ResultInfos {
			if err := c.translate(r.Error, name); err != nil {
				return nil, err
			}
			out[int(tp.Partition)] = int64(r.Offset)
		}
		return out, nil
	}
	earliest, err := query(kafka.EarliestOffsetSpec)
	if err != nil {
		return nil, err
	}
	latest, err := query(kafka.LatestOffsetSpec)
	if err != nil {
		return nil, err
	}
	out := make([]platform.PartitionOffsets, partitions)
	for p := range out {
		out[p] = platform.PartitionOffsets{Partition: p, Earliest: earliest[p], Latest: latest[p]}
	}
	return out, nil
}

// ClusterInfo returns the cluster id and broker count; readiness uses it.
func (c *Client) clusterInfo(ctx context.Context) (platform.ClusterInfo, error) {
	ctx, cancel, _ := c.bound(ctx)
	defer cancel()
	res, err := c.h().admin.DescribeCluster(ctx, kafka.SetAdminRequestTimeout(c.timeout))
	if err != nil {
		return platform.ClusterInfo{}, c.translate(err, "")
	}
	c.down.Store(false)
	id := ""
	if res.ClusterID != nil {
		id = *res.ClusterID
	}
	return platform.ClusterInfo{ID: id, Brokers: len(res.Nodes)}, nil
}

// learn has librdkafka fetch one topic's metadata after its partitions
// grew: offsets requests route by the client's own metadata, which knows
// the topic with its old partitions (and refuses offsets of the new ones
// as unknown) until its next refresh. The library keeps a handle
// for every topic asked about this way, for the client's life (some 10 kB
// each), so only topics whose partitions grew are learnt: a topic once,
// not a create or a delete each time.
func (c *Client) learn(name string) {
	_, _ = c.h().admin.GetMetadata(&name, false, int(c.timeout/time.Millisecond))
}

// Forget has the topic list refetched in the background, when changes
// may have been missed (the store's notifications were interrupted); the
// cached list is served meanwhile.
func (c *Client) Forget() { c.cache.wake() }

// ApplyTopicChange patches the cached list with another replica's write.
func (c *Client) ApplyTopicChange(ch platform.TopicChange) { c.cache.apply(ch) }

func (c *Client) topicConfigs(ctx context.Context, names []string) (map[string][]platform.ConfigEntry, error) {
	out := make(map[string][]platform.ConfigEntry, len(names))
	if len(names) == 0 {
		return out, nil
	}
	ctx, cancel, _ := c.bound(ctx)
	defer cancel()
	res := make([]kafka.ConfigResource, len(names))
	for i, n := range names {
		res[i] = kafka.ConfigResource{Type: kafka.ResourceTopic, Name: n}
	}
	cfg, err := c.h().admin.DescribeConfigs(ctx, res, kafka.SetAdminRequestTimeout(c.timeout))
	if err != nil {
		return nil, c.translate(err, names[0])
	}
	for _, r := range cfg {
		if r.Error.Code() != kafka.ErrNoError {
			continue // a topic deleted meanwhile: no settings to show
		}
		out[r.Name] = configEntries(r.Config)
	}
	return out, nil
}

// configEntries are a topic's settings as DescribeConfigs gives them,
// sorted by name.
func configEntries(m map[string]kafka.ConfigEntryResult) []platform.ConfigEntry {
	out := make([]platform.ConfigEntry, 0, len(m))
	for _, e := range m {
		out = append(out, platform.ConfigEntry{Name: e.Name, Value: e.Value, Override: e.Source == kafka.ConfigSourceDynamicTopic,
			Sensitive: e.IsSensitive, ReadOnly: e.IsReadOnly, Source: e.Source.String()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
