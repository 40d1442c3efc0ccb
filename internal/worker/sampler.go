package worker

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/metric"
	"github.com/edh-platform/rms-portal/internal/store"
)

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

// Every is how often a watched topic is sampled.
func (s *Sampler) Every() time.Duration { return s.every }

func seriesOf(env *platform.Environment, topic string) string { return env.Name() + "/" + topic }

// Observe records a sample taken by a viewer, watches the topic for a
// while, and returns its series.
func (s *Sampler) Observe(ctx context.Context, env *platform.Environment, topic string, partitions int, produced int64) ([]metric.Sample, error) {
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
	out := make([]metric.Sample, len(stored))
	for i, x := range stored {
		out[i] = metric.Sample{At: x.At, Produced: x.Value}
	}
	return out, nil
}

// forget stops watching a topic.
func (s *Sampler) forget(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.watched, key)
}

// Watched is how many topics the sampler watches.
func (s *Sampler) Watched() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.watched)
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
			s.SampleOnce(ctx)
		}
	}
}

// SampleOnce samples every watched topic once (Run does it each interval).
func (s *Sampler) SampleOnce(ctx context.Context) {
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
		if portal.Is(err, portal.NotFound) {
			// Deleted since it was viewed: nothing more to watch.
			s.forget(seriesOf(w.env, w.topic))
			continue
		}
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
