// Package metric is the contract of metrics and the charts made of them.
package metric

import (
	"context"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/topic"
)

// ClusterMetrics summarises the cluster of a scope.
type ClusterMetrics struct {
	ClusterID string
	Brokers   int
	// Topics and Partitions count the whole cluster.
	Topics     int
	Partitions int
	// UnitTopics and UnitPartitions count what the scope sees.
	UnitTopics     int
	UnitPartitions int
	WholeCluster   bool
	// Charts are the throughput, storage and lag of the scope's topics
	// from the Confluent Cloud Metrics API.
	Charts Charts
}

// PartitionMetrics are one partition's placement and offsets.
type PartitionMetrics struct {
	ID       int
	Leader   int
	Earliest int64
	Latest   int64
}

// Messages is the number of records the partition retains.
func (p PartitionMetrics) Messages() int64 { return p.Latest - p.Earliest }

// Sample is one observation of a topic over time.
type Sample struct {
	At time.Time
	// Produced is the sum of the partitions' latest offsets: every record
	// ever written, so its growth is the topic's write rate.
	Produced int64
}

// TopicMetrics describes a topic's partitions, offsets and growth.
type TopicMetrics struct {
	Topic      topic.Topic
	Partitions []PartitionMetrics
	// Messages is the number of records retained.
	Messages int64
	Produced int64
	Samples  []Sample
	// SampleEvery is how often the portal samples a watched topic.
	SampleEvery time.Duration
	// Charts are the topic's throughput, storage and lag per group from
	// the Confluent Cloud Metrics API.
	Charts Charts
}

// MetricsService reads cluster and topic metrics; every role may.
// A chart the Metrics API cannot give says why in Chart.Unavailable; a
// rate limit shows the last values with their age (Charts.Stale).
type MetricsService interface {
	// ClusterMetrics errors: InvalidParameter (range).
	ClusterMetrics(ctx context.Context, scope portal.Scope, rng string) (ClusterMetrics, error)
	// TopicMetrics errors: NotFound, InvalidParameter.
	TopicMetrics(ctx context.Context, scope portal.Scope, name, rng string) (TopicMetrics, error)
}
