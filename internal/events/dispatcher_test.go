package events_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/events"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/servicetest"
	"github.com/edh-platform/rms-portal/internal/store"
)

// TestDispatcherWaitsForAttemptsAndGivesUpAfterADay: an attempt still
// under way holds back the later events of its subject until it settles,
// never those of another subject; a receiver that never answers is
// retried with backoff until a day after the event (the subject's later
// events behind it), then the delivery is given up; another replica
// without the lease does nothing.
func TestDispatcherWaitsForAttemptsAndGivesUpAfterADay(t *testing.T) {
	w := servicetest.New(t)
	ctx := context.Background()
	var status atomic.Int32
	status.Store(http.StatusServiceUnavailable)
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, _ *http.Request) {
		hits.Add(1)
		rw.WriteHeader(int(status.Load()))
	}))
	defer srv.Close()
	now := time.Now()
	clock := func() time.Time { return now }
	if err := w.Store.CreateWebhookRecord(ctx, store.WebhookRecord{ID: "wh", Zone: "edh-shared", URL: srv.URL, Secret: "whsec_c2VjcmV0", Created: now}); err != nil {
		t.Fatal(err)
	}
	d := events.NewDispatcher(events.DispatcherOptions{Store: w.Store, Holder: "a", Log: servicetest.Discard(), Now: clock,
		Backoff: func(int) time.Duration { return time.Minute }})
	other := events.NewDispatcher(events.DispatcherOptions{Store: w.Store, Holder: "b", Log: servicetest.Discard(), Now: clock})
	attempt, err := w.Store.AppendAudit(ctx, trail.AuditEvent{Time: now, LandingZone: "edh-shared", BU: "scada", Action: portal.ActTopicCreate, Resource: "t", Outcome: "unknown"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Store.AppendAudit(ctx, trail.AuditEvent{Time: now, LandingZone: "edh-shared", BU: "scada", Action: portal.ActTopicDelete, Resource: "t", Outcome: "ok"}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Store.AppendAudit(ctx, trail.AuditEvent{Time: now, LandingZone: "edh-shared", BU: "scada", Action: portal.ActTopicCreate, Resource: "other", Outcome: "ok"}); err != nil {
		t.Fatal(err)
	}
	if err := d.Round(ctx); err != nil {
		t.Fatal(err)
	}
	if hits.Load() != 1 {
		t.Fatalf("%d attempts, want 1: another subject's event, never t's behind its attempt under way", hits.Load())
	}
	_ = other.Round(ctx)
	if hits.Load() != 1 {
		t.Fatal("a replica without the lease delivered")
	}
	status.Store(http.StatusNoContent)
	_ = d.Round(ctx)
	if hits.Load() != 1 {
		t.Fatal("a retry before its backoff, or t's event before its attempt")
	}
	now = now.Add(time.Minute)
	_ = d.Round(ctx) // the other subject's retry, delivered
	status.Store(http.StatusServiceUnavailable)
	if err := w.Store.SettleAudit(ctx, attempt, "ok", "", "t", nil); err != nil {
		t.Fatal(err)
	}
	before := hits.Load()
	_ = d.Round(ctx)
	if hits.Load() != before+1 {
		t.Fatalf("%d attempts, want 1 (t's second event waits behind its first)", hits.Load()-before)
	}
	_ = d.Round(ctx)
	if hits.Load() != before+1 {
		t.Fatal("a retry before its backoff")
	}
	now = now.Add(25 * time.Hour)
	_ = d.Round(ctx)
	ds, _ := w.Store.Deliveries(ctx, "wh", 10)
	if len(ds) != 3 || ds[2].State != store.DeliveryFailed || ds[2].LastStatus != http.StatusServiceUnavailable {
		t.Fatalf("after a day: %+v", ds)
	}
	status.Store(http.StatusNoContent)
	now = now.Add(time.Hour)
	_ = d.Round(ctx)
	// The next in line goes out once the first is given up: a receiver
	// that answers gets it, however old.
	if ds, _ := w.Store.Deliveries(ctx, "wh", 10); ds[1].Subject != "t" || ds[1].State != store.DeliveryDelivered || ds[1].Attempts != 1 {
		t.Errorf("t's second event: %+v", ds[1])
	}
}
