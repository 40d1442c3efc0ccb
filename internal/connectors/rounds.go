package connectors

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/connect"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/store"
)

// AutoRestart is one round of the connectors' auto-restart (on one
// replica, the lease holder's): in each stage that has connectors whose
// auto-restart is on, one listing of the cluster's connectors with their
// states, and the restarts their backoffs allow. It returns how many
// connectors it restarted.
func (s *Service) AutoRestart(ctx context.Context) (int, error) {
	if s.restarts == nil {
		return 0, nil
	}
	stages, err := s.restarts.AutoRestartStages(ctx)
	if err != nil {
		return 0, err
	}
	restarted := 0
	var errs []error
	for _, zs := range stages {
		env, err := s.guard.Environments().Get(zs.Zone, zs.Stage)
		if err != nil {
			continue // a zone or stage no longer configured
		}
		n, err := s.autoRestartIn(ctx, env)
		restarted += n
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", zs, err))
		}
	}
	return restarted, errors.Join(errs...)
}

func (s *Service) autoRestartIn(ctx context.Context, env *platform.Environment) (int, error) {
	ars, err := s.restarts.AutoRestartsIn(ctx, env.Zone, env.Stage)
	if err != nil || len(ars) == 0 {
		return 0, err
	}
	all, err := env.Connectors.ListConnectors(ctx)
	if err != nil {
		return 0, err
	}
	byName := make(map[string]platform.Connector, len(all))
	for _, c := range all {
		byName[c.Name] = c
	}
	now := s.guard.Now()
	restarted := 0
	for _, a := range ars {
		c, ok := byName[a.Connector]
		if !ok {
			// Deleted outside the portal: its auto-restart goes with it.
			if err := s.restarts.DeleteAutoRestart(ctx, a.Zone, a.Stage, a.Connector); err != nil {
				return restarted, err
			}
			continue
		}
		next, act := s.backoff.step(a, c, now)
		if next == a {
			continue
		}
		// The step is saved before it is taken: a replica that stops
		// between the two has counted a restart it did not make (the
		// trail has none, or its attempt as unknown), and another never
		// makes it twice.
		if ok, err := s.restarts.UpdateAutoRestart(ctx, next); err != nil || !ok {
			if err != nil {
				return restarted, err
			}
			continue // turned off meanwhile
		}
		switch act {
		case restartNow:
			if err := s.restartFailed(ctx, env, next, c); err == nil {
				restarted++
			}
		case restartGiveUp:
			s.guard.RecordEvent(ctx, trail.AuditEvent{Actor: trail.SystemActor, ActorRole: "system", LandingZone: env.Zone, BU: a.BU, Stage: env.Stage,
				Action: actionGiveUp, Resource: c.Name, Outcome: "ok",
				Detail: fmt.Sprintf("%d restarts did not bring it back: %s", next.Attempts, firstLine(failure(c)))})
		}
	}
	return restarted, nil
}

// restartFailed restarts a failed connector (a failed task: the failed
// tasks only), audited as the portal's with the attempt and the
// failure's first line.
func (s *Service) restartFailed(ctx context.Context, env *platform.Environment, a store.AutoRestart, c platform.Connector) error {
	unlock, err := s.guard.Lock(ctx, "connector "+env.Name()+" "+c.Name)
	if err != nil {
		return err
	}
	defer unlock()
	of := "no limit"
	if a.MaxRestarts > 0 {
		of = fmt.Sprintf("of %d", a.MaxRestarts)
	}
	return s.guard.WriteEvent(ctx, trail.AuditEvent{Actor: trail.SystemActor, ActorRole: "system", LandingZone: env.Zone, BU: a.BU, Stage: env.Stage,
		Action: actionAutoRestart, Resource: c.Name}, gate.Change{
		Steps: func(ctx context.Context, w *gate.Write) ([]trail.Change, error) {
			w.Note(fmt.Sprintf("attempt %d (%s): %s", a.Attempts, of, firstLine(failure(c))))
			return nil, env.Connectors.RestartConnector(ctx, c.Name, c.State != connect.StateFailed)
		},
		Changes: []trail.Change{{Field: "attempt", After: fmt.Sprint(a.Attempts)}}})
}

// failure is the trace of a connector's failure: its own, or its first
// failed task's.
func failure(c platform.Connector) string {
	if c.State == connect.StateFailed && c.Trace != "" {
		return c.Trace
	}
	for _, t := range c.Tasks {
		if t.State == connect.StateFailed {
			return fmt.Sprintf("task %d: %s", t.ID, t.Trace)
		}
	}
	return c.State
}

// resetAutoRestart starts a connector's backoff again after a person
// paused, resumed or restarted it, or turns it off with its deletion.
func (s *Service) resetAutoRestart(ctx context.Context, env *platform.Environment, full string, action portal.Action) error {
	if s.restarts == nil {
		return nil
	}
	if action == portal.ActConnectorDelete {
		return s.restarts.DeleteAutoRestart(ctx, env.Zone, env.Stage, full)
	}
	a, err := s.restarts.AutoRestartOf(ctx, env.Zone, env.Stage, full)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	a.Attempts, a.GivenUp, a.FailingSince = 0, false, time.Time{}
	_, err = s.restarts.UpdateAutoRestart(ctx, a)
	return err
}

// FailureLine says in one line why a connector fails, for alerts and the
// trail.
func FailureLine(c platform.Connector) string { return firstLine(failure(c)) }
