package gate

import (
	"context"
	"time"

	"golang.org/x/time/rate"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/ratelimit"
)

// Rate is a token bucket: a sustained rate and a burst.
type Rate = ratelimit.Rate

// Limits are the rate limits the services enforce. A zero Rate is no
// limit.
type Limits struct {
	// Caller bounds the operations of one user or client, whatever unit.
	Caller Rate
	// Unit bounds the operations in one business unit, whoever calls.
	Unit Rate
	// CloudWritesPerUnit and CloudWrites pace the writes sent to the
	// Confluent Cloud API, per unit and for the whole organisation, so
	// that one tenant's script cannot spend everyone's API quota.
	CloudWritesPerUnit Rate
	CloudWrites        Rate
}

// limiter applies Limits.
type limiter struct {
	caller, unit, cloudUnit *ratelimit.Keyed
	cloud                   *rate.Limiter
}

func newLimiter(l Limits) *limiter {
	out := &limiter{caller: ratelimit.NewKeyed(l.Caller), unit: ratelimit.NewKeyed(l.Unit), cloudUnit: ratelimit.NewKeyed(l.CloudWritesPerUnit)}
	if l.CloudWrites.PerSecond > 0 {
		out.cloud = rate.NewLimiter(rate.Limit(l.CloudWrites.PerSecond), max(l.CloudWrites.Burst, 1))
	}
	return out
}

// allow takes one operation from the caller's and the unit's buckets, or
// says how long to wait.
func (l *limiter) allow(caller, unit string) error {
	now := time.Now()
	for _, c := range []struct {
		k    *ratelimit.Keyed
		key  string
		what string
	}{{l.caller, caller, "you are sending requests faster than the portal allows"},
		{l.unit, unit, "business unit " + unit + " is receiving requests faster than the portal allows"}} {
		if c.key == "" {
			continue
		}
		if d := c.k.Take(c.key, now); d > 0 {
			e := portal.New(portal.RateLimited, "%s; slow down and try again in %d s", c.what, ratelimit.Seconds(d))
			e.RetryAfter = d
			return e
		}
	}
	return nil
}

// pace waits for the unit's and the organisation's Cloud write buckets;
// when the wait would outlast ctx, it refuses with RateLimited.
func (l *limiter) pace(ctx context.Context, unit string) error {
	wait := func(lim *rate.Limiter) error {
		if err := lim.Wait(ctx); err != nil {
			e := portal.Wrap(err, portal.RateLimited, "the Confluent Cloud API is paced to share its quota between units; too many writes are waiting, try again shortly")
			e.RetryAfter = 5 * time.Second
			return e
		}
		return nil
	}
	if l.cloudUnit != nil {
		if err := wait(l.cloudUnit.Get(unit, time.Now())); err != nil {
			return err
		}
	}
	if l.cloud != nil {
		return wait(l.cloud)
	}
	return nil
}
