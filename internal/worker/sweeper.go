package worker

import (
	"context"
	"log/slog"
	"time"

	"github.com/edh-platform/rms-portal/internal/store"
)

// Sweeper removes what outlived its use from the store: expired sessions,
// audit events past retention, finished jobs and apply journals, old
// samples. (Jobs whose
// replica died are resumed by another: package jobs.) Every replica
// sweeps; the deletes are idempotent, so they need no coordination.
type Sweeper struct {
	store     store.Store
	retention time.Duration
	log       *slog.Logger
	now       func() time.Time
}

// Kept durations of what the sweeper removes.
const (
	jobsKept    = 24 * time.Hour
	samplesKept = 7 * 24 * time.Hour
)

// NewSweeper returns a sweeper keeping audit events for retention.
func NewSweeper(s store.Store, retention time.Duration, log *slog.Logger) *Sweeper {
	return &Sweeper{store: s, retention: retention, log: log, now: time.Now}
}

// Sweep runs one round.
func (s *Sweeper) Sweep(ctx context.Context) {
	now := s.now()
	report := func(what string, n int, err error) {
		switch {
		case err != nil:
			s.log.WarnContext(ctx, "sweeping failed", "what", what, "error", err)
		case n > 0:
			s.log.InfoContext(ctx, "swept", "what", what, "count", n)
		}
	}
	n, err := s.store.DeleteExpiredSessions(ctx, now)
	report("expired sessions", n, err)
	n, err = s.store.DeleteAuditBefore(ctx, now.Add(-s.retention))
	report("audit events past retention", n, err)
	n, err = s.store.DeleteFinishedJobs(ctx, now.Add(-jobsKept))
	report("finished jobs", n, err)
	n, err = s.store.DeleteSamplesBefore(ctx, now.Add(-samplesKept))
	report("old samples", n, err)
	n, err = s.store.DeleteMetricResultsBefore(ctx, now.Add(-samplesKept))
	report("old Metrics API answers", n, err)
	n, err = s.store.DeleteBudgetReservationsBefore(ctx, now.Add(-time.Hour))
	report("lapsed budget reservations", n, err)
	n, err = s.store.ForgetApplies(ctx, now.Add(-jobsKept))
	report("finished apply journals", n, err)
	// Long after what they left unknown was settled.
	n, err = s.store.DeleteReplicasBefore(ctx, now.Add(-samplesKept))
	report("replicas not seen for a week", n, err)
}

// Run sweeps every interval until ctx ends.
func (s *Sweeper) Run(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		s.Sweep(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
