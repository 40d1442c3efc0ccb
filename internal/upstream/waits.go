package upstream

import (
	"context"
	"sync"
	"time"
)

// Waits is how long one request waited on its upstream calls: the time
// during which at least one of them was under way, so that calls made at
// once count once. It tells a request's own time (what the portal spent)
// from the upstreams' (what Confluent Cloud, the registry or a cluster
// took to answer), in the request's log line and its Server-Timing
// header: when a unit's pages slow down, whether the portal or an
// upstream slowed them.
type Waits struct {
	mu       sync.Mutex
	inFlight int
	since    time.Time
	total    time.Duration
	calls    int
}

type waitsKey struct{}

// WithWaits returns a context whose upstream calls (Call) are added to
// the returned Waits.
func WithWaits(ctx context.Context) (context.Context, *Waits) {
	w := &Waits{}
	return context.WithValue(ctx, waitsKey{}, w), w
}

// WaitsFrom is the Waits of ctx's request, or nil (whose Total is 0).
func WaitsFrom(ctx context.Context) *Waits { return waitsOf(ctx) }

func waitsOf(ctx context.Context) *Waits {
	w, _ := ctx.Value(waitsKey{}).(*Waits)
	return w
}

// begin marks a call under way from now.
func (w *Waits) begin(now time.Time) {
	if w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.inFlight == 0 {
		w.since = now
	}
	w.inFlight++
	w.calls++
}

// end marks a call ended at now.
func (w *Waits) end(now time.Time) {
	if w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.inFlight--
	if w.inFlight == 0 {
		w.total += now.Sub(w.since)
	}
}

// Total is the time waited so far (a call still under way counts up to
// now) and how many calls were made.
func (w *Waits) Total(now time.Time) (time.Duration, int) {
	if w == nil {
		return 0, 0
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	total := w.total
	if w.inFlight > 0 {
		total += now.Sub(w.since)
	}
	return total, w.calls
}
