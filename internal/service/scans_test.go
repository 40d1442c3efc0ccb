package service

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// TestScansWithinTheirShares: a caller runs one filtered read at once, a
// unit two, the replica Total; past them a scan waits its turn, then is
// refused with 429 saying why, while another unit's scan starts at once.
func TestScansWithinTheirShares(t *testing.T) {
	g := newScanGate(ScanLimits{PerCaller: 1, PerUnit: 2, Total: 3, Wait: 30 * time.Millisecond})
	ctx := context.Background()
	refused := func(caller, unit, why string) {
		t.Helper()
		_, err := g.enter(ctx, caller, unit)
		var pe *portal.Error
		if !errors.As(err, &pe) || pe.Kind != portal.RateLimited || pe.RetryAfter < time.Second || !strings.Contains(pe.Message, why) {
			t.Fatalf("%s of %s: %v, want a 429 saying %q", caller, unit, err, why)
		}
	}
	carol, err := g.enter(ctx, "carol", "scada")
	if err != nil {
		t.Fatal(err)
	}
	refused("carol", "scada", "a record scan of yours is still running")
	dan, err := g.enter(ctx, "dan", "scada")
	if err != nil {
		t.Fatal(err)
	}
	refused("erik", "scada", "your business unit is running as many record scans")
	crm, err := g.enter(ctx, "fay", "crm")
	if err != nil {
		t.Fatalf("another unit's scan waited for scada's: %v", err)
	}
	refused("gus", "sales", "the portal is running as many record scans")

	// A scan waiting for its turn starts when one ends.
	started := make(chan error, 1)
	g.lim.Wait = time.Minute
	go func() {
		leave, err := g.enter(ctx, "carol", "scada")
		if err == nil {
			leave()
		}
		started <- err
	}()
	carol()
	if err := <-started; err != nil {
		t.Errorf("carol's next scan after her first: %v", err)
	}
	dan()
	crm()
	if len(g.running) != 0 || len(g.total) != 0 {
		t.Errorf("left behind: %v, %d slots", g.running, len(g.total))
	}
}
