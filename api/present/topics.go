package present

import (
	"github.com/edh-platform/rms-portal/internal/portal/topic"
	"github.com/edh-platform/rms-portal/internal/wire"
)

// Topic is a topic as a list shows it.
func Topic(t topic.Topic) wire.Topic {
	out := wire.Topic{Name: t.Name, Identifier: t.Identifier, BusinessUnit: t.BU,
		PartitionsCount: t.Partitions, OutsideConvention: t.OutsideConvention}
	if t.Stats != nil {
		out.Records, out.RetentionMs, out.CleanupPolicy = &t.Stats.Records, t.Stats.RetentionMs, t.Stats.CleanupPolicy
	}
	return out
}

// TopicDetail is a topic with its settings and partitions.
func TopicDetail(d topic.TopicDetail) wire.TopicDetail {
	out := wire.TopicDetail{Topic: Topic(d.Topic), ReplicationFactor: d.ReplicationFactor,
		Config: d.Config, Defaults: d.Defaults, Partitions: []wire.TopicPartition{}}
	if out.Config == nil {
		out.Config = map[string]string{}
	}
	for _, p := range d.PartitionList {
		out.Partitions = append(out.Partitions, wire.TopicPartition{Partition: p.ID, Leader: p.Leader, Replicas: p.Replicas, ISR: p.ISR})
	}
	return out
}
