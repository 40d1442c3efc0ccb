package worker

import (
	"context"
	"log/slog"
	"time"

	"github.com/edh-platform/rms-portal/internal/store"
)

// Heartbeat says, every Every, that this replica runs, and as it stops
// (its requests finished) that it stopped: what a replica killed or
// stopped left unknown is then settled by another at once, not after
// recovery.settle_after, and its leases are taken over at once, not
// when they lapse.
type Heartbeat struct {
	Replicas store.Replicas
	ID       string
	Every    time.Duration
	Log      *slog.Logger
}

// Stale is how long a replica goes unseen before it is taken for
// stopped: three of its heartbeats.
func (h *Heartbeat) Stale() time.Duration { return 3 * h.Every }

// Run beats until ctx ends, then says the replica stopped.
func (h *Heartbeat) Run(ctx context.Context) {
	t := time.NewTicker(h.Every)
	defer t.Stop()
	for {
		bctx, cancel := context.WithTimeout(ctx, h.Every)
		now := time.Now()
		if err := h.Replicas.ReplicaAlive(bctx, h.ID, now, now.Add(h.Stale())); err != nil && ctx.Err() == nil {
			h.Log.WarnContext(ctx, "saying this replica runs failed; the others may take it for stopped", "replica", h.ID, "error", err)
		}
		cancel()
		select {
		case <-ctx.Done():
			sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 3*time.Second)
			defer cancel()
			if err := h.Replicas.ReplicaStopped(sctx, h.ID, time.Now()); err != nil {
				h.Log.WarnContext(ctx, "saying this replica stopped failed; the others find out when its heartbeat is stale", "replica", h.ID, "error", err)
			}
			return
		case <-t.C:
		}
	}
}
