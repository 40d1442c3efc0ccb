package audit

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/requestid"
	"github.com/edh-platform/rms-portal/internal/store"
)

// memStore keeps events in memory and refuses writes while down: a test
// double of the store for the recorder's own rules.
type memStore struct {
	mu     sync.Mutex
	down   bool
	events map[int64]trail.AuditEvent
	next   int64
}

func newMem() *memStore { return &memStore{events: map[int64]trail.AuditEvent{}} }

func (m *memStore) AppendAudit(_ context.Context, e trail.AuditEvent) (int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.down {
		return 0, errors.New("database down")
	}
	m.next++
	e.ID = m.next
	m.events[m.next] = e
	return m.next, nil
}

func (m *memStore) SettleAudit(_ context.Context, id int64, outcome, detail, resource string, changes []trail.Change) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.down {
		return errors.New("database down")
	}
	e := m.events[id]
	e.Outcome, e.Detail, e.Resource, e.Changes = outcome, detail, resource, changes
	m.events[id] = e
	return nil
}

func (m *memStore) UnsettledAttempt(_ context.Context, requestID string, action portal.Action, resource string) (int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.down {
		return 0, errors.New("database down")
	}
	for id := int64(1); id <= m.next; id++ {
		if e := m.events[id]; e.RequestID == requestID && e.Action == action && e.Resource == resource && e.Outcome == Unknown {
			return id, nil
		}
	}
	return 0, store.ErrNotFound
}

func (m *memStore) setDown(down bool) {
	m.mu.Lock()
	m.down = down
	m.mu.Unlock()
}

func (m *memStore) event(id int64) trail.AuditEvent {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.events[id]
}

func (m *memStore) count() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.events)
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// TestWriteAhead: an attempt is stored as unknown before the write and
// settled after; an attempt the store refuses is a 503 that says nothing
// changed; an outcome it refuses leaves the attempt unknown until Flush
// writes it; failures are counted by phase and make Health fail.
func TestWriteAhead(t *testing.T) {
	m := newMem()
	r := New(m, quiet())
	failures := map[string]int{}
	r.OnFailure(func(phase string) { failures[phase]++ })
	ctx := context.Background()

	att, err := r.Begin(ctx, trail.AuditEvent{Action: portal.ActTopicCreate, Resource: "t", Outcome: OK})
	if err != nil {
		t.Fatal(err)
	}
	if got := m.event(att.ID()); got.Outcome != Unknown {
		t.Errorf("attempt stored as %q, want unknown", got.Outcome)
	}
	att.Settle(ctx, OK, "", "t (id)", []trail.Change{{Field: "x", After: "1"}})
	if got := m.event(att.ID()); got.Outcome != OK || got.Resource != "t (id)" || len(got.Changes) != 1 {
		t.Errorf("settled as %+v", got)
	}

	m.setDown(true)
	if _, err := r.Begin(ctx, trail.AuditEvent{Action: portal.ActTopicCreate}); !portal.Is(err, portal.UpstreamUnavailable) ||
		!strings.Contains(err.Error(), "nothing was changed") {
		t.Errorf("attempt while down: %v", err)
	}
	if r.Health() == nil {
		t.Error("healthy while the trail cannot be written")
	}
	m.setDown(false)
	att, err = r.Begin(ctx, trail.AuditEvent{Action: portal.ActTopicDelete, Resource: "u"})
	if err != nil {
		t.Fatal(err)
	}
	m.setDown(true)
	att.Settle(ctx, "UPSTREAM_UNAVAILABLE", "the cluster is down", "u", nil)
	if got := m.event(att.ID()); got.Outcome != Unknown || r.Unsettled() != 1 {
		t.Errorf("an outcome the store refused: event %+v, %d unsettled", got, r.Unsettled())
	}
	r.Flush(ctx) // still down: kept
	m.setDown(false)
	r.Flush(ctx)
	if got := m.event(att.ID()); got.Outcome != "UPSTREAM_UNAVAILABLE" || got.Detail != "the cluster is down" || r.Unsettled() != 0 {
		t.Errorf("after the store came back: event %+v, %d unsettled", got, r.Unsettled())
	}
	if r.Health() != nil {
		t.Errorf("still unhealthy after a write succeeded: %v", r.Health())
	}
	if failures[PhaseAttempt] != 1 || failures[PhaseOutcome] != 2 {
		t.Errorf("failures counted %v", failures)
	}
}

