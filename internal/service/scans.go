package service

import (
	"context"
	"runtime"
	"sync"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// ScanLimits bound the record reads with filters that run at once: a
// filtered read decodes and judges thousands of records on the portal's
// own processors, and one caller's costly filters must not slow every
// other request of the replica.
type ScanLimits struct {
	// PerCaller, PerUnit and Total bound the scans at once of one
	// person or client, of one business unit, and of the replica (0:
	// half its processors, at least 1).
	PerCaller, PerUnit, Total int
	// Wait bounds how long a scan waits for its turn before it is
	// refused with 429.
	Wait time.Duration
}

// scanGate admits filtered reads within ScanLimits.
type scanGate struct {
	lim   ScanLimits
	total chan struct{}
	mu    sync.Mutex
	// running counts the scans of each caller ("c " + subject) and unit
	// ("u " + id) under way; a changed channel wakes waiters.
	running map[string]int
	changed chan struct{}
}

func newScanGate(lim ScanLimits) *scanGate {
	if lim.PerCaller <= 0 {
		lim.PerCaller = 1
	}
	if lim.PerUnit <= 0 {
		lim.PerUnit = 2
	}
	if lim.Total <= 0 {
		lim.Total = max(1, runtime.GOMAXPROCS(0)/2)
	}
	if lim.Wait <= 0 {
		lim.Wait = 2 * time.Second
	}
	return &scanGate{lim: lim, total: make(chan struct{}, lim.Total), running: map[string]int{}, changed: make(chan struct{})}
}

// enter waits for the caller's turn to scan, within its and its unit's
// share and the replica's, and returns its release; past Wait the caller
// is refused with 429 (a scan of its own is still running, or its unit's
// are, or the replica's).
func (g *scanGate) enter(ctx context.Context, caller, unit string) (func(), error) {
	deadline := time.NewTimer(g.lim.Wait)
	defer deadline.Stop()
	ck, uk := "c "+caller, "u "+unit
	for {
		g.mu.Lock()
		free := g.running[ck] < g.lim.PerCaller && g.running[uk] < g.lim.PerUnit
		if free {
			select {
			case g.total <- struct{}{}:
				g.running[ck]++
				g.running[uk]++
				g.mu.Unlock()
				return func() { g.leave(ck, uk) }, nil
			default:
			}
		}
		changed := g.changed
		g.mu.Unlock()
		select {
		case <-changed:
		case <-deadline.C:
			return nil, g.refusal(ck, uk)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

func (g *scanGate) leave(ck, uk string) {
	<-g.total
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, k := range []string{ck, uk} {
		if g.running[k]--; g.running[k] <= 0 {
			delete(g.running, k)
		}
	}
	close(g.changed)
	g.changed = make(chan struct{})
}

func (g *scanGate) refusal(ck, uk string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	why := "the portal is running as many record scans as it takes at once"
	switch {
	case g.running[ck] >= g.lim.PerCaller:
		why = "a record scan of yours is still running"
	case g.running[uk] >= g.lim.PerUnit:
		why = "your business unit is running as many record scans at once as it may"
	}
	e := portal.New(portal.RateLimited, "%s; a filtered read waits for the one before it: try again in a moment", why)
	e.RetryAfter = time.Second
	return e
}
