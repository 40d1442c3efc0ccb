package gate

import (
	"context"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// confirmWindow bounds the check made after a write that timed out.
const confirmWindow = 3 * time.Second

// Confirm runs after a write that timed out, which may still happen: check
// reports whether the intended change is in place. A confirmed change is a
// success (nil); otherwise the caller gets a 504 that says the outcome is
// unknown and how to find out (how), and the audit trail records it as
// unknown. Any other error is returned as it is.
func Confirm(ctx context.Context, err error, what, how string, check func(ctx context.Context) (bool, error)) error {
	if !portal.Is(err, portal.UpstreamTimeout) {
		return err
	}
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), confirmWindow)
	defer cancel()
	if done, cerr := check(cctx); cerr == nil && done {
		return nil
	}
	e := portal.Wrap(err, portal.UpstreamTimeout,
		"the upstream did not answer in time, so whether %s is unknown: it may still happen; %s", what, how)
	e.RetryAfter = 5 * time.Second
	return e
}