// TestResume: a write begun by one process (a bulk item whose replica
// died) is found by its request and settled by another, once; a write
// never begun is begun; the trail unreadable refuses.
func TestResume(t *testing.T) {
	m := newMem()
	ctx := requestid.With(context.Background(), "req-bulk")
	dead, other := New(m, quiet()), New(m, quiet())
	e := trail.AuditEvent{Action: portal.ActServiceAccountCreate, Resource: "sa-a"}
	att, err := dead.Begin(ctx, e)
	if err != nil {
		t.Fatal(err)
	}
	again, err := other.Resume(ctx, e, 0)
	if err != nil || again.ID() != att.ID() {
		t.Fatalf("resumed %v %v, want the attempt %d", again, err, att.ID())
	}
	again.Settle(ctx, OK, "", "sa-a (sa-1)", nil)
	if got := m.event(att.ID()); got.Outcome != OK || m.next != 1 {
		t.Errorf("after the resume: %+v, %d events", got, m.next)
	}
	// By id, when the journal kept it: settling an outcome the trail has
	// changes nothing in the store.
	byID, err := other.Resume(ctx, e, att.ID())
	if err != nil || byID.ID() != att.ID() {
		t.Fatalf("by id: %v %v", byID, err)
	}
	// Another item, never begun: a new attempt.
	fresh, err := other.Resume(ctx, trail.AuditEvent{Action: portal.ActServiceAccountCreate, Resource: "sa-b"}, 0)
	if err != nil || fresh.ID() == att.ID() || m.event(fresh.ID()).Outcome != Unknown || m.event(fresh.ID()).RequestID != "req-bulk" {
		t.Errorf("a write never begun: %+v %v", fresh, err)
	}
	m.setDown(true)
	if _, err := other.Resume(ctx, trail.AuditEvent{Action: portal.ActServiceAccountCreate, Resource: "sa-c"}, 0); !portal.Is(err, portal.UpstreamUnavailable) {
		t.Errorf("resuming while the trail is down: %v", err)
	}
}

// TestBound: what callers supply is cut before it reaches the trail, with
// a marker saying how much was cut.
func TestBound(t *testing.T) {
	m := newMem()
	r := New(m, quiet())
	huge := strings.Repeat("x", 1<<20)
	changes := make([]trail.Change, 500)
	for i := range changes {
		changes[i] = trail.Change{Field: huge, After: huge}
	}
	r.Record(context.Background(), trail.AuditEvent{Action: portal.ActTopicCreate, Resource: huge, Detail: huge, Changes: changes, Outcome: "INVALID_PARAMETER"})
	e := m.event(1)
	size := len(e.Resource) + len(e.Detail)
	for _, c := range e.Changes {
		size += len(c.Field) + len(c.Before) + len(c.After)
	}
	if size > 400_000 || !strings.HasSuffix(e.Resource, "… (1048064 more bytes)") || len(e.Changes) != MaxChanges+1 {
		t.Errorf("an event of %d bytes, resource ends %q, %d changes", size, e.Resource[len(e.Resource)-30:], len(e.Changes))
	}
	if got := Cut("aé", 2); got != "a… (2 more bytes)" {
		t.Errorf("cut inside a character: %q", got)
	}
}

// TestAnonymousRefusalsAreAggregated: refusals of unauthenticated callers
// make one event per source and minute whose count grows, not a row per
// request.
func TestAnonymousRefusalsAreAggregated(t *testing.T) {
	m := newMem()
	r := New(m, quiet())
	now := time.Date(2026, 11, 24, 10, 0, 5, 0, time.UTC)
	r.now = func() time.Time { return now }
	from := func(ip string) context.Context {
		return requestid.WithClient(context.Background(), requestid.Client{IP: ip})
	}
	for range 300 {
		r.RefusedAnonymous(from("10.0.0.1"), trail.AuditEvent{Action: portal.RouteAction("POST /:bu/:stage/topic"), Outcome: "UNAUTHENTICATED", Detail: "the token is not valid"})
	}
	r.RefusedAnonymous(from("10.0.0.2"), trail.AuditEvent{Action: portal.RouteAction("POST /:bu/:stage/topic"), Outcome: "UNAUTHENTICATED"})
	r.Flush(context.Background())
	if m.count() != 2 {
		t.Fatalf("%d events for two sources in one minute", m.count())
	}
	if e := m.event(1); e.SourceIP != "10.0.0.1" || len(e.Changes) != 1 || e.Changes[0].After != "300" {
		t.Errorf("first source: %+v", e)
	}
	now = now.Add(time.Minute)
	r.RefusedAnonymous(from("10.0.0.1"), trail.AuditEvent{Action: portal.RouteAction("POST /:bu/:stage/topic"), Outcome: "UNAUTHENTICATED"})
	if m.count() != 3 || m.event(3).Changes[0].After != "1" {
		t.Errorf("a new minute: %d events, last %+v", m.count(), m.event(3))
	}
}
