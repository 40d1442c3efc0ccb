package connectors

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/connect"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/store"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// Backoff paces the portal's restarts of a failing connector: the first
// First after the failure was seen, each next one after twice the last
// wait, up to Max.
type Backoff struct{ First, Max time.Duration }

// wait is the wait before the restart that follows n restarts.
func (b Backoff) wait(n int) time.Duration {
	d := b.First
	for range n {
		if d >= b.Max/2 {
			return b.Max
		}
		d *= 2
	}
	return min(d, b.Max)
}

// due is when the next restart of a failing connector is due.
func (b Backoff) due(a store.AutoRestart) time.Time {
	if a.Attempts == 0 {
		return a.FailingSince.Add(b.First)
	}
	return a.LastAt.Add(b.wait(a.Attempts))
}

// restartAction is what a round does with one connector.
type restartAction int

const (
	restartNone restartAction = iota
	restartNow
	restartGiveUp
)

// step is one round's look at a connector whose auto-restart is on: where
// its backoff stands after, and what to do. A paused connector is a
// person's choice; one that runs well for as long as its next wait would
// have been starts its backoff again.
func (b Backoff) step(a store.AutoRestart, c platform.Connector, now time.Time) (store.AutoRestart, restartAction) {
	switch {
	case c.State == connect.StatePaused:
		return a, restartNone
	case !c.Failing():
		a.FailingSince = time.Time{}
		if a.Attempts > 0 && !now.Before(a.LastAt.Add(b.wait(a.Attempts))) {
			a.Attempts, a.GivenUp = 0, false
		}
		return a, restartNone
	case a.GivenUp:
		return a, restartNone
	case a.FailingSince.IsZero():
		a.FailingSince = now
	}
	if now.Before(b.due(a)) {
		return a, restartNone
	}
	if a.MaxRestarts > 0 && a.Attempts >= a.MaxRestarts {
		a.GivenUp = true
		return a, restartGiveUp
	}
	a.Attempts++
	a.LastAt = now
	return a, restartNow
}

// WithAutoRestart keeps the connectors' auto-restarts in st, paced by b
// (a minute, doubling up to an hour, where b leaves it unset).
func (s *Service) WithAutoRestart(st AutoRestartStore, b Backoff) *Service {
	if b.First <= 0 {
		b.First = time.Minute
	}
	if b.Max < b.First {
		b.Max = max(b.First, time.Hour)
	}
	s.restarts, s.backoff = st, b
	return s
}

// AutoRestartStore keeps auto-restarts, and reads the trail of the
// portal's restarts.
type AutoRestartStore interface {
	store.AutoRestarts
	ListAudit(ctx context.Context, f store.AuditFilter) ([]trail.AuditEvent, error)
}

// autoRestartView is how a connector's auto-restart shows; nil when off.
func (s *Service) autoRestartView(a store.AutoRestart, c platform.Connector) *portal.AutoRestart {
	v := &portal.AutoRestart{MaxRestarts: a.MaxRestarts, Attempts: a.Attempts, GivenUp: a.GivenUp, LastAt: a.LastAt, SetBy: a.SetBy, SetAt: a.SetAt}
	if c.Failing() && !a.GivenUp && c.State != connect.StatePaused {
		if a.FailingSince.IsZero() {
			a.FailingSince = s.guard.Now() // seen at the next round
		}
		if a.MaxRestarts > 0 && a.Attempts >= a.MaxRestarts {
			// No restart is left: the round that finds it still failing
			// then gives up.
			v.GivesUpAt = s.backoff.due(a)
		} else {
			v.NextAt = s.backoff.due(a)
		}
	}
	return v
}

