package ratelimit

import (
	"context"
	"testing"
	"time"
)

// TestUnitsTimeOfCostlyWork: a unit that took its time of the work this
// minute is refused at once until the budget refills; another unit is
// not; the budget refills at its rate.
func TestUnitsTimeOfCostlyWork(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	c := NewConcurrency(Shares{PerCaller: 1, Total: 2, Busy: 30 * time.Second})
	c.now = func() time.Time { return now }
	ctx := context.Background()
	leave, refused, err := c.Enter(ctx, "carol", "scada")
	if err != nil || refused != 0 {
		t.Fatal(refused, err)
	}
	now = now.Add(40 * time.Second) // the work took 40 s of the 30 s a minute
	leave()
	if _, refused, _ := c.Enter(ctx, "carol", "scada"); refused != UnitSpent {
		t.Fatalf("past the unit's time: %v", refused)
	}
	// 30 s budget, 20 s earned back while it ran: 10 s behind, 20 s to earn.
	if d := c.RetryAfter("scada"); d < 20*time.Second || d > 21*time.Second {
		t.Errorf("retry after %v", d)
	}
	if leave, refused, _ := c.Enter(ctx, "fay", "crm"); refused != 0 {
		t.Errorf("crm: %v", refused)
	} else {
		leave()
	}
	now = now.Add(21 * time.Second)
	if leave, refused, _ := c.Enter(ctx, "carol", "scada"); refused != 0 {
		t.Errorf("after the retry: %v", refused)
	} else {
		leave()
	}
	if !c.Idle() {
		t.Error("work left behind")
	}
}
