package httpserver

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// hold keeps the requests of a caller who was just refused for going
// past a share (429 with Retry-After) until that time has passed, then
// lets them in as any other. A well-behaved client waits the Retry-After
// itself and never notices; a script that ignores it and sends again at
// once would otherwise have every refusal (a token verified, a route, a
// log line, an audited refusal) cost the replica's processors as much as
// a page, and take from the other units what its shares keep from it.
// A held request costs a parked goroutine and its connection: at most
// maxHeld of them at once (past that, requests are not held), and none
// longer than maxHold.
type hold struct {
	maxHold time.Duration
	maxHeld int64
	held    atomic.Int64

	mu    sync.Mutex
	until map[string]time.Time
}

func newHold(maxHold time.Duration, maxHeld int64) *hold {
	return &hold{maxHold: maxHold, maxHeld: maxHeld, until: map[string]time.Time{}}
}

// wait holds a request of caller while the caller's last refusal says to
// wait, or until ctx ends.
func (h *hold) wait(ctx context.Context, caller string) {
	if caller == "" {
		return
	}
	h.mu.Lock()
	d := time.Until(h.until[caller])
	h.mu.Unlock()
	if d <= 0 {
		return
	}
	if h.held.Add(1) > h.maxHeld {
		h.held.Add(-1)
		return
	}
	defer h.held.Add(-1)
	t := time.NewTimer(min(d, h.maxHold))
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

// refused notes err, when it refuses caller for going past a share, so
// that the caller's next requests wait its Retry-After.
func (h *hold) refused(caller string, err error) {
	var e *portal.Error
	if caller == "" || !errors.As(err, &e) || e.Kind != portal.RateLimited {
		return
	}
	d := min(max(e.RetryAfter, time.Second), h.maxHold)
	now := time.Now()
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.until) >= 4096 {
		// Old entries are dropped on the way: the map holds the callers
		// refused within the last maxHold.
		for k, t := range h.until {
			if !t.After(now) {
				delete(h.until, k)
			}
		}
	}
	if t := now.Add(d); t.After(h.until[caller]) {
		h.until[caller] = t
	}
}
