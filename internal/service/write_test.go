package service_test

import (
	"context"
	"errors"
	"testing"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/servicetest"
)

// TestOneWritePath: gate.Write settles every change once, with what the
// change did: its outcome and fields, after announcing it; a change that
// timed out and is then confirmed is a success; the change runs after
// its attempt is in the trail, never without it.
func TestOneWritePath(t *testing.T) {
	w := servicetest.New(t)
	ctx, call, err := w.Guard.EnterWrite(servicetest.As("scada", portal.Admin), portal.Scope{BU: "scada", Stage: "dev"}, access.Write,
		"test writes", portal.ActTopicConfig, "t")
	if err != nil {
		t.Fatal(err)
	}
	boom := portal.New(portal.Conflict, "the upstream refused")
	timedOut := portal.New(portal.UpstreamTimeout, "no answer")
	for _, c := range []struct {
		name      string
		do        error
		confirm   bool
		want      error
		outcome   string
		announced error
	}{
		{name: "done", outcome: "ok"},
		{name: "refused upstream", do: boom, want: boom, outcome: string(portal.Conflict), announced: boom},
		{name: "timed out, then confirmed", do: timedOut, confirm: true, outcome: "ok"},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := len(w.AuditEvents(t))
			var announced []error
			inTrail := -1
			err := w.Guard.Write(ctx, call, gate.Change{Event: portal.ActTopicConfig, Resource: "topic " + c.name,
				Changes: []trail.Change{{Field: "retention.ms", Before: "1", After: "2"}},
				Do: func(context.Context) error {
					inTrail = len(w.AuditEvents(t)) - before
					return c.do
				},
				Confirm:  &gate.Confirmation{What: "it changed", How: "look", Check: func(context.Context) (bool, error) { return c.confirm, nil }},
				Announce: func(_ context.Context, err error) { announced = append(announced, err) },
			})
			if !errors.Is(err, c.want) && (c.want != nil || err != nil) {
				t.Errorf("Write returned %v, want %v", err, c.want)
			}
			if inTrail != 1 {
				t.Errorf("the change ran with %d new events in the trail, want its attempt (1)", inTrail)
			}
			if len(announced) != 1 || (c.announced == nil) != (announced[0] == nil) {
				t.Errorf("announced %v, want once with %v", announced, c.announced)
			}
			evs := w.AuditEvents(t)
			if len(evs)-before != 1 {
				t.Fatalf("%d events, want the one attempt settled", len(evs)-before)
			}
			e := evs[0]
			if e.Outcome != c.outcome || e.Resource != "topic "+c.name || len(e.Changes) != 1 || e.Changes[0].After != "2" {
				t.Errorf("event %s %s outcome %q changes %v, want outcome %q", e.Action, e.Resource, e.Outcome, e.Changes, c.outcome)
			}
		})
	}
}
