package connectors_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/connect"
	"github.com/edh-platform/rms-portal/internal/servicetest"
)

// TestAutoRestartThroughTheStandIn: a Developer turns auto-restart on for
// a connector whose task fails after every restart (dev.failure:
// task-always); the rounds restart it on the backoff schedule, audited as
// the portal's with the failure's first line, give up after its limit
// and say so; a person's restart starts again; a delete ends it. Viewers,
// read-only stages and bad limits are refused, changing nothing.
func TestAutoRestartThroughTheStandIn(t *testing.T) {
	w := servicetest.New(t)
	dev := portal.Scope{BU: "scada", Stage: "dev"}
	w.Connect["edh-shared/dev"].SetTiming(0, 0)
	cfg := servicetest.DatagenConfig()
	cfg["dev.failure"] = "task-always"
	if _, err := w.Connectors.Create(servicetest.AsRole(portal.Developer), dev, connect.NewConnector{Name: "flaky", Config: cfg}); err != nil {
		t.Fatal(err)
	}
	full := "edh-shared-scada-dev-flaky-connector"
	if _, err := w.Connectors.SetAutoRestart(servicetest.AsRole(portal.Viewer), dev, "flaky", portal.AutoRestartSpec{Enabled: true}); !portal.Is(err, portal.InsufficientRole) {
		t.Errorf("a Viewer: %v", err)
	}
	if _, err := w.Connectors.SetAutoRestart(servicetest.AsRole(portal.Developer), portal.Scope{BU: "scada", Stage: "run"}, "flaky", portal.AutoRestartSpec{Enabled: true}); err == nil {
		t.Error("a Developer in run was let through")
	}
	if _, err := w.Connectors.SetAutoRestart(servicetest.AsRole(portal.Developer), dev, "flaky", portal.AutoRestartSpec{Enabled: true, MaxRestarts: -1}); !portal.Is(err, portal.InvalidParameter) {
		t.Errorf("a negative limit: %v", err)
	}
	if c, _ := w.Connectors.Get(servicetest.AsRole(portal.Developer), dev, "flaky", false); c.AutoRestart != nil {
		t.Fatalf("refusals turned it on: %+v", c.AutoRestart)
	}
	ar, err := w.Connectors.SetAutoRestart(servicetest.AsRole(portal.Developer), dev, "flaky", portal.AutoRestartSpec{Enabled: true, MaxRestarts: 2})
	if err != nil || ar == nil || ar.MaxRestarts != 2 {
		t.Fatalf("set: %+v %v", ar, err)
	}

	ctx := context.Background()
	round := func(advance time.Duration) int {
		t.Helper()
		w.Advance(advance)
		n, err := w.Connectors.AutoRestart(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	// Seen failing, restarted a minute later (not before), again 2 min
	// after that, and then it gives up instead of a third restart.
	for i, step := range []struct {
		advance time.Duration
		want    int
	}{{0, 0}, {59 * time.Second, 0}, {2 * time.Second, 1}, {time.Minute, 0}, {61 * time.Second, 1}, {4*time.Minute + time.Second, 0}} {
		if got := round(step.advance); got != step.want {
			t.Errorf("round %d (+%v): %d restarts, want %d", i, step.advance, got, step.want)
		}
		if i != 4 {
			continue
		}
		// Its last allowed restart made, no next restart is due: when it
		// gives up if it still fails.
		c, _ := w.Connectors.Get(servicetest.AsRole(portal.Viewer), dev, "flaky", false)
		if a := c.AutoRestart; a == nil || !a.NextAt.IsZero() || !a.GivesUpAt.Equal(a.LastAt.Add(4*time.Minute)) {
			t.Errorf("after its last restart: %+v", a)
		}
		if !strings.Contains(c.Tasks[0].Trace, "dev.failure=task-always") {
			t.Errorf("the stand-in's failure names another setting: %q", c.Tasks[0].Trace)
		}
	}
	c, err := w.Connectors.Get(servicetest.AsRole(portal.Viewer), dev, "flaky", false)
	if err != nil || c.AutoRestart == nil || !c.AutoRestart.GivenUp || c.AutoRestart.Attempts != 2 || !c.AutoRestart.NextAt.IsZero() {
		t.Fatalf("after giving up: %+v %v", c.AutoRestart, err)
	}
	history, err := w.Connectors.RestartHistory(servicetest.AsRole(portal.Viewer), dev, "flaky")
	if err != nil || len(history) != 3 || history[0].Action != portal.ActConnectorGiveUp || history[1].Action != portal.ActConnectorAutoRestart ||
		!strings.Contains(history[1].Detail, "attempt 2 (of 2): task 0: org.apache.kafka.connect.errors.RetriableException") || history[1].Outcome != "ok" {
		t.Errorf("history: %+v %v", history, err)
	}
	for _, e := range w.AuditEvents(t) {
		if (e.Action == portal.ActConnectorAutoRestart || e.Action == portal.ActConnectorGiveUp) && (e.Actor != "portal" || e.BU != "scada" || e.Resource != full) {
			t.Errorf("the portal's event: %+v", e)
		}
	}
	if got := round(time.Hour); got != 0 {
		t.Errorf("restarted %d times after giving up", got)
	}
	// The platform's default rule tells the unit, saying it gave up.
	for _, step := range []time.Duration{0, 2 * time.Minute} {
		w.Advance(step)
		if _, err := w.Alerts.AlertRound(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if fired, _ := w.Alerts.History(servicetest.AsRole(portal.Viewer), dev); len(fired) != 1 || fired[0].Rule != "connector-failed" ||
		!strings.HasPrefix(fired[0].Value, "auto-restart gave up after 2 restarts; ") {
		t.Errorf("the alert of the connector given up: %+v", fired)
	}

	// A person's restart starts again: a minute after the failure is seen.
	if err := w.Connectors.Restart(servicetest.AsRole(portal.Developer), dev, "flaky", false); err != nil {
		t.Fatal(err)
	}
	if c, _ := w.Connectors.Get(servicetest.AsRole(portal.Viewer), dev, "flaky", false); c.AutoRestart.GivenUp || c.AutoRestart.Attempts != 0 {
		t.Errorf("after a person's restart: %+v", c.AutoRestart)
	}
	if round(0)+round(61*time.Second) != 1 {
		t.Error("no restart a minute after the person's")
	}

	// Off, and on again then deleted: nothing is left of it.
	if ar, err := w.Connectors.SetAutoRestart(servicetest.AsRole(portal.Developer), dev, "flaky", portal.AutoRestartSpec{}); err != nil || ar != nil {
		t.Errorf("off: %+v %v", ar, err)
	}
	if round(time.Hour) != 0 {
		t.Error("restarted while off")
	}
	if _, err := w.Connectors.SetAutoRestart(servicetest.AsRole(portal.Developer), dev, "flaky", portal.AutoRestartSpec{Enabled: true}); err != nil {
		t.Fatal(err)
	}
	if err := w.Connectors.Delete(servicetest.AsRole(portal.Developer), dev, "flaky", ""); err != nil {
		t.Fatal(err)
	}
	if left, err := w.Store.AutoRestartsIn(ctx, "edh-shared", "dev"); err != nil || len(left) != 0 {
		t.Errorf("after the delete: %+v %v", left, err)
	}
	var sets []string
	for _, e := range w.AuditEvents(t) {
		if e.Action == portal.ActConnectorSetAutoRestart {
			said := e.Outcome
			for _, c := range e.Changes {
				said += " " + c.Before + " -> " + c.After
			}
			sets = append(sets, said)
		}
	}
	got := strings.Join(sets, "; ")
	for _, want := range []string{"ok off -> on, at most 2 restarts", "ok on, at most 2 restarts -> off", "ok off -> on, no limit", "INSUFFICIENT_ROLE", "INVALID_PARAMETER"} {
		if !strings.Contains(got, want) {
			t.Errorf("the trail of the switch does not say %q: %s", want, got)
		}
	}
}
