package kafkaadmin

import (
	"context"
	"maps"
	"slices"
	"sort"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"

	"github.com/edh-platform/rms-portal/internal/platform"
)

// topicDetail is a topic's description without its settings.
func topicDetail(td kafka.TopicDescription) platform.TopicDetail {
	d := platform.TopicDetail{Name: td.Name, Internal: td.IsInternal}
	for _, p := range td.Partitions {
		pi := platform.PartitionInfo{ID: p.Partition, Leader: -1}
		if p.Leader != nil {
			pi.Leader = p.Leader.ID
		}
		for _, r := range p.Replicas {
			pi.Replicas = append(pi.Replicas, r.ID)
		}
		for _, r := range p.Isr {
			pi.ISR = append(pi.ISR, r.ID)
		}
		d.Partitions = append(d.Partitions, pi)
	}
	sort.Slice(d.Partitions, func(i, j int) bool { return d.Partitions[i].ID < d.Partitions[j].ID })
	return d
}

// describeTopics describes many topics: one DescribeTopics request for
// their partitions, one DescribeConfigs request for their settings. A
// topic that does not exist is left out.
func (c *Client) describeTopics(ctx context.Context, names []string) (map[string]platform.TopicDetail, error) {
	out := make(map[string]platform.TopicDetail, len(names))
	if len(names) == 0 {
		return out, nil
	}
	bctx, cancel, _ := c.bound(ctx)
	defer cancel()
	res, err := c.h().admin.DescribeTopics(bctx, kafka.NewTopicCollectionOfTopicNames(names), kafka.SetAdminRequestTimeout(c.timeout))
	if err != nil {
		return nil, c.translate(err, names[0])
	}
	var found []string
	for _, td := range res.TopicDescriptions {
		switch td.Error.Code() {
		case kafka.ErrNoError:
		case kafka.ErrUnknownTopicOrPart, kafka.ErrUnknownTopic:
			continue // missing (or deleted meanwhile)
		default:
			return nil, c.translate(td.Error, td.Name)
		}
		out[td.Name] = topicDetail(td)
		found = append(found, td.Name)
	}
	configs, err := c.topicConfigs(ctx, found)
	if err != nil {
		return nil, err
	}
	for _, name := range found {
		cfg, ok := configs[name]
		if !ok {
			delete(out, name) // deleted between the two requests
			continue
		}
		d := out[name]
		d.Config = cfg
		out[name] = d
	}
	return out, nil
}

// alterTopicConfigs sets and resets the settings of many topics in one
// IncrementalAlterConfigs request.
func (c *Client) alterTopicConfigs(ctx context.Context, changes map[string]platform.ConfigChange) (map[string]error, error) {
	out := make(map[string]error, len(changes))
	var res []kafka.ConfigResource
	for _, name := range slices.Sorted(maps.Keys(changes)) {
		ch := changes[name]
		if ch.Empty() {
			out[name] = nil
			continue
		}
		var entries []kafka.ConfigEntry
		for _, k := range slices.Sorted(maps.Keys(ch.Set)) {
			entries = append(entries, kafka.ConfigEntry{Name: k, Value: ch.Set[k], IncrementalOperation: kafka.AlterConfigOpTypeSet})
		}
		for _, k := range ch.Reset {
			entries = append(entries, kafka.ConfigEntry{Name: k, IncrementalOperation: kafka.AlterConfigOpTypeDelete})
		}
		res = append(res, kafka.ConfigResource{Type: kafka.ResourceTopic, Name: name, Config: entries})
	}
	if len(res) == 0 {
		return out, nil
	}
	bctx, cancel, _ := c.bound(ctx)
	defer cancel()
	answers, err := c.h().admin.IncrementalAlterConfigs(bctx, res, kafka.SetAdminRequestTimeout(c.timeout))
	if err != nil {
		return nil, c.translate(err, res[0].Name)
	}
	for _, a := range answers {
		out[a.Name] = c.translate(a.Error, a.Name)
	}
	return out, nil
}

// addPartitions raises the partition counts of many topics in one
// CreatePartitions request; each topic raised is patched into the cached
// list and learnt (offsets requests route by the client's own metadata).
func (c *Client) addPartitions(ctx context.Context, totals map[string]int) (map[string]error, error) {
	out := make(map[string]error, len(totals))
	if len(totals) == 0 {
		return out, nil
	}
	names := slices.Sorted(maps.Keys(totals))
	specs := make([]kafka.PartitionsSpecification, len(names))
	for i, name := range names {
		specs[i] = kafka.PartitionsSpecification{Topic: name, IncreaseTo: totals[name]}
	}
	bctx, cancel, _ := c.bound(ctx)
	defer cancel()
	res, err := c.h().admin.CreatePartitions(bctx, specs, kafka.SetAdminRequestTimeout(c.timeout), kafka.SetAdminOperationTimeout(c.timeout))
	if err != nil {
		return nil, c.translate(err, names[0])
	}
	for _, r := range res {
		if out[r.Topic] = c.translate(r.Error, r.Topic); out[r.Topic] == nil {
			c.cache.apply(platform.TopicChange{Name: r.Topic, Partitions: totals[r.Topic]})
			c.learn(r.Topic)
		}
	}
	return out, nil
}
