package service

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// unavailableFromKafka are metrics the Kafka protocol does not report;
// they would come from the Confluent Cloud Metrics API.
var unavailableFromKafka = []string{"bytes in and out per second", "consumer lag", "storage size"}

// ClusterMetrics counts the cluster's topics and partitions, and the
// scope's, from one metadata request.
func (s *Topics) ClusterMetrics(ctx context.Context, bu, stage string) (portal.ClusterMetrics, error) {
	call, err := s.guard.Enter(ctx, bu, stage, access.Read, "read metrics")
	if err != nil {
		return portal.ClusterMetrics{}, err
	}
	info, err := call.Env.Topics.ClusterInfo(ctx)
	if err != nil {
		return portal.ClusterMetrics{}, err
	}
	all, err := call.Env.Topics.ListTopics(ctx)
	if err != nil {
		return portal.ClusterMetrics{}, err
	}
	m := portal.ClusterMetrics{ClusterID: info.ID, Brokers: info.Brokers, WholeCluster: call.WholeCluster, Unavailable: unavailableFromKafka}
	for _, t := range all {
		m.Topics++
		m.Partitions += t.Partitions
		if (call.WholeCluster && !t.Internal) || call.Scope.Owns(t.Name) {
			m.UnitTopics++
			m.UnitPartitions += t.Partitions
		}
	}
	return m, nil
}

// TopicMetrics returns a topic's partitions with offsets, and the samples
// taken so far; viewing a topic makes the portal sample it for a while.
func (s *Topics) TopicMetrics(ctx context.Context, bu, stage, name string) (portal.TopicMetrics, error) {
	call, err := s.guard.Enter(ctx, bu, stage, access.Read, "read metrics")
	if err != nil {
		return portal.TopicMetrics{}, err
	}
	full, err := s.resolve(ctx, call, name)
	if err != nil {
		return portal.TopicMetrics{}, err
	}
	d, err := call.Env.Topics.DescribeTopic(ctx, full)
	if err != nil {
		return portal.TopicMetrics{}, err
	}
	offsets, err := call.Env.Topics.TopicOffsets(ctx, full, len(d.Partitions))
	if err != nil {
		return portal.TopicMetrics{}, err
	}
	m := portal.TopicMetrics{Topic: s.describeName(call, full, len(d.Partitions)), Unavailable: unavailableFromKafka, SampleEvery: s.sampler.every}
	for i, p := range d.Partitions {
		pm := portal.PartitionMetrics{ID: p.ID, Leader: p.Leader}
		if i < len(offsets) {
			pm.Earliest, pm.Latest = offsets[i].Earliest, offsets[i].Latest
		}
		m.Partitions = append(m.Partitions, pm)
		m.Messages += pm.Messages()
		m.Produced += pm.Latest
	}
	m.Samples = s.sampler.observe(call.Env, full, len(d.Partitions), m.Produced)
	return m, nil
}

// Sampler samples the offsets of recently viewed topics, so that topic
// pages can show growth over time without sampling the whole cluster.
type Sampler struct {
	every time.Duration
	watch time.Duration
	keep  int
	log   *slog.Logger

	mu     sync.Mutex
	series map[string]*series
}

type series struct {
	env        *platform.Environment
	topic      string
	partitions int
	viewed     time.Time
	samples    []portal.Sample
}

// NewSampler samples each watched topic every interval, watches a topic
// for watch after it was last viewed, and keeps keep samples per topic.
func NewSampler(every, watch time.Duration, keep int, log *slog.Logger) *Sampler {
	return &Sampler{every: every, watch: watch, keep: keep, log: log, series: map[string]*series{}}
}

// observe records a sample taken by a viewer and returns the series.
func (s *Sampler) observe(env *platform.Environment, topic string, partitions int, produced int64) []portal.Sample {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := env.Name() + "/" + topic
	sr, ok := s.series[key]
	if !ok {
		sr = &series{env: env, topic: topic}
		s.series[key] = sr
	}
	sr.partitions, sr.viewed = partitions, time.Now()
	sr.add(portal.Sample{At: time.Now(), Produced: produced}, s.keep, s.every/2)
	return append([]portal.Sample(nil), sr.samples...)
}

func (sr *series) add(smp portal.Sample, keep int, minGap time.Duration) {
	if n := len(sr.samples); n > 0 && smp.At.Sub(sr.samples[n-1].At) < minGap {
		sr.samples[n-1] = smp
		return
	}
	sr.samples = append(sr.samples, smp)
	if len(sr.samples) > keep {
		sr.samples = sr.samples[len(sr.samples)-keep:]
	}
}

// Run samples watched topics until ctx ends.
func (s *Sampler) Run(ctx context.Context) {
	t := time.NewTicker(s.every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			s.sampleWatched(ctx)
		}
	}
}

func (s *Sampler) sampleWatched(ctx context.Context) {
	s.mu.Lock()
	var due []*series
	for key, sr := range s.series {
		if time.Since(sr.viewed) > s.watch {
			delete(s.series, key)
			continue
		}
		due = append(due, sr)
	}
	s.mu.Unlock()
	for _, sr := range due {
		offsets, err := sr.env.Topics.TopicOffsets(ctx, sr.topic, sr.partitions)
		if err != nil {
			s.log.DebugContext(ctx, "sampling a topic failed", "topic", sr.topic, "error", err)
			continue
		}
		var produced int64
		for _, o := range offsets {
			produced += o.Latest
		}
		s.mu.Lock()
		sr.add(portal.Sample{At: time.Now(), Produced: produced}, s.keep, s.every/2)
		s.mu.Unlock()
	}
}
