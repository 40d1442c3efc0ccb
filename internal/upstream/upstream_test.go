package upstream_test

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/upstream"
)

// clock is a settable time.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// TestCircuit: five outages in a row open the circuit; while open, calls
// fail at once with 503 and Retry-After without reaching the upstream;
// after the open period one probe goes through and, when it succeeds, the
// circuit closes. Errors of the caller's (not found) never open it.
func TestCircuit(t *testing.T) {
	c := &clock{now: time.Now()}
	// The breaker keeps real time for its open period; the clock drives
	// what the portal reports (Retry-After).
	r := upstream.NewRegistry(upstream.Options{Failures: 5, OpenFor: 300 * time.Millisecond, Now: c.Now})
	u := r.Get(upstream.Cluster, "edh-shared/dev")
	var calls atomic.Int32
	down := func(context.Context) error {
		calls.Add(1)
		return upstream.Unwell(portal.New(portal.UpstreamUnavailable, "cluster edh-shared/dev is unreachable"))
	}
	notFound := func(context.Context) error { calls.Add(1); return portal.New(portal.NotFound, "topic x not found") }
	for range 20 {
		if err := u.Call(context.Background(), "describe_topic", notFound); !portal.Is(err, portal.NotFound) {
			t.Fatalf("not found: %v", err)
		}
	}
	for range 5 {
		_ = u.Call(context.Background(), "list_topics", down)
	}
	if h := u.Health(); h.Circuit != "open" || h.State != "failing" || h.LastError != "cluster edh-shared/dev is unreachable" {
		t.Fatalf("after 5 outages: %+v", h)
	}
	before := calls.Load()
	err := u.Call(context.Background(), "list_topics", down)
	var pe *portal.Error
	if !errors.As(err, &pe) || pe.Kind != portal.UpstreamUnavailable || pe.RetryAfter != time.Second || calls.Load() != before {
		t.Fatalf("open circuit: %v (retry after %v), upstream called %d times", err, pe.RetryAfter, calls.Load()-before)
	}
	// Once the open period has passed, the circuit lets one probe through.
	deadline := time.Now().Add(5 * time.Second)
	for u.Health().Circuit != "half-open" {
		if time.Now().After(deadline) {
			t.Fatal("the circuit did not half-open")
		}
		runtime.Gosched()
	}
	// Half open: one probe at a time; it succeeds and closes the circuit.
	release := make(chan struct{})
	probing := make(chan struct{})
	var probe sync.WaitGroup
	probe.Go(func() {
		_ = u.Call(context.Background(), "list_topics", func(context.Context) error {
			close(probing)
			<-release
			return nil
		})
	})
	<-probing
	if err := u.Call(context.Background(), "list_topics", down); !portal.Is(err, portal.UpstreamUnavailable) || calls.Load() != before {
		t.Errorf("a second call during the probe: %v", err)
	}
	close(release)
	probe.Wait()
	if h := u.Health(); h.Circuit != "closed" || h.State != "ok" {
		t.Errorf("after the probe: %+v", h)
	}
	if report := r.Report(); len(report) != 1 || report[0].Name != "edh-shared/dev" {
		t.Errorf("report %+v", report)
	}
}
