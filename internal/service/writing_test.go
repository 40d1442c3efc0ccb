package service_test

import (
	"context"
	"testing"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/servicetest"
)

// TestWritingSettlesEveryEnd: a write method made of gate.Writing leaves
// exactly one event however it ends: a refusal at the door (a Viewer) is
// recorded by the entry, without running the body; bad input found in the
// body is recorded as the event's refusal; a change made through
// Guard.Write is its own event, not recorded twice; a rate limit leaves
// none.
func TestWritingSettlesEveryEnd(t *testing.T) {
	w := servicetest.New(t)
	dev := portal.Scope{BU: "scada", Stage: "dev"}
	bad := portal.Invalid("name", "not a name")
	for _, c := range []struct {
		name    string
		role    portal.Role
		body    func(ctx context.Context, g *gate.Guard, call *gate.Call) error
		ran     bool
		events  int
		outcome string
	}{
		{name: "refused at the door", role: portal.Viewer, ran: false, events: 1, outcome: string(portal.InsufficientRole)},
		{name: "bad input", role: portal.Admin, ran: true, events: 1, outcome: string(portal.InvalidParameter),
			body: func(context.Context, *gate.Guard, *gate.Call) error { return bad }},
		{name: "written", role: portal.Admin, ran: true, events: 1, outcome: "ok",
			body: func(ctx context.Context, g *gate.Guard, call *gate.Call) error {
				return g.Write(ctx, call, gate.Change{Event: portal.ActTopicConfig, Resource: "written",
					Do: func(context.Context) error { return nil }})
			}},
		{name: "rate limited", role: portal.Admin, ran: true, events: 0,
			body: func(context.Context, *gate.Guard, *gate.Call) error {
				return portal.New(portal.RateLimited, "slow down")
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := len(w.AuditEvents(t))
			ran := false
			v, err := gate.Writing(servicetest.As("scada", c.role), w.Guard, dev, access.Write, "test writes", portal.ActTopicConfig, c.name,
				func(ctx context.Context, call *gate.Call) (int, error) {
					ran = true
					if c.body == nil {
						return 1, nil
					}
					return 1, c.body(ctx, w.Guard, call)
				})
			if ran != c.ran {
				t.Errorf("the body ran: %v, want %v", ran, c.ran)
			}
			if !ran && (v != 0 || err == nil) {
				t.Errorf("a refused entry answered %d, %v", v, err)
			}
			evs := w.AuditEvents(t)
			if got := len(evs) - before; got != c.events {
				t.Fatalf("%d new events, want %d: %+v", got, c.events, evs[:len(evs)-before])
			}
			if c.events == 1 && (evs[0].Outcome != c.outcome || evs[0].Action != portal.ActTopicConfig) {
				t.Errorf("event %s outcome %q, want %s %q", evs[0].Action, evs[0].Outcome, portal.ActTopicConfig, c.outcome)
			}
		})
	}
}
