package kafkaadmin

import (
	"context"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/upstream"
)

// The exported methods run every request through the cluster's upstream
// (circuit breaker, health, metrics); the unexported ones do the work.

// costly are the operations whose time follows what the caller asked for
// (records up to a mebibyte, a scan, a batch of topics or groups): when
// one of them runs out of time, that is the caller's, not a sign that the
// cluster is unwell. A cheap call that runs out of time is such a sign.
var costly = map[string]bool{"produce": true, "read_messages": true, "create_topics": true, "describe_topics": true,
	"describe_configs": true, "alter_topic_configs": true, "add_partitions": true, "describe_groups": true,
	"group_offsets": true, "list_offsets": true}

// call runs fn through the upstream, when there is one, and only when
// the cluster may be reached (reach): a cluster that is down costs one
// probe per interval, however many requests want it.
func (c *Client) call(ctx context.Context, op string, fn func(ctx context.Context) error) error {
	release, err := c.acquire(ctx)
	if err != nil {
		return err
	}
	defer release()
	reached := func(ctx context.Context) error {
		if err := c.reach.check(ctx, c.name); err != nil {
			return upstream.Unwell(err)
		}
		err := fn(ctx)
		if costly[op] && portal.Is(err, portal.UpstreamTimeout) {
			// The caller's: a call whose time follows what it asked for.
			err = upstream.Answered(err)
		}
		switch {
		case upstream.IsOutage(err):
			c.reach.failed()
		case err == nil || !portal.Is(err, portal.UpstreamTimeout):
			c.reach.ok()
		}
		return err
	}
	if c.up == nil {
		return reached(ctx)
	}
	return c.up.Call(ctx, op, reached)
}

// DescribeTopic returns a topic's partitions and every setting.
func (c *Client) DescribeTopic(ctx context.Context, name string) (d platform.TopicDetail, err error) {
	err = c.call(ctx, "describe_topic", func(ctx context.Context) error {
		d, err = c.describeTopic(ctx, name)
		return err
	})
	return d, err
}

// CreateTopic creates a topic with the cluster's default replication.
func (c *Client) CreateTopic(ctx context.Context, spec platform.TopicSpec) error {
	return c.call(ctx, "create_topic", func(ctx context.Context) error { return c.createTopic(ctx, spec) })
}

// CreateTopics creates many topics in one request.
func (c *Client) CreateTopics(ctx context.Context, specs []platform.TopicSpec) (out []error, err error) {
	err = c.call(ctx, "create_topics", func(ctx context.Context) error {
		out, err = c.createTopics(ctx, specs)
		return err
	})
	return out, err
}

// AlterTopicConfig sets and resets settings in one incremental request.
func (c *Client) AlterTopicConfig(ctx context.Context, name string, change platform.ConfigChange) error {
	return c.call(ctx, "alter_topic_config", func(ctx context.Context) error { return c.alterTopicConfig(ctx, name, change) })
}

// CreatePartitions raises a topic's partition count to total.
func (c *Client) CreatePartitions(ctx context.Context, name string, total int) error {
	return c.call(ctx, "create_partitions", func(ctx context.Context) error { return c.createPartitions(ctx, name, total) })
}

// DeleteTopic deletes a topic and its data.
func (c *Client) DeleteTopic(ctx context.Context, name string) error {
	return c.call(ctx, "delete_topic", func(ctx context.Context) error { return c.deleteTopic(ctx, name) })
}

// TopicOffsets returns the earliest and latest offsets of every partition.
func (c *Client) TopicOffsets(ctx context.Context, name string, partitions int) (out []platform.PartitionOffsets, err error) {
	err = c.call(ctx, "topic_offsets", func(ctx context.Context) error {
		out, err = c.topicOffsets(ctx, name, partitions)
		return err
	})
	return out, err
}

// ClusterInfo returns the cluster id and broker count.
func (c *Client) ClusterInfo(ctx context.Context) (info platform.ClusterInfo, err error) {
	err = c.call(ctx, "cluster_info", func(ctx context.Context) error {
		info, err = c.clusterInfo(ctx)
		return err
	})
	return info, err
}

// TopicConfigs returns the settings of many topics from one
// DescribeConfigs request.
func (c *Client) TopicConfigs(ctx context.Context, names []string) (out map[string][]platform.ConfigEntry, err error) {
	err = c.call(ctx, "describe_configs", func(ctx context.Context) error {
		out, err = c.topicConfigs(ctx, names)
		return err
	})
	return out, err
}

// DescribeTopics describes many topics with one DescribeTopics and one
// DescribeConfigs request.
func (c *Client) DescribeTopics(ctx context.Context, names []string) (out map[string]platform.TopicDetail, err error) {
	err = c.call(ctx, "describe_topics", func(ctx context.Context) error {
		out, err = c.describeTopics(ctx, names)
		return err
	})
	return out, err
}

// AlterTopicConfigs changes the settings of many topics in one
// IncrementalAlterConfigs request.
func (c *Client) AlterTopicConfigs(ctx context.Context, changes map[string]platform.ConfigChange) (out map[string]error, err error) {
	err = c.call(ctx, "alter_topic_configs", func(ctx context.Context) error {
		out, err = c.alterTopicConfigs(ctx, changes)
		return err
	})
	return out, err
}

// AddPartitions raises the partition counts of many topics in one
// CreatePartitions request.
func (c *Client) AddPartitions(ctx context.Context, totals map[string]int) (out map[string]error, err error) {
	err = c.call(ctx, "add_partitions", func(ctx context.Context) error {
		out, err = c.addPartitions(ctx, totals)
		return err
	})
	return out, err
}
