package upstream

import (
	"testing"
	"time"
)

// TestWaitsCountCallsAtOnceOnce: calls under way at the same time count
// once (the time during which any was), a call still under way counts up
// to now, and no Waits at all counts nothing.
func TestWaitsCountCallsAtOnceOnce(t *testing.T) {
	at := func(s int) time.Time { return time.Unix(1_800_000_000, 0).Add(time.Duration(s) * time.Second) }
	w := &Waits{}
	w.begin(at(0))
	w.begin(at(1))
	w.end(at(2))
	w.end(at(3))
	if total, calls := w.Total(at(4)); total != 3*time.Second || calls != 2 {
		t.Fatalf("two calls over 0-3s: %v in %d calls, want 3s in 2", total, calls)
	}
	w.begin(at(5))
	if total, _ := w.Total(at(7)); total != 5*time.Second {
		t.Fatalf("a call under way since 5s, at 7s: %v, want 5s", total)
	}
	w.end(at(8))
	if total, calls := w.Total(at(9)); total != 6*time.Second || calls != 3 {
		t.Fatalf("after the third call: %v in %d calls, want 6s in 3", total, calls)
	}
	var none *Waits
	none.begin(at(0))
	none.end(at(1))
	if total, calls := none.Total(at(2)); total != 0 || calls != 0 {
		t.Fatalf("no waits: %v in %d calls", total, calls)
	}
}
