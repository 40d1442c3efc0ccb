package service

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/store"
)

// ClusterMetrics counts the cluster's topics and partitions, and the
// scope's, from one metadata request, and charts the scope's throughput,
// storage and lag over rng from the Metrics API.
func (s *Topics) ClusterMetrics(ctx context.Context, scope portal.Scope, rng string) (portal.ClusterMetrics, error) {
	call, err := s.guard.Enter(ctx, scope, access.Read, "read metrics")
	if err != nil {
		return portal.ClusterMetrics{}, err
	}
	r, err := portal.ParseRange(rng)
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
	m := portal.ClusterMetrics{ClusterID: info.ID, Brokers: info.Brokers, WholeCluster: call.WholeCluster}
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
func (s *Topics) TopicMetrics(ctx context.Context, scope portal.Scope, name, rng string) (portal.TopicMetrics, error) {
	call, err := s.guard.Enter(ctx, scope, access.Read, "read metrics")
	if err != nil {
		return portal.TopicMetrics{}, err
	}
	r, err := portal.ParseRange(rng)
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
	m := portal.TopicMetrics{Topic: s.describeName(call, full, len(d.Partitions)), SampleEvery: s.sampler.every}
	for i, p := range d.Partitions {
		pm := portal.PartitionMetrics{ID: p.ID, Leader: p.Leader}
		if i < len(offsets) {
			pm.Earliest, pm.Latest = offsets[i].Earliest, offsets[i].Latest
		}
		m.Partitions = append(m.Partitions, pm)
		m.Messages += pm.Messages()
		m.Produced += pm.Latest
	}
	if m.Samples, err = s.sampler.observe(ctx, call.Env, full, len(d.Partitions), m.Produced); err != nil {
		return portal.TopicMetrics{}, err
	}
	sc := scopeOf(call)
	sc.topic = full
	m.Charts = s.charts.charts(ctx, call.Env, r, sc)
	return m, nil
}

// Sampler samples the offsets of recently viewed topics, so that topic
// pages can show growth over time without sampling the whole cluster. The
// samples are kept in the store: every replica draws the same chart, and a
// restart keeps the history. Which topics are watched is this replica's
// own business (the ones viewed through it).
type Sampler struct {
	every time.Duration
	watch time.Duration
	keep  int
	store store.Samples
	log   *slog.Logger

	mu      sync.Mutex
	watched map[string]*watchedTopic
}

type watchedTopic struct {
	env        *platform.Environment
	topic      string
	partitions int
	viewed     time.Time
}

// NewSampler samples each watched topic every interval, watches a topic
// for watch after it was last viewed, and shows keep samples per topic.
func NewSampler(every, watch time.Duration, keep int, s store.Samples, log *slog.Logger) *Sampler {
	return &Sampler{every: every, watch: watch, keep: keep, store: s, log: log, watched: map[string]*watchedTopic{}}
}

func seriesOf(env *platform.Environment, topic string) string { return env.Name() + "/" + topic }

// observe records a sample taken by a viewer and returns the series.
func (s *Sampler) observe(ctx context.Context, env *platform.Environment, topic string, partitions int, produced int64) ([]portal.Sample, error) {
	key := seriesOf(env, topic)
	now := time.Now()
	s.mu.Lock()
	s.watched[key] = &watchedTopic{env: env, topic: topic, partitions: partitions, viewed: now}
	s.mu.Unlock()
	if err := s.store.AddSample(ctx, key, now, produced, s.every/2); err != nil {
		return nil, err
	}
	stored, err := s.store.SamplesSince(ctx, key, now.Add(-time.Duration(s.keep)*s.every))
	if err != nil {
		return nil, err
	}
	out := make([]portal.Sample, len(stored))
	for i, x := range stored {
		out[i] = portal.Sample{At: x.At, Produced: x.Value}
	}
	return out, nil
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
	var due []watchedTopic
	for key, w := range s.watched {
		if time.Since(w.viewed) > s.watch {
			delete(s.watched, key)
			continue
		}
		due = append(due, *w)
	}
	s.mu.Unlock()
	for _, w := range due {
		offsets, err := w.env.Topics.TopicOffsets(ctx, w.topic, w.partitions)
		if err != nil {
			s.log.DebugContext(ctx, "sampling a topic failed", "topic", w.topic, "error", err)
			continue
		}
		var produced int64
		for _, o := range offsets {
			produced += o.Latest
		}
		if err := s.store.AddSample(ctx, seriesOf(w.env, w.topic), time.Now(), produced, s.every/2); err != nil {
			s.log.WarnContext(ctx, "storing a topic sample failed", "topic", w.topic, "error", err)
		}
	}
}
