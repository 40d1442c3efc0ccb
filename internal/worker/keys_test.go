package worker

import (
	"context"
	"io"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/store/sqlite"
	"github.com/edh-platform/rms-portal/internal/store/sqlitetest"
)

type countingExpiry struct{ adopted, expired atomic.Int64 }

func (c *countingExpiry) Adopt(context.Context) (int, error)  { c.adopted.Add(1); return 0, nil }
func (c *countingExpiry) Expire(context.Context) (int, error) { c.expired.Add(1); return 0, nil }

// TestKeySweeperRunsOnOneReplica: of two replicas' sweepers on one store,
// one sweeps while its lease runs; when it stops renewing, the other
// takes over.
func TestKeySweeperRunsOnOneReplica(t *testing.T) {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	st, _, err := sqlite.Open(context.Background(), sqlitetest.File(t, ""), 5*time.Second, quiet)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := time.Now()
	clock := func() time.Time { return now }
	ea, eb := &countingExpiry{}, &countingExpiry{}
	a, b := NewKeySweeper(ea, st, "a", quiet), NewKeySweeper(eb, st, "b", quiet)
	a.now, b.now = clock, clock
	ctx := context.Background()
	if !a.Sweep(ctx, true) || b.Sweep(ctx, true) {
		t.Fatal("both or neither swept")
	}
	now = now.Add(a.Every)
	if !a.Sweep(ctx, false) || b.Sweep(ctx, false) {
		t.Fatal("the holder lost its renewed lease")
	}
	// a dies: past its lease, b sweeps.
	now = now.Add(4 * a.Every)
	if !b.Sweep(ctx, false) {
		t.Fatal("b did not take over a lapsed lease")
	}
	if ea.expired.Load() != 2 || ea.adopted.Load() != 1 || eb.expired.Load() != 1 {
		t.Errorf("a expired %d adopted %d, b expired %d", ea.expired.Load(), ea.adopted.Load(), eb.expired.Load())
	}
}
