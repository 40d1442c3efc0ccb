package auth

import (
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/ratelimit"
)

// Throttle bounds what callers who are not (yet) authenticated may cost,
// per source address: each failed authentication and each sign-in start
// takes from the source's bucket, and a source whose bucket is empty is
// refused (429 with Retry-After) before its token is even looked at.
// Authenticated callers are limited by the services instead.
type Throttle struct {
	buckets *ratelimit.Keyed
	now     func() time.Time
}

// NewThrottle returns a throttle of rate r per source (no limit when r is
// zero).
func NewThrottle(r ratelimit.Rate) *Throttle {
	return &Throttle{buckets: ratelimit.NewKeyed(r), now: time.Now}
}

func (t *Throttle) refusal(d time.Duration) error {
	e := portal.New(portal.RateLimited, "too many unauthenticated requests from your address; try again in %d s", ratelimit.Seconds(d))
	e.RetryAfter = d
	return e
}

// Check refuses a source that has spent its bucket; it takes nothing.
func (t *Throttle) Check(source string) error {
	if t == nil {
		return nil
	}
	if d := t.buckets.Wait(source, t.now()); d > 0 {
		return t.refusal(d)
	}
	return nil
}

// Take spends one request of a source (a failed authentication, a sign-in
// start), and refuses it when none is left.
func (t *Throttle) Take(source string) error {
	if t == nil {
		return nil
	}
	if d := t.buckets.Take(source, t.now()); d > 0 {
		return t.refusal(d)
	}
	return nil
}
