package service

import (
	"context"
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// Rate is a token bucket: a sustained rate and a burst.
type Rate struct {
	PerSecond float64
	Burst     int
}

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

// keyed holds one bucket per key, forgetting keys idle for long.
type keyed struct {
	r     Rate
	mu    sync.Mutex
	keys  map[string]*bucket
	swept time.Time
}

type bucket struct {
	lim  *rate.Limiter
	used time.Time
}

func newKeyed(r Rate) *keyed { return &keyed{r: r, keys: map[string]*bucket{}} }

func (k *keyed) get(key string, now time.Time) *rate.Limiter {
	k.mu.Lock()
	defer k.mu.Unlock()
	if now.Sub(k.swept) > time.Minute {
		for key, b := range k.keys {
			if now.Sub(b.used) > 10*time.Minute {
				delete(k.keys, key)
			}
		}
		k.swept = now
	}
	b, ok := k.keys[key]
	if !ok {
		b = &bucket{lim: rate.NewLimiter(rate.Limit(k.r.PerSecond), max(k.r.Burst, 1))}
		k.keys[key] = b
	}
	b.used = now
	return b.lim
}

// limiter applies Limits.
type limiter struct {
	caller, unit, cloudUnit *keyed
	cloud                   *rate.Limiter
}

func newLimiter(l Limits) *limiter {
	out := &limiter{}
	if l.Caller.PerSecond > 0 {
		out.caller = newKeyed(l.Caller)
	}
	if l.Unit.PerSecond > 0 {
		out.unit = newKeyed(l.Unit)
	}
	if l.CloudWritesPerUnit.PerSecond > 0 {
		out.cloudUnit = newKeyed(l.CloudWritesPerUnit)
	}
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
		k    *keyed
		key  string
		what string
	}{{l.caller, caller, "you are sending requests faster than the portal allows"},
		{l.unit, unit, "business unit " + unit + " is receiving requests faster than the portal allows"}} {
		if c.k == nil || c.key == "" {
			continue
		}
		r := c.k.get(c.key, now).ReserveN(now, 1)
		if d := r.DelayFrom(now); d > 0 {
			r.CancelAt(now)
			e := portal.New(portal.RateLimited, "%s; slow down and try again in %d s", c.what, int(math.Ceil(d.Seconds())))
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
		if err := wait(l.cloudUnit.get(unit, time.Now())); err != nil {
			return err
		}
	}
	if l.cloud != nil {
		return wait(l.cloud)
	}
	return nil
}
