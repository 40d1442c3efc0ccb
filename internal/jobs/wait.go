package jobs

import (
	"context"
	"time"

	"github.com/edh-platform/rms-portal/internal/store"
)

// Waiter reads jobs until they end: it wakes on the store's job
// notifications, and polls slowly as well, since notifications can be
// lost while the database reconnects.
type Waiter struct {
	Jobs   store.Jobs
	Notify store.Notifier
}

// Wait reads job id until it is no longer running or wait has passed,
// and returns it as it was last read.
func (w Waiter) Wait(ctx context.Context, id string, wait time.Duration) (store.Job, error) {
	var changes <-chan string
	if wait > 0 && w.Notify != nil {
		wctx, cancel := context.WithCancel(ctx)
		defer cancel()
		var err error
		if changes, err = w.Notify.Subscribe(wctx, store.ChannelJobs); err != nil {
			return store.Job{}, err
		}
	}
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	poll := time.NewTicker(time.Second)
	defer poll.Stop()
	for {
		j, err := w.Jobs.Job(ctx, id)
		if err != nil || j.State != "running" || wait <= 0 {
			return j, err
		}
		select {
		case <-deadline.C:
			return j, nil
		case <-ctx.Done():
			return j, ctx.Err()
		case <-changes:
		case <-poll.C:
		}
	}
}
