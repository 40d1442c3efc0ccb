package upstream

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestRefresherProbesOncePerInterval(t *testing.T) {
	var probes atomic.Int64
	release := make(chan struct{})
	r := NewRefresher(5*time.Second, func(context.Context) {
		probes.Add(1)
		<-release
	})
	now := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	r.now = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }

	// One caller probes; 200 others asking meanwhile return at once.
	first := make(chan bool)
	go func() { first <- r.Refresh(context.Background()) }()
	for probes.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	for range 200 {
		if r.Refresh(context.Background()) {
			t.Fatal("a second probe ran while one was running")
		}
	}
	close(release)
	if !<-first {
		t.Fatal("the first caller did not probe")
	}
	advance(4 * time.Second)
	if r.Refresh(context.Background()) {
		t.Error("probed again within the interval")
	}
	advance(time.Second)
	if !r.Refresh(context.Background()) {
		t.Error("did not probe after the interval")
	}
	if n := probes.Load(); n != 2 {
		t.Errorf("%d probes, want 2", n)
	}
}
