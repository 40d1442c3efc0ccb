package alerts

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/store"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// AlertRound evaluates every unit's rules in every environment (on one
// replica, the lease holder's) and returns how many alerts fired or
// resolved. A fired or resolved alert is an event of the trail, as the
// portal's: the webhooks and the units' channels get it from there. A
// read that fails leaves its rules' alerts as they are: an outage is
// neither a resolution nor a new alert.
func (s *Service) AlertRound(ctx context.Context) (int, error) {
	ten := s.guard.Tenancy()
	now := s.guard.Now()
	// Two queries a round, whatever the number of environments.
	own, err := s.store.AlertRules(ctx, "", "", "")
	if err != nil {
		return 0, err
	}
	open, err := s.store.OpenAlerts(ctx, "", "")
	if err != nil {
		return 0, err
	}
	ownIn, openIn := map[portal.ZoneStage][]store.AlertRuleRecord{}, map[portal.ZoneStage][]store.AlertRecord{}
	for _, r := range own {
		k := portal.ZoneStage{Zone: r.Zone, Stage: r.Stage}
		ownIn[k] = append(ownIn[k], r)
	}
	for _, a := range open {
		k := portal.ZoneStage{Zone: a.Zone, Stage: a.Stage}
		openIn[k] = append(openIn[k], a)
	}
	told := 0
	var errs []error
	shared := &roundReads{}
	for _, env := range s.guard.Environments().All() {
		z, zok := ten.LandingZone(env.Zone)
		st, sok := ten.Stage(env.Stage)
		if !zok || !sok {
			continue
		}
		es := envScope{z: z, st: st, own: ownIn[env.Key()], open: openIn[env.Key()]}
		n, err := s.roundIn(ctx, es, &envReads{src: s.sources, round: shared, env: env, store: s.store, now: now}, now)
		told += n
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", env.Name(), err))
		}
	}
	return told, errors.Join(errs...)
}

// envScope is an environment's zone and stage, with the units' own rules
// and the open alerts there.
type envScope struct {
	z    *tenancy.LandingZone
	st   tenancy.Stage
	own  []store.AlertRuleRecord
	open []store.AlertRecord
}

func (s *Service) roundIn(ctx context.Context, es envScope, reads *envReads, now time.Time) (int, error) {
	zone, stage, own, open := es.z.ID, es.st.Name, es.own, es.open
	var err error
	ten := s.guard.Tenancy()
	told := 0
	var errs []error
	for _, unitID := range es.z.BusinessUnits {
		u, ok := ten.Unit(unitID)
		if !ok {
			continue
		}
		scope := tenancy.Scope{Unit: u, Stage: es.st}
		for _, rule := range s.effective(zone, stage, unitID, own) {
			openOf := map[string]store.AlertRecord{}
			for _, a := range open {
				if a.BU == unitID && a.Rule == rule.Name {
					openOf[a.Subject] = a
				}
			}
			var seen []Observation
			if rule.Enabled {
				if seen, err = reads.observe(ctx, rule, scope); err != nil {
					errs = append(errs, fmt.Errorf("rule %s of %s: %w", rule.Name, unitID, err))
					continue
				}
			} else {
				rule.For = 0 // off: its open alerts end now
			}
			n, err := s.step(ctx, rule, openOf, seen, now)
			told += n
			if err != nil {
				return told, err
			}
		}
	}
	return told, errors.Join(errs...)
}

// step saves a rule's alerts as a round leaves them, and records those
// that fired or resolved.
func (s *Service) step(ctx context.Context, rule store.AlertRuleRecord, open map[string]store.AlertRecord, seen []Observation, now time.Time) (int, error) {
	save, changes := Step(rule, open, seen, now)
	told := make(map[string]Change, len(changes))
	for _, c := range changes {
		told[c.Alert.ID] = c
	}
	for _, a := range save {
		c, ok := told[a.ID]
		if !ok {
			// Still pending or firing: its value, not an event.
			if err := s.store.SaveAlert(ctx, a); err != nil {
				return 0, err
			}
			continue
		}
		action := portal.ActAlertResolve
		if c.Fired {
			action = portal.ActAlertFire
		}
		err := s.guard.WriteEvent(ctx, trail.AuditEvent{Actor: trail.SystemActor, ActorRole: "system", LandingZone: rule.Zone, BU: rule.BU, Stage: rule.Stage,
			Action: action, Resource: rule.Name + " " + c.Alert.Subject, Detail: Describe(rule)}, gate.Change{
			Do: func(ctx context.Context) error { return s.store.SaveAlert(ctx, a) },
			Changes: []trail.Change{{Field: "rule", After: rule.Name}, {Field: "kind", After: rule.Kind}, {Field: "subject", After: c.Alert.Subject},
				{Field: "value", After: c.Alert.Value}, {Field: "fired_at", After: c.Alert.FiredAt.UTC().Format(time.RFC3339)}}})
		if err != nil {
			return 0, err
		}
	}
	return len(changes), nil
}
