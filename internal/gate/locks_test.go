package gate

import (
	"context"
	"log/slog"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/store/sqlite"
)

// TestLockSerialisesAcrossGuards: two guards (two replicas) on one store
// never hold one key at once, and a waiter past the wait is refused with
// CONFLICT and Retry-After, not left hanging.
func TestLockSerialisesAcrossGuards(t *testing.T) {
	st, _, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "locks.db"), 5*time.Second, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	a := New(Options{Locks: st, Holder: "a"})
	b := New(Options{Locks: st, Holder: "b"})
	var inside, most atomic.Int32
	var wg sync.WaitGroup
	for i := range 16 {
		g := a
		if i%2 == 1 {
			g = b
		}
		wg.Go(func() {
			unlock, err := g.Lock(context.Background(), "topic edh-shared/dev t")
			if err != nil {
				t.Error(err)
				return
			}
			n := inside.Add(1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
			time.Sleep(5 * time.Millisecond) // the change being made
			inside.Add(-1)
			unlock()
		})
	}
	wg.Wait()
	if most.Load() != 1 {
		t.Errorf("%d holders at once", most.Load())
	}

	unlock, err := a.Lock(context.Background(), "busy")
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err = b.Lock(ctx, "busy")
	if !portal.Is(err, portal.Conflict) || portal.Problems(err)[0].RetryAfter == 0 {
		t.Errorf("waiting past the wait: %v", err)
	}
}
