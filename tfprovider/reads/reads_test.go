package reads

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestReadsAskOncePerUnit: concurrent reads of a unit's list ask the
// portal once; a write forgets the unit's reads; a read goes stale.
func TestReadsAskOncePerUnit(t *testing.T) {
	var asked atomic.Int32
	release, started := make(chan struct{}), make(chan struct{}, 10)
	r := New(nil)
	now := time.Now()
	r.now = func() time.Time { return now }
	ask := func(context.Context) (any, error) {
		asked.Add(1)
		started <- struct{}{}
		<-release
		return "list", nil
	}
	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() {
			if v, err := r.Get(context.Background(), "scada", "dev", "topics", ask); err != nil || v != "list" {
				t.Errorf("read: %v %v", v, err)
			}
		})
	}
	<-started // one read asks; the others wait for its answer
	close(release)
	wg.Wait()
	if n := asked.Load(); n != 1 {
		t.Fatalf("ten reads asked %d times", n)
	}
	quick := func(context.Context) (any, error) { asked.Add(1); return "list", nil }
	_, _ = r.Get(context.Background(), "crm", "dev", "topics", quick)
	r.Forget("scada", "dev")
	_, _ = r.Get(context.Background(), "scada", "dev", "topics", quick)
	_, _ = r.Get(context.Background(), "crm", "dev", "topics", quick)
	if n := asked.Load(); n != 3 {
		t.Errorf("after a write to scada: %d asks, want 3 (scada again, crm kept)", n)
	}
	now = now.Add(Fresh + time.Second)
	_, _ = r.Get(context.Background(), "crm", "dev", "topics", quick)
	if n := asked.Load(); n != 4 {
		t.Errorf("a stale read was answered from the memo: %d asks", n)
	}
}
