package records

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/ratelimit"
)

// TestScansWithinTheirShares: a caller runs one filtered read at once, a
// unit two, the replica Total; past them a scan waits its turn, then is
// refused with 429 saying why, while another unit's scan starts at once.
func TestScansWithinTheirShares(t *testing.T) {
	g := &scanGate{c: ratelimit.NewConcurrency(ratelimit.Shares{PerCaller: 1, PerUnit: 2, Total: 3, Wait: 30 * time.Millisecond})}
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
	refused("carol", "scada", "a record read of yours is still running")
	dan, err := g.enter(ctx, "dan", "scada")
	if err != nil {
		t.Fatal(err)
	}
	refused("erik", "scada", "your business unit is running as many record reads")
	crm, err := g.enter(ctx, "fay", "crm")
	if err != nil {
		t.Fatalf("another unit's scan waited for scada's: %v", err)
	}
	refused("gus", "sales", "the portal is running as many record reads")

	// A scan waiting for its turn starts when one ends.
	patient := &scanGate{c: ratelimit.NewConcurrency(ratelimit.Shares{PerCaller: 1, Wait: time.Hour})}
	first, err := patient.enter(ctx, "carol", "scada")
	if err != nil {
		t.Fatal(err)
	}
	started := make(chan error, 1)
	go func() {
		leave, err := patient.enter(ctx, "carol", "scada")
		if err == nil {
			leave()
		}
		started <- err
	}()
	first()
	if err := <-started; err != nil {
		t.Errorf("carol's next scan after her first: %v", err)
	}
	carol()
	dan()
	crm()
	if !g.c.Idle() || !patient.c.Idle() {
		t.Error("scans left behind")
	}
}
