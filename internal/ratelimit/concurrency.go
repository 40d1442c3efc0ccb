package ratelimit

import (
	"context"
	"runtime"
	"sync"
	"time"
)

// Concurrency bounds costly work at once: per caller, per unit and in
// all (a replica's processors). A caller past a bound waits its turn,
// up to Wait, and is then refused; callers under every bound never wait.
type Concurrency struct {
	lim   Shares
	now   func() time.Time
	total chan struct{}
	mu    sync.Mutex
	// running counts the work under way per caller ("c "+id) and unit
	// ("u "+id); changed is closed, and replaced, when any ends.
	running map[string]int
	changed chan struct{}
	// budgets are each unit's time of the work, by unit.
	budgets map[string]*TimeBudget
}

// Shares are the bounds of a Concurrency.
type Shares struct {
	// PerCaller, PerUnit and Total bound the work at once of one caller,
	// one unit, and all of them: 1, 2 and half the processors (at least
	// 1) by default.
	PerCaller, PerUnit, Total int
	// Wait bounds the wait for a turn; 2s by default.
	Wait time.Duration
	// Busy is how much of the work's time one unit may take a minute;
	// 30s by default (half a processor's).
	Busy time.Duration
}

// NewConcurrency returns a bound of work at once.
func NewConcurrency(s Shares) *Concurrency {
	if s.PerCaller <= 0 {
		s.PerCaller = 1
	}
	if s.PerUnit <= 0 {
		s.PerUnit = 2
	}
	if s.Total <= 0 {
		s.Total = max(1, runtime.GOMAXPROCS(0)/2)
	}
	if s.Wait <= 0 {
		s.Wait = 2 * time.Second
	}
	if s.Busy <= 0 {
		s.Busy = 30 * time.Second
	}
	return &Concurrency{lim: s, now: time.Now, total: make(chan struct{}, s.Total), running: map[string]int{}, changed: make(chan struct{}),
		budgets: map[string]*TimeBudget{}}
}

// Refusal says which bound refused a turn.
type Refusal int

// What refused a turn.
const (
	CallerBusy Refusal = iota + 1
	UnitBusy
	AllBusy
	// UnitSpent: the unit took its Busy time of the work this minute.
	UnitSpent
)

// Enter waits for a turn of caller in unit and returns its end; past
// Wait, or at once when the unit spent its time of the work, it returns
// what refused it (and retry, when to come back). A context that ends
// returns its error.
func (c *Concurrency) Enter(ctx context.Context, caller, unit string) (leave func(), refused Refusal, err error) {
	b := c.budget(unit)
	if w := b.Wait(c.now()); w > 0 {
		return nil, UnitSpent, nil
	}
	deadline := time.NewTimer(c.lim.Wait)
	defer deadline.Stop()
	ck, uk := "c "+caller, "u "+unit
	for {
		c.mu.Lock()
		if c.running[ck] < c.lim.PerCaller && c.running[uk] < c.lim.PerUnit {
			select {
			case c.total <- struct{}{}:
				c.running[ck]++
				c.running[uk]++
				c.mu.Unlock()
				start := c.now()
				return func() {
					c.leave(ck, uk)
					b.Spend(c.now(), c.now().Sub(start))
				}, 0, nil
			default:
			}
		}
		changed := c.changed
		c.mu.Unlock()
		select {
		case <-changed:
		case <-deadline.C:
			return nil, c.why(ck, uk), nil
		case <-ctx.Done():
			return nil, 0, ctx.Err()
		}
	}
}

func (c *Concurrency) budget(unit string) *TimeBudget {
	c.mu.Lock()
	defer c.mu.Unlock()
	b := c.budgets[unit]
	if b == nil {
		b = NewTimeBudget(c.lim.Busy, c.now())
		c.budgets[unit] = b
	}
	return b
}

// RetryAfter is when unit may start work again after a refusal.
func (c *Concurrency) RetryAfter(unit string) time.Duration {
	return max(c.budget(unit).Wait(c.now()), time.Second)
}

func (c *Concurrency) leave(ck, uk string) {
	<-c.total
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, k := range []string{ck, uk} {
		if c.running[k]--; c.running[k] <= 0 {
			delete(c.running, k)
		}
	}
	close(c.changed)
	c.changed = make(chan struct{})
}

func (c *Concurrency) why(ck, uk string) Refusal {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.running[ck] >= c.lim.PerCaller:
		return CallerBusy
	case c.running[uk] >= c.lim.PerUnit:
		return UnitBusy
	}
	return AllBusy
}

// Idle reports whether no work is under way.
func (c *Concurrency) Idle() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.running) == 0 && len(c.total) == 0
}
