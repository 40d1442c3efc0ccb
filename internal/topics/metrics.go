package topics

import (
	"context"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/metric"
)

// ClusterMetrics counts the cluster's topics and partitions, and the
// scope's, from one metadata request, and charts the scope's throughput,
// storage and lag over rng from the Metrics API.
func (s *Service) ClusterMetrics(ctx context.Context, scope portal.Scope, rng string) (metric.ClusterMetrics, error) {
	ctx, call, err := s.guard.Enter(ctx, scope, access.Read, "read metrics")
	if err != nil {
		return metric.ClusterMetrics{}, err
	}
	r, err := metric.ParseRange(rng)
	if err != nil {
		return metric.ClusterMetrics{}, err
	}
	info, err := call.Env.Topics.ClusterInfo(ctx)
	if err != nil {
		return metric.ClusterMetrics{}, err
	}
	all, err := call.Env.Topics.ListTopics(ctx)
	if err != nil {
		return metric.ClusterMetrics{}, err
	}
	m := metric.ClusterMetrics{ClusterID: info.ID, Brokers: info.Brokers, WholeCluster: call.WholeCluster}
	for _, t := range all {
		m.Topics++
		m.Partitions += t.Partitions
		if (call.WholeCluster && !t.Internal) || call.Scope.Owns(t.Name) {
			m.UnitTopics++
			m.UnitPartitions += t.Partitions
		}
	}
	m.Charts = s.charts.charts(ctx, call.Env, r, scopeOf(call))
	return m, nil
}

// TopicMetrics returns a topic's partitions with offsets, the samples
// taken so far (viewing a topic makes the portal sample it for a while),
// and its charts over rng from the Metrics API.
func (s *Service) TopicMetrics(ctx context.Context, scope portal.Scope, name, rng string) (metric.TopicMetrics, error) {
	ctx, call, err := s.guard.Enter(ctx, scope, access.Read, "read metrics")
	if err != nil {
		return metric.TopicMetrics{}, err
	}
	r, err := metric.ParseRange(rng)
	if err != nil {
		return metric.TopicMetrics{}, err
	}
	full, err := s.resolve(ctx, call, name)
	if err != nil {
		return metric.TopicMetrics{}, err
	}
	d, err := call.Env.Topics.DescribeTopic(ctx, full)
	if err != nil {
		return metric.TopicMetrics{}, err
	}
	offsets, err := call.Env.Topics.TopicOffsets(ctx, full, len(d.Partitions))
	if err != nil {
		return metric.TopicMetrics{}, err
	}
	m := metric.TopicMetrics{Topic: s.describeName(call, full, len(d.Partitions)), SampleEvery: s.sampler.Every()}
	for i, p := range d.Partitions {
		pm := metric.PartitionMetrics{ID: p.ID, Leader: p.Leader}
		if i < len(offsets) {
			pm.Earliest, pm.Latest = offsets[i].Earliest, offsets[i].Latest
		}
		m.Partitions = append(m.Partitions, pm)
		m.Messages += pm.Messages()
		m.Produced += pm.Latest
	}
	if m.Samples, err = s.sampler.Observe(ctx, call.Env, full, len(d.Partitions), m.Produced); err != nil {
		return metric.TopicMetrics{}, err
	}
	sc := scopeOf(call)
	sc.topic = full
	m.Charts = s.charts.charts(ctx, call.Env, r, sc)
	return m, nil
}
