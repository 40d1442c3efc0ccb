package worker

import (
	"context"
	"time"
)

// LagSampling samples the positions of the consumer groups shown lately
// (the groups service's SampleLag), so that their lag in time is known
// when they are shown again.
type LagSampling interface {
	SampleLag(ctx context.Context)
}

// LagSampler runs LagSampling at an interval until stopped.
type LagSampler struct {
	s     LagSampling
	every time.Duration
}

// NewLagSampler samples every interval.
func NewLagSampler(s LagSampling, every time.Duration) *LagSampler {
	return &LagSampler{s: s, every: every}
}

// Run samples until ctx ends.
func (l *LagSampler) Run(ctx context.Context) {
	t := time.NewTicker(l.every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			l.s.SampleLag(ctx)
		}
	}
}
