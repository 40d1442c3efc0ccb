package storetest

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/store"
)

// testRateBuckets: a shared bucket gives its burst, then one token per
// 1/rate, says how long to wait meanwhile, never gives more than it holds
// to takers at once (two replicas), and refills nothing for a clock behind.
func testRateBuckets(t *testing.T, s store.Store) {
	ctx := context.Background()
	name := "test-" + time.Now().Format("150405.000000000")
	t0 := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	const perSecond, burst = 1.0, 5
	var wg sync.WaitGroup
	var taken atomic.Int64
	for range 12 {
		wg.Go(func() {
			wait, err := s.TakeTokens(ctx, name, 1, 0, false, perSecond, burst, t0)
			if err != nil {
				t.Error(err)
			}
			if wait == 0 {
				taken.Add(1)
			}
		})
	}
	wg.Wait()
	if taken.Load() != burst {
		t.Fatalf("12 takers at once took %d tokens of a burst of %d", taken.Load(), burst)
	}
	wait, err := s.TakeTokens(ctx, name, 1, 0, false, perSecond, burst, t0.Add(200*time.Millisecond))
	if err != nil || wait < 700*time.Millisecond || wait > 900*time.Millisecond {
		t.Errorf("an empty bucket 0.2 s later: wait %v, %v (want about 0.8 s)", wait, err)
	}
	if wait, err := s.TakeTokens(ctx, name, 1, 0, false, perSecond, burst, t0.Add(time.Second)); err != nil || wait != 0 {
		t.Errorf("a second later: wait %v, %v", wait, err)
	}
	// A replica whose clock is behind refills nothing.
	if wait, err := s.TakeTokens(ctx, name, 1, 0, false, perSecond, burst, t0.Add(-time.Minute)); err != nil || wait == 0 {
		t.Errorf("a clock a minute behind took a token (wait %v, %v)", wait, err)
	}
	// Three at once are taken together or not at all.
	if wait, err := s.TakeTokens(ctx, name, 3, 0, false, perSecond, burst, t0.Add(3*time.Second)); err != nil || wait < 900*time.Millisecond {
		t.Errorf("three tokens when two are there: wait %v, %v (want about 1 s)", wait, err)
	}
	if wait, err := s.TakeTokens(ctx, name, 3, 0, false, perSecond, burst, t0.Add(4*time.Second)); err != nil || wait != 0 {
		t.Errorf("three tokens when three are there: wait %v, %v", wait, err)
	}
	// Owed tokens are taken from an empty bucket, and waited out after.
	if wait, err := s.TakeTokens(ctx, name, 2, 0, true, perSecond, burst, t0.Add(4*time.Second)); err != nil || wait != 0 {
		t.Errorf("two owed tokens from an empty bucket: wait %v, %v", wait, err)
	}
	if wait, err := s.TakeTokens(ctx, name, 1, 0, false, perSecond, burst, t0.Add(6*time.Second)); err != nil || wait < 900*time.Millisecond {
		t.Errorf("a token two seconds after a debt of two: wait %v, %v (want about 1 s)", wait, err)
	}
	// A take that must leave some waits for them too.
	if wait, err := s.TakeTokens(ctx, name, 1, 3, false, perSecond, burst, t0.Add(9*time.Second)); err != nil || wait < 900*time.Millisecond {
		t.Errorf("a token leaving three when three are there: wait %v, %v (want about 1 s)", wait, err)
	}
	// Ten minutes later the bucket holds its burst, not more.
	n := 0
	for range 20 {
		if wait, _ := s.TakeTokens(ctx, name, 1, 0, false, perSecond, burst, t0.Add(10*time.Minute)); wait == 0 {
			n++
		}
	}
	if n != burst {
		t.Errorf("after ten idle minutes: %d tokens, want %d", n, burst)
	}
}
