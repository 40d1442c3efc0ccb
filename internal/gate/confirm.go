package gate

import (
	"context"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
)

const (
	// confirmWindow bounds one check made after a write that timed out.
	confirmWindow = 3 * time.Second
	// pendingWindow bounds the checks of a write answered as pending.
	pendingWindow = time.Minute
)

// Bound limits a write's upstream call to four fifths of its budget (the
// upstream timeout), so that a check after a timeout still fits in it.
func (w *Write) Bound(ctx context.Context) (context.Context, context.CancelFunc) {
	if w.budget <= 0 {
		return context.WithCancel(ctx)
	}
	return context.WithDeadline(ctx, w.started.Add(w.budget*4/5))
}

// Confirm runs after a write that timed out, which may still happen: check
// reports whether the intended change is in place. A change confirmed
// within the write's budget is a success (nil); otherwise the caller gets
// a 504 saying that the outcome is not known yet and how to find out
// (how), the audit trail records it as unknown, and Done keeps checking
// in the background, settling the event once the change is confirmed.
// Any other error is returned as it is.
func (w *Write) Confirm(ctx context.Context, err error, what, how string, check func(ctx context.Context) (bool, error)) error {
	if !portal.Is(err, portal.UpstreamTimeout) {
		return err
	}
	window := confirmWindow
	if w.budget > 0 {
		window = min(window, time.Until(w.started.Add(w.budget)))
	}
	if window > 50*time.Millisecond {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), window)
		done, cerr := check(cctx)
		cancel()
		if cerr == nil && done {
			return nil
		}
	}
	w.later = check
	e := portal.Wrap(err, portal.UpstreamTimeout,
		"the upstream did not answer in time, so whether %s is not known yet: it may still happen (the audit trail says once the portal knows); %s", what, how)
	e.RetryAfter = 5 * time.Second
	return e
}
