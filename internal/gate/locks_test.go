package gate

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/store/sqlite"
	"github.com/edh-platform/rms-portal/internal/store/sqlitetest"
)

// TestLockSerialisesAcrossGuards: two guards (two replicas) on one store
// never hold one key at once, and a waiter past the wait is refused with
// CONFLICT and Retry-After, not left hanging.
func TestLockSerialisesAcrossGuards(t *testing.T) {
	st, _, err := sqlite.Open(context.Background(), sqlitetest.File(t, ""), 5*time.Second, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	a := New(Options{Locks: st, Holder: "a"})
	b := New(Options{Locks: st, Holder: "b"})
	most := holdersAtOnce(t, 16, func(i int) (func(), error) {
		g := a
		if i%2 == 1 {
			g = b
		}
		return g.Lock(context.Background(), "topic edh-shared/dev t")
	})
	if most != 1 {
		t.Errorf("%d holders at once", most)
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

// TestLockAllTakesManyAtOnce: many keys are taken together (all or none)
// and are then held against single locks and other batches, on this
// replica and another; overlapping batches given in any order never wait
// for each other for good, and never hold a key twice.
func TestLockAllTakesManyAtOnce(t *testing.T) {
	st, _, err := sqlite.Open(context.Background(), sqlitetest.File(t, ""), 5*time.Second, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	a := New(Options{Locks: st, Holder: "a"})
	b := New(Options{Locks: st, Holder: "b"})
	var keys []string
	for i := range 50 {
		keys = append(keys, fmt.Sprintf("topic edh-shared/dev t%02d", i))
	}
	unlock, err := a.LockAll(context.Background(), append(keys, keys[3]), "50 topics")
	if err != nil {
		t.Fatal(err)
	}
	short := func() context.Context {
		ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
		t.Cleanup(cancel)
		return ctx
	}
	if _, err := b.Lock(short(), keys[25]); !portal.Is(err, portal.Conflict) {
		t.Errorf("another replica took a key of a batch: %v", err)
	}
	if _, err := a.Lock(short(), keys[10]); !portal.Is(err, portal.Conflict) {
		t.Errorf("this replica took a key of its own batch twice: %v", err)
	}
	if _, err := b.LockAll(short(), []string{"topic edh-shared/dev free", keys[49]}, "2 topics"); !portal.Is(err, portal.Conflict) || !strings.Contains(err.Error(), "2 topics") {
		t.Errorf("a batch overlapping another was taken: %v", err)
	}
	// The refused batch took nothing: its free key is free.
	if u, err := b.Lock(short(), "topic edh-shared/dev free"); err != nil {
		t.Errorf("a key of a refused batch stayed taken: %v", err)
	} else {
		u()
	}
	unlock()
	if u, err := b.Lock(short(), keys[25]); err != nil {
		t.Errorf("a key of a released batch: %v", err)
	} else {
		u()
	}

	most := holdersAtOnce(t, 12, func(i int) (func(), error) {
		g := a
		if i%2 == 1 {
			g = b
		}
		batch := []string{keys[i%5], "topic edh-shared/dev shared", keys[(i+2)%5]}
		if i%3 == 0 {
			slices.Reverse(batch)
		}
		return g.LockAll(context.Background(), batch, "3 topics")
	})
	if most != 1 {
		t.Errorf("%d batches sharing a key held it at once", most)
	}
}

// holdersAtOnce runs n takers of a lock side by side, each holding what
// it took for a moment, and returns how many held it at once at most.
func holdersAtOnce(t *testing.T, n int, take func(i int) (func(), error)) int32 {
	var inside, most atomic.Int32
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			unlock, err := take(i)
			if err != nil {
				t.Error(err)
				return
			}
			n := inside.Add(1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
			time.Sleep(2 * time.Millisecond) // the change being made
			inside.Add(-1)
			unlock()
		})
	}
	wg.Wait()
	return most.Load()
}
