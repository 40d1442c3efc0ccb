package upstream_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/upstream"
)

// TestOnlyUnwellErrorsOpenTheCircuit: whatever kind an error has, it
// counts toward the breaker only when its adapter marked it as a sign that
// the upstream is unwell; a hundred of one caller's errors in a row (a
// record too large, a timeout of a costly call, a bug) leave the circuit
// closed and the upstream reported well for everyone.
func TestOnlyUnwellErrorsOpenTheCircuit(t *testing.T) {
	for _, kind := range portal.Kinds {
		r := upstream.NewRegistry(upstream.Options{Failures: 5, OpenFor: time.Hour})
		u := r.Get(upstream.Cluster, "edh-shared/dev")
		for range 100 {
			_ = u.Call(context.Background(), "produce", func(context.Context) error { return portal.New(kind, "the caller's") })
		}
		if h := u.Health(); h.Circuit != "closed" || h.State == "failing" {
			t.Errorf("%s unmarked: %+v", kind, h)
		}
		for range 5 {
			_ = u.Call(context.Background(), "list_topics", func(context.Context) error {
				return upstream.Unwell(portal.New(kind, "the upstream's"))
			})
		}
		if h := u.Health(); h.Circuit != "open" || h.State != "failing" {
			t.Errorf("%s marked unwell: %+v", kind, h)
		}
	}
	if upstream.IsOutage(upstream.Unwell(context.Canceled)) {
		t.Error("a canceled call counts as an outage")
	}
	if upstream.Unwell(nil) != nil {
		t.Error("Unwell(nil) is not nil")
	}
}

// TestSharesKeepUnitsApart: a unit with as many calls in flight as its
// share allows waits for a slot and is then refused with 429 and
// Retry-After, alone: another unit's calls and the portal's own go
// through at once; background work of the full unit waits for its slot.
func TestSharesKeepUnitsApart(t *testing.T) {
	r := upstream.NewRegistry(upstream.Options{Shares: upstream.Shares{Concurrency: 2, Wait: 50 * time.Millisecond, Busy: time.Hour}})
	u := r.Get(upstream.Cluster, "edh-shared/dev")
	scada := upstream.ForTenant(context.Background(), "scada")
	crm := upstream.ForTenant(context.Background(), "crm")

	release := make(chan struct{})
	var inFlight sync.WaitGroup
	started := make(chan struct{}, 2)
	for range 2 {
		inFlight.Go(func() {
			_ = u.Call(scada, "read_messages", func(context.Context) error { started <- struct{}{}; <-release; return nil })
		})
	}
	<-started
	<-started

	err := u.Call(scada, "list_topics", func(context.Context) error { return nil })
	var pe *portal.Error
	if !errors.As(err, &pe) || pe.Kind != portal.RateLimited || pe.RetryAfter < time.Second {
		t.Fatalf("scada past its share: %v", err)
	}
	for _, ctx := range []context.Context{crm, context.Background()} {
		ran := false
		if err := u.Call(ctx, "list_topics", func(context.Context) error { ran = true; return nil }); err != nil || !ran {
			t.Errorf("%q was held up by scada's share: %v", upstream.TenantOf(ctx), err)
		}
	}

	// Background work of scada waits for a slot instead.
	done := make(chan error, 1)
	go func() {
		done <- u.Call(upstream.Patient(scada), "create_topics", func(context.Context) error { return nil })
	}()
	select {
	case err := <-done:
		t.Fatalf("a patient call did not wait for a slot: %v", err)
	case <-time.After(200 * time.Millisecond): // longer than Wait: it would have been refused by now
	}
	close(release)
	inFlight.Wait()
	if err := <-done; err != nil {
		t.Errorf("the patient call after the slots freed: %v", err)
	}
	if h := u.Health(); h.Circuit != "closed" || h.State == "failing" {
		t.Errorf("refusals of a unit's share touched the upstream's health: %+v", h)
	}
}

// TestSharesBudgetTheUpstreamsTime: a unit whose calls took more of the
// upstream's time than its budget of a minute is refused until the budget
// refills, saying when; others are not.
func TestSharesBudgetTheUpstreamsTime(t *testing.T) {
	c := &clock{now: time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)}
	r := upstream.NewRegistry(upstream.Options{Now: c.Now, Shares: upstream.Shares{Concurrency: 4, Busy: 30 * time.Second}})
	u := r.Get(upstream.SchemaRegistry, "edh-shared/dev")
	scada := upstream.ForTenant(context.Background(), "scada")
	// One call of 50 s: over the 30 s budget of a minute (20 s of which
	// were earned back while it ran, up to the budget).
	if err := u.Call(scada, "register", func(context.Context) error { c.Add(50 * time.Second); return nil }); err != nil {
		t.Fatal(err)
	}
	err := u.Call(scada, "get_schema", func(context.Context) error { return nil })
	var pe *portal.Error
	if !errors.As(err, &pe) || pe.Kind != portal.RateLimited || pe.RetryAfter != 41*time.Second {
		t.Fatalf("past the budget: %v (retry after %v)", err, pe.RetryAfter)
	}
	if err := u.Call(upstream.ForTenant(context.Background(), "crm"), "get_schema", func(context.Context) error { return nil }); err != nil {
		t.Errorf("crm: %v", err)
	}
	c.Add(pe.RetryAfter)
	if err := u.Call(scada, "get_schema", func(context.Context) error { return nil }); err != nil {
		t.Errorf("after Retry-After: %v", err)
	}
}
