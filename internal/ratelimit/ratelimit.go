// Package ratelimit holds token buckets per key (a caller, a unit, a
// source address), forgetting keys that stay idle, for the limits the
// services and the authentication apply.
package ratelimit

import (
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Rate is a token bucket: a sustained rate and a burst. A zero rate is no
// limit.
type Rate struct {
	PerSecond float64
	Burst     int
}

// Keyed holds one bucket per key; keys idle for ten minutes are forgotten.
type Keyed struct {
	r     Rate
	mu    sync.Mutex
	keys  map[string]*bucket
	swept time.Time
}

type bucket struct {
	lim  *rate.Limiter
	used time.Time
}

// NewKeyed returns buckets of rate r, or nil when r is no limit (a nil
// Keyed allows everything).
func NewKeyed(r Rate) *Keyed {
	if r.PerSecond <= 0 {
		return nil
	}
	return &Keyed{r: r, keys: map[string]*bucket{}}
}

// Get returns key's bucket.
func (k *Keyed) Get(key string, now time.Time) *rate.Limiter {
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

// Take takes one token from key's bucket, or says how long until one is
// there (the token is not taken then).
func (k *Keyed) Take(key string, now time.Time) time.Duration {
	if k == nil {
		return 0
	}
	r := k.Get(key, now).ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return d
	}
	return 0
}

// Wait is how long until key's bucket has a token, taking nothing.
func (k *Keyed) Wait(key string, now time.Time) time.Duration {
	if k == nil {
		return 0
	}
	lim := k.Get(key, now)
	if lim.TokensAt(now) >= 1 {
		return 0
	}
	return time.Duration(math.Ceil((1-lim.TokensAt(now))/float64(lim.Limit())*1e9)) * time.Nanosecond
}

// Seconds rounds a wait up to whole seconds, for Retry-After.
func Seconds(d time.Duration) int { return int(math.Ceil(d.Seconds())) }
