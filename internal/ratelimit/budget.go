package ratelimit

import (
	"sync"
	"time"
)

// TimeBudget is a budget of time that refills at Per a minute, up to
// Per: work runs while the budget is above zero and is charged what it
// took once it ends, so that one key (a unit) takes at most Per of a
// resource's time a minute, in bursts of at most Per.
type TimeBudget struct {
	per    time.Duration
	mu     sync.Mutex
	left   time.Duration
	filled time.Time
}

// NewTimeBudget returns a full budget of per a minute.
func NewTimeBudget(per time.Duration, now time.Time) *TimeBudget {
	return &TimeBudget{per: per, left: per, filled: now}
}

// refill adds what was earned since the last refill; b.mu is held.
func (b *TimeBudget) refill(now time.Time) {
	earned := time.Duration(float64(now.Sub(b.filled)) * float64(b.per) / float64(time.Minute))
	b.left, b.filled = min(b.left+earned, b.per), now
}

// Wait is how long until the budget is above zero again (0: it is).
func (b *TimeBudget) Wait(now time.Time) time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.refill(now)
	if b.left > 0 {
		return 0
	}
	return time.Duration(float64(-b.left)*float64(time.Minute)/float64(b.per)) + time.Millisecond
}

// Spend charges work that took took.
func (b *TimeBudget) Spend(now time.Time, took time.Duration) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.refill(now)
	b.left -= took
}
