package connectors

import (
	"slices"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal/connect"
	"github.com/edh-platform/rms-portal/internal/store"
)

var (
	failed  = platform.Connector{Name: "c", State: connect.StateFailed, Trace: "boom"}
	taskBad = platform.Connector{Name: "c", State: connect.StateDegraded, Tasks: []connect.ConnectorTask{{ID: 0, State: connect.StateFailed}, {ID: 1, State: connect.StateRunning}}}
	running = platform.Connector{Name: "c", State: connect.StateRunning}
	paused  = platform.Connector{Name: "c", State: connect.StatePaused}
)

// rounds looks at a connector every 15 s from t0 for d, as the lease
// holder does, with state(t) the connector's state then; it returns the
// restarts' offsets from t0 and where the backoff ended.
func rounds(b Backoff, a store.AutoRestart, t0 time.Time, d time.Duration, state func(time.Duration) platform.Connector) ([]time.Duration, store.AutoRestart, time.Duration) {
	var restarts []time.Duration
	gaveUp := time.Duration(-1)
	for at := time.Duration(0); at <= d; at += 15 * time.Second {
		var act restartAction
		a, act = b.step(a, state(at), t0.Add(at))
		switch act {
		case restartNow:
			restarts = append(restarts, at)
		case restartGiveUp:
			gaveUp = at
		}
	}
	return restarts, a, gaveUp
}

// TestBackoffDoublesToItsCap: a connector that stays failed is restarted
// a minute after the failure was seen, then after 2, 4, 8, 16, 32 minutes
// and then every hour; a failed task is the same; no limit by default.
func TestBackoffDoublesToItsCap(t *testing.T) {
	b := Backoff{First: time.Minute, Max: time.Hour}
	t0 := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	for _, c := range []platform.Connector{failed, taskBad} {
		got, a, gaveUp := rounds(b, store.AutoRestart{}, t0, 4*time.Hour+5*time.Minute, func(time.Duration) platform.Connector { return c })
		var gaps []time.Duration
		prev := time.Duration(0)
		for _, r := range got {
			gaps = append(gaps, r-prev)
			prev = r
		}
		want := []time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute, 16 * time.Minute, 32 * time.Minute, time.Hour, time.Hour, time.Hour}
		if !slices.Equal(gaps, want) || gaveUp >= 0 || a.Attempts != len(want) {
			t.Errorf("%s: waits %v (want %v), gave up at %v, attempts %d", c.State, gaps, want, gaveUp, a.Attempts)
		}
	}
}

// TestBackoffGivesUpAfterItsLimit: with at most 3 restarts, the fourth
// due one gives up instead, once, and nothing follows.
func TestBackoffGivesUpAfterItsLimit(t *testing.T) {
	b := Backoff{First: time.Minute, Max: time.Hour}
	t0 := time.Now()
	got, a, gaveUp := rounds(b, store.AutoRestart{MaxRestarts: 3}, t0, 3*time.Hour, func(time.Duration) platform.Connector { return failed })
	if !slices.Equal(got, []time.Duration{time.Minute, 3 * time.Minute, 7 * time.Minute}) || gaveUp != 15*time.Minute || !a.GivenUp || a.Attempts != 3 {
		t.Errorf("restarts %v, gave up at %v, %+v", got, gaveUp, a)
	}
}

// TestBackoffLeavesPausedAndStartsAgainWhenWell: a paused connector is a
// person's choice; one that runs well for as long as its next wait starts
// from a minute again; one that fails again sooner keeps doubling.
func TestBackoffLeavesPausedAndStartsAgainWhenWell(t *testing.T) {
	b := Backoff{First: time.Minute, Max: time.Hour}
	t0 := time.Now()
	if got, _, _ := rounds(b, store.AutoRestart{}, t0, time.Hour, func(time.Duration) platform.Connector { return paused }); len(got) != 0 {
		t.Errorf("a paused connector was restarted at %v", got)
	}
	// Fails, is restarted at 1m, runs until 2m30s (less than its 2m
	// wait after the restart), fails again: the next waits 2m from the
	// restart (at 3m), not 1m from the new failure.
	flaky := func(at time.Duration) platform.Connector {
		if at > time.Minute && at < 150*time.Second {
			return running
		}
		return failed
	}
	if got, _, _ := rounds(b, store.AutoRestart{}, t0, 4*time.Minute, flaky); !slices.Equal(got, []time.Duration{time.Minute, 3 * time.Minute}) {
		t.Errorf("a connector that failed again soon was restarted at %v", got)
	}
	// Runs well from 1m to 10m (past its 2m wait): the next failure is
	// restarted a minute after it was seen, as the first.
	healed := func(at time.Duration) platform.Connector {
		if at > time.Minute && at < 10*time.Minute {
			return running
		}
		return failed
	}
	got, a, _ := rounds(b, store.AutoRestart{}, t0, 12*time.Minute, healed)
	if !slices.Equal(got, []time.Duration{time.Minute, 11 * time.Minute}) || a.Attempts != 1 {
		t.Errorf("a connector that ran well was restarted at %v (%+v)", got, a)
	}
}
