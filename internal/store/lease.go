package store

import (
	"context"
	"time"
)

// HoldLease takes the lease name for holder and keeps renewing it while
// the work it guards runs: the context it returns ends when the work
// must stop (the lease could not be renewed in time, so another holder
// may take it), or when release is called. ok is false when another
// holder has the lease; the work must not start.
func HoldLease(ctx context.Context, l Leases, name, holder string, ttl time.Duration, now func() time.Time) (held context.Context, release func(), ok bool, err error) {
	if ok, err = l.AcquireLease(ctx, name, holder, now().Add(ttl), now()); err != nil || !ok {
		return ctx, func() {}, false, err
	}
	held, cancel := context.WithCancel(ctx)
	stopped := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(ttl / 3)
		defer t.Stop()
		lastRenewed := now()
		for {
			select {
			case <-stopped:
				return
			case <-held.Done():
				return
			case <-t.C:
			}
			rctx, rcancel := context.WithTimeout(context.WithoutCancel(ctx), ttl/3)
			ok, err := l.AcquireLease(rctx, name, holder, now().Add(ttl), now())
			rcancel()
			switch {
			case err == nil && ok:
				lastRenewed = now()
			case err == nil || now().Sub(lastRenewed) > ttl*2/3:
				// Lost, or about to run out: stop before another holder
				// may start.
				cancel()
				return
			}
		}
	}()
	return held, func() {
		close(stopped)
		<-done
		cancel()
	}, true, nil
}
