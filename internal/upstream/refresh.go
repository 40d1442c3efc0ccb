package upstream

import (
	"context"
	"sync"
	"time"
)

// ReportEvery is how often the health report probes the upstreams at
// most.
const ReportEvery = 5 * time.Second

// Refresher runs a probe of the upstreams for the health report at most
// once per interval, however many ask for the report and however often:
// an outage polled by monitors, load balancers or anyone on the internet
// costs one probe per upstream per interval. Between probes the report
// is what the circuits already know from the calls they guard.
type Refresher struct {
	every time.Duration
	probe func(ctx context.Context)
	now   func() time.Time

	mu      sync.Mutex
	last    time.Time
	running bool
}

// NewRefresher returns a refresher that runs probe at most once per
// interval.
func NewRefresher(every time.Duration, probe func(ctx context.Context)) *Refresher {
	return &Refresher{every: every, probe: probe, now: time.Now}
}

// Refresh runs the probe when the last one started at least an interval
// ago and none is running, and reports whether it did; otherwise it
// returns at once.
func (r *Refresher) Refresh(ctx context.Context) bool {
	r.mu.Lock()
	if r.running || (!r.last.IsZero() && r.now().Sub(r.last) < r.every) {
		r.mu.Unlock()
		return false
	}
	r.running, r.last = true, r.now()
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		r.running = false
		r.mu.Unlock()
	}()
	r.probe(ctx)
	return true
}
