package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/store"
	"github.com/edh-platform/rms-portal/internal/store/sqlite"
	"github.com/edh-platform/rms-portal/internal/store/sqlitetest"
)

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func openStore(t *testing.T) *sqlite.Store {
	t.Helper()
	st, _, err := sqlite.Open(context.Background(), sqlitetest.File(t, ""), 5*time.Second, quiet())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// fast is a runner whose lease runs out in a moment, for tests.
func fast(st Store, replica string) *Runner {
	r := New(st, replica, quiet())
	r.beatEvery, r.leaseFor, r.claimEvery = 20*time.Millisecond, 100*time.Millisecond, 20*time.Millisecond
	return r
}

// run starts a runner until the test ends (or stop is called).
func run(t *testing.T, r *Runner) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.Run(ctx)
	}()
	var once sync.Once
	stop = func() { once.Do(func() { cancel(); <-done }) }
	t.Cleanup(stop)
	return stop
}

// items is a handler over n items that journals each as "done-by-REPLICA"
// and reports every item it does on seen; block, when set, holds each
// item until it is closed or the run must stop.
func items(n int, replica string, seen chan<- int, block <-chan struct{}) Handler {
	return func(ctx context.Context, run *Run) (string, string) {
		for i := range n {
			if i < len(run.Job.Results) && run.Job.Results[i] != nil {
				continue // done by an earlier run
			}
			if run.Stopped() {
				return "", ""
			}
			if block != nil {
				select {
				case <-block:
				case <-run.Stopping():
					return "", ""
				}
			}
			raw, _ := json.Marshal("done-by-" + replica)
			if err := run.Save(ctx, i, raw); err != nil {
				return "", ""
			}
			seen <- i
		}
		return "done", ""
	}
}

func waitState(t *testing.T, st Store, id, state string) store.Job {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		j, err := st.Job(context.Background(), id)
		if err == nil && j.State == state {
			return j
		}
		if time.Now().After(deadline) {
			t.Fatalf("job %s: %+v %v, want %s", id, j, err, state)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestStartRunsTheJob: a job is in the store before its handler runs,
// and finished by the replica that ran it.
func TestStartRunsTheJob(t *testing.T) {
	st := openStore(t)
	a := fast(st, "a")
	seen := make(chan int, 3)
	a.Handle("k", func(ctx context.Context, r *Run) (string, string) {
		if j, err := st.Job(ctx, r.Job.ID); err != nil || j.Replica != "a" || j.State != "running" {
			t.Errorf("the job as its handler starts: %+v %v", j, err)
		}
		return items(3, "a", seen, nil)(ctx, r)
	})
	run(t, a)
	if err := a.Start(context.Background(), store.Job{ID: "j1", Kind: "k", Items: []byte("[]"), Principal: []byte("{}")}); err != nil {
		t.Fatal(err)
	}
	j := waitState(t, st, "j1", "done")
	if len(j.Results) != 3 || string(j.Results[2]) != `"done-by-a"` {
		t.Errorf("journal %q", j.Results)
	}
	if err := a.Start(context.Background(), store.Job{ID: "j2", Kind: "unknown"}); err == nil {
		t.Error("a job of a kind without handler was started")
	}
}

// TestDeadReplicasJobIsResumed: a job left running by a replica that
// stopped beating is claimed by another once its lease ran out, and run
// from where the journal says.
func TestDeadReplicasJobIsResumed(t *testing.T) {
	st := openStore(t)
	ctx := context.Background()
	old := time.Now().Add(-time.Minute)
	if err := st.CreateJob(ctx, store.Job{ID: "j1", Kind: "k", State: "running", Replica: "dead", Created: old, Heartbeat: old,
		Items: []byte("[]"), Principal: []byte("{}")}); err != nil {
		t.Fatal(err)
	}
	if err := st.SaveJobResult(ctx, "j1", "dead", 0, []byte(`"done-by-dead"`), old); err != nil {
		t.Fatal(err)
	}
	b := fast(st, "b")
	seen := make(chan int, 3)
	b.Handle("k", items(3, "b", seen, nil))
	run(t, b)
	j := waitState(t, st, "j1", "done")
	if j.Replica != "b" || string(j.Results[0]) != `"done-by-dead"` || string(j.Results[1]) != `"done-by-b"` || string(j.Results[2]) != `"done-by-b"` {
		t.Errorf("resumed job %+v %q", j, j.Results)
	}
	if len(seen) != 2 {
		t.Errorf("%d items done again, want the 2 left", len(seen))
	}
}

// TestStopHandsOver: a replica that stops ends its jobs between two
// items and hands them over at once; another finishes them.
func TestStopHandsOver(t *testing.T) {
	st := openStore(t)
	a := fast(st, "a")
	a.leaseFor = time.Hour // only a hand-over lets b in
	block := make(chan struct{})
	seenA := make(chan int, 5)
	a.Handle("k", items(5, "a", seenA, block))
	stopA := run(t, a)
	if err := a.Start(context.Background(), store.Job{ID: "j1", Kind: "k", Items: []byte("[]"), Principal: []byte("{}")}); err != nil {
		t.Fatal(err)
	}
	block <- struct{}{} // item 0
	<-seenA
	stopA()
	j, _ := st.Job(context.Background(), "j1")
	if j.State != "running" || !j.Heartbeat.IsZero() || len(j.Results) != 1 {
		t.Fatalf("after a stopped: %+v %q", j, j.Results)
	}
	b := fast(st, "b")
	b.leaseFor = time.Hour
	seenB := make(chan int, 5)
	b.Handle("k", items(5, "b", seenB, nil))
	run(t, b)
	j = waitState(t, st, "j1", "done")
	if string(j.Results[0]) != `"done-by-a"` || string(j.Results[4]) != `"done-by-b"` || len(seenB) != 4 {
		t.Errorf("handed-over job %q, b did %d", j.Results, len(seenB))
	}
}

// TestLostLeaseStopsTheHandler: a replica paused past its lease finds the
// job claimed by another: its writes are refused, its handler told to
// stop, and it neither finishes nor hands over the job.
func TestLostLeaseStopsTheHandler(t *testing.T) {
	st := openStore(t)
	ctx := context.Background()
	a := fast(st, "a")
	a.leaseFor = time.Hour
	stopped := make(chan error, 1)
	a.Handle("k", func(ctx context.Context, r *Run) (string, string) {
		<-r.Stopping()
		stopped <- r.Save(ctx, 0, []byte(`"late"`))
		return "", ""
	})
	run(t, a)
	if err := a.Start(ctx, store.Job{ID: "j1", Kind: "k", Items: []byte("[]"), Principal: []byte("{}")}); err != nil {
		t.Fatal(err)
	}
	// b claims the job as if a's lease had run out.
	if ok, err := st.ClaimJob(ctx, "j1", "b", time.Now(), time.Now().Add(time.Hour)); !ok || err != nil {
		t.Fatalf("claim: %v %v", ok, err)
	}
	select {
	case err := <-stopped:
		if !errors.Is(err, store.ErrLeaseLost) {
			t.Errorf("a's write after losing the lease: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a's handler was not told to stop")
	}
	j, _ := st.Job(ctx, "j1")
	if j.Replica != "b" || j.State != "running" || len(j.Results) != 0 || j.Heartbeat.IsZero() {
		t.Errorf("after a lost the lease: %+v %q", j, j.Results)
	}
}
