package worker

import (
	"context"
	"log/slog"
	"time"

	"github.com/edh-platform/rms-portal/internal/store"
)

// Leased runs a round of work on one replica at a time, every interval:
// the round holds a lease in the store, renewed while it works, and stops
// when the lease cannot be renewed (store.HoldLease), so that a slow
// round is never done by two replicas at once.
type Leased struct {
	Name   string
	Leases store.Leases
	Holder string
	Every  time.Duration
	Log    *slog.Logger
	// Round does the work; its context ends when the lease is lost.
	Round func(ctx context.Context) (int, error)
	now   func() time.Time
}

// Once runs one round if this replica holds (or takes) the lease.
func (l *Leased) Once(ctx context.Context) {
	now := l.now
	if now == nil {
		now = time.Now
	}
	held, release, ok, err := store.HoldLease(ctx, l.Leases, l.Name, l.Holder, max(3*l.Every, 15*time.Second), now)
	if err != nil {
		l.Log.WarnContext(ctx, "taking a lease failed", "lease", l.Name, "error", err)
	}
	if !ok {
		return
	}
	defer release()
	n, err := l.Round(held)
	switch {
	case err != nil && held.Err() == nil:
		l.Log.WarnContext(ctx, "a round failed", "lease", l.Name, "error", err)
	case n > 0:
		l.Log.InfoContext(ctx, "a round settled work", "lease", l.Name, "count", n)
	}
}

// Run runs a round every Every until ctx ends.
func (l *Leased) Run(ctx context.Context) {
	t := time.NewTicker(l.Every)
	defer t.Stop()
	for {
		l.Once(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