// SetAutoRestart turns a connector's auto-restart on or off: a change of
// the connector (Developers and up, not in read-only stages), audited.
func (s *Service) SetAutoRestart(ctx context.Context, scope portal.Scope, name string, spec portal.AutoRestartSpec) (*portal.AutoRestart, error) {
	return gate.Writing(ctx, s.guard, scope, access.Write, "change connectors' auto-restart", portal.ActConnectorSetAutoRestart, name, func(ctx context.Context, call *gate.Call) (_ *portal.AutoRestart, err error) {
		if spec.MaxRestarts < 0 || spec.MaxRestarts > connect.MaxAutoRestarts {
			return nil, portal.Invalid("max_restarts", "must be between 0 (no limit) and %d", connect.MaxAutoRestarts)
		}
		if s.restarts == nil {
			return nil, portal.New(portal.Internal, "auto-restart is not available in this portal")
		}
		full, err := s.resolve(ctx, call, name)
		if err != nil {
			return nil, err
		}
		unlock, err := s.guard.Lock(ctx, connectorLock(call, full))
		if err != nil {
			return nil, err
		}
		defer unlock()
		c, err := call.Env.Connectors.GetConnector(ctx, full)
		if err != nil {
			return nil, err
		}
		return s.setAutoRestart(ctx, call, c, spec)
	})
}

// setAutoRestart records the switch of an existing connector (a person's,
// or an applied document's).
func (s *Service) setAutoRestart(ctx context.Context, call *gate.Call, c platform.Connector, spec portal.AutoRestartSpec) (*portal.AutoRestart, error) {
	cur, err := s.restarts.AutoRestartOf(ctx, call.Env.Zone, call.Env.Stage, c.Name)
	on := err == nil
	if err != nil && err != store.ErrNotFound {
		return nil, err
	}
	before := describeAutoRestart(on, cur.MaxRestarts)
	a := store.AutoRestart{Zone: call.Env.Zone, Stage: call.Env.Stage, Connector: c.Name, BU: call.Owner(c.Name, tenancy.ConnectorSuffix).Unit,
		MaxRestarts: spec.MaxRestarts, SetBy: call.Principal.Actor(), SetAt: s.guard.Now()}
	if a.BU == "" {
		a.BU = call.Scope.Unit.ID
	}
	err = s.guard.Write(ctx, call, gate.Change{Event: portal.ActConnectorSetAutoRestart, Resource: c.Name,
		Changes: []trail.Change{{Field: "auto_restart", Before: before, After: describeAutoRestart(spec.Enabled, spec.MaxRestarts)}},
		Do: func(ctx context.Context) error {
			if spec.Enabled {
				return s.restarts.SetAutoRestart(ctx, a)
			}
			return s.restarts.DeleteAutoRestart(ctx, a.Zone, a.Stage, a.Connector)
		}})
	if err != nil || !spec.Enabled {
		return nil, err
	}
	return s.autoRestartView(a, c), nil
}

// describeAutoRestart says a switch for the trail and plans.
func describeAutoRestart(on bool, most int) string {
	switch {
	case !on:
		return "off"
	case most == 0:
		return "on, no limit"
	}
	return fmt.Sprintf("on, at most %d restarts", most)
}

// RestartHistory lists the portal's latest restarts of a connector, and
// its giving up, newest first.
func (s *Service) RestartHistory(ctx context.Context, scope portal.Scope, name string) ([]connect.ConnectorRestart, error) {
	ctx, call, err := s.guard.Enter(ctx, scope, access.Read, "read connectors")
	if err != nil {
		return nil, err
	}
	full, err := s.resolve(ctx, call, name)
	if err != nil || s.restarts == nil {
		return nil, err
	}
	events, err := s.restarts.ListAudit(ctx, store.AuditFilter{LandingZone: call.Env.Zone, Stage: call.Env.Stage, Actor: trail.SystemActor, Resource: full, Limit: 50})
	if err != nil {
		return nil, err
	}
	out := []connect.ConnectorRestart{}
	for _, e := range events {
		if e.Action == actionAutoRestart || e.Action == actionGiveUp {
			out = append(out, connect.ConnectorRestart{At: e.Time, Action: e.Action, Outcome: e.Outcome, Detail: e.Detail})
		}
	}
	return out, nil
}

// The portal's own actions on a connector whose auto-restart is on.
var (
	actionAutoRestart = portal.ActConnectorAutoRestart
	actionGiveUp      = portal.ActConnectorGiveUp
)

// firstLine is the first line of a failure's trace, for the trail.
func firstLine(trace string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(trace), "\n")
	if len(line) > 300 {
		line = line[:300] + "…"
	}
	return line
}
