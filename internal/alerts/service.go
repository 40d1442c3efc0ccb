package alerts

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/groups"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/alert"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/store"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// Service is the units' alert rules, their alerts, and the round that
// evaluates them (AlertRound).
type Service struct {
	guard    *gate.Guard
	store    AlertStore
	defaults []store.AlertRuleRecord
	sources  *alertSources
}

// AlertStore keeps rules and alerts, and reads the API keys' records.
type AlertStore interface {
	store.Alerts
	ExpiredKeys(ctx context.Context, t time.Time, limit int) ([]store.KeyRecord, error)
	AutoRestartsIn(ctx context.Context, zone, stage string) ([]store.AutoRestart, error)
}

// New returns the alerts' service: defaults are the platform's
// rules of every unit (by name, without zone, stage or unit; nil for
// DefaultAlertRules, empty for none); groups and budgets are where lag
// and budgets are read.
func New(g *gate.Guard, st AlertStore, defaults []store.AlertRuleRecord, groups *groups.Service, budgets Budgets) *Service {
	if defaults == nil {
		defaults = DefaultAlertRules()
	}
	return &Service{guard: g, store: st, defaults: defaults, sources: newAlertSources(groups, budgets)}
}

// WithForecasts has cost_forecast rules read the units' month-end
// forecasts.
func (s *Service) WithForecasts(f Forecasts) *Service {
	s.sources.forecasts = f
	return s
}

// Forecasts gives a unit's month-end cost forecast in a stage and its
// budget's monthly amount (0: none).
type Forecasts interface {
	MonthForecast(ctx context.Context, zone, stage, unit string) (forecast, amount float64, err error)
}

// Budgets reads a unit's use of its budget in a stage (the guardrails).
type Budgets interface {
	Headroom(ctx context.Context, zone, stage, unit string) (map[string]float64, error)
}

// DefaultAlertRules are the rules every unit has unless the platform
// configures others: a failed connector and a key expiring within a week.
// Neither reads a Kafka cluster: a default lag rule would keep every
// environment's clients open (a replica of 300 environments opens only
// those in use), so lag rules are each unit's choice, or the platform's
// in alerts.defaults.
func DefaultAlertRules() []store.AlertRuleRecord {
	return []store.AlertRuleRecord{
		{Name: "connector-failed", Kind: ConnectorFailed, Target: "*", For: 2 * time.Minute, Enabled: true},
		{Name: "key-expiring", Kind: KeyExpiring, Threshold: 7, Enabled: true},
	}
}

// effective merges the platform's defaults with a unit's own rules: a
// rule of a default's name replaces it.
func (s *Service) effective(zone, stage, unit string, own []store.AlertRuleRecord) []store.AlertRuleRecord {
	var out []store.AlertRuleRecord
	for _, d := range s.defaults {
		if !slices.ContainsFunc(own, func(r store.AlertRuleRecord) bool { return r.Name == d.Name && r.BU == unit }) {
			d.Zone, d.Stage, d.BU = zone, stage, unit
			out = append(out, d)
		}
	}
	for _, r := range own {
		if r.BU == unit {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b store.AlertRuleRecord) int { return strings.Compare(a.Name, b.Name) })
	return out
}

func (s *Service) isDefault(r store.AlertRuleRecord, own []store.AlertRuleRecord) bool {
	return !slices.ContainsFunc(own, func(o store.AlertRuleRecord) bool { return o.Name == r.Name })
}

func (s *Service) ruleView(r store.AlertRuleRecord, isDefault bool) alert.AlertRule {
	return alert.AlertRule{Silenced: s.guard.Now().Before(r.SilencedUntil), Name: r.Name, Kind: r.Kind, Target: r.Target, Threshold: r.Threshold, For: r.For, Enabled: r.Enabled, Default: isDefault,
		Description: Describe(r), SilencedUntil: r.SilencedUntil, SilenceReason: r.SilenceReason, SilencedBy: r.SilencedBy,
		UpdatedBy: r.UpdatedBy, UpdatedAt: r.UpdatedAt}
}

// Rules lists a unit's rules in a stage: its own, and the platform's
// defaults it did not replace.
func (s *Service) Rules(ctx context.Context, scope portal.Scope) ([]alert.AlertRule, error) {
	ctx, call, err := s.guard.Enter(ctx, scope, access.Read, "read alert rules")
	if err != nil {
		return nil, err
	}
	own, err := s.store.AlertRules(ctx, call.Scope.Zone().ID, call.Scope.Stage.Name, call.Scope.Unit.ID)
	if err != nil {
		return nil, err
	}
	out := []alert.AlertRule{}
	for _, r := range s.effective(call.Scope.Zone().ID, call.Scope.Stage.Name, call.Scope.Unit.ID, own) {
		out = append(out, s.ruleView(r, s.isDefault(r, own)))
	}
	return out, nil
}

// PutRule saves a unit's rule (replacing a default of its name): a change
// of the unit (Developers and up, not in read-only stages), audited.
func (s *Service) PutRule(ctx context.Context, scope portal.Scope, in alert.AlertRule) (alert.AlertRule, error) {
	return gate.Writing(ctx, s.guard, scope, access.Write, "change alert rules", portal.ActAlertRuleUpdate, in.Name, func(ctx context.Context, call *gate.Call) (_ alert.AlertRule, err error) {
		if err := checkRule(in); err != nil {
			return alert.AlertRule{}, err
		}
		zone, stage, unit := call.Scope.Zone().ID, call.Scope.Stage.Name, call.Scope.Unit.ID
		own, err := s.store.AlertRules(ctx, zone, stage, unit)
		if err != nil {
			return alert.AlertRule{}, err
		}
		before := ""
		rules := s.effective(zone, stage, unit, own)
		if i := slices.IndexFunc(rules, func(r store.AlertRuleRecord) bool { return r.Name == in.Name }); i >= 0 {
			before = Describe(rules[i])
		}
		rec := store.AlertRuleRecord{Zone: zone, Stage: stage, BU: unit, Name: in.Name, Kind: in.Kind, Target: in.Target, Threshold: in.Threshold,
			For: in.For, Enabled: in.Enabled, UpdatedBy: call.Principal.Actor(), UpdatedAt: s.guard.Now()}
		if in.Target == "" && (in.Kind == LagTime || in.Kind == Stalled || in.Kind == ConnectorFailed || in.Kind == TopicGrowth) {
			rec.Target = "*"
		}
		after := Describe(rec)
		if !rec.Enabled {
			after = "off: " + after
		}
		err = s.guard.Write(ctx, call, gate.Change{Event: portal.ActAlertRuleUpdate, Resource: in.Name,
			Changes: []trail.Change{{Field: "rule", Before: before, After: after}},
			Do:      func(ctx context.Context) error { return s.store.PutAlertRule(ctx, rec) }})
		if err != nil {
			return alert.AlertRule{}, err
		}
		return s.ruleView(rec, false), nil
	})
}

// CheckRule checks a rule as given (a unit's, or a default of the
// configuration).
func CheckRule(in alert.AlertRule) error { return checkRule(in) }

// checkRule checks a rule as given.
func checkRule(in alert.AlertRule) error {
	var v portal.Validation
	switch {
	case in.Name == "":
		v.Add(portal.Missing("name"))
	case tenancy.IdentifierProblem(in.Name) != "":
		v.Add(portal.Invalid("name", "a rule's name is lower-case letters, digits and dashes, beginning and ending with a letter or digit, not %q",
			portal.Clip(in.Name, 60)))
	}
	if !slices.Contains(Kinds(), in.Kind) {
		v.Add(portal.Invalid("kind", "must be one of %s, not %q", strings.Join(Kinds(), ", "), portal.Clip(in.Kind, 40)))
	}
	switch in.Kind {
	case LagTime, TopicGrowth:
		if in.Threshold <= 0 {
			v.Add(portal.Invalid("threshold", "must be above 0 (%s)", map[string]string{LagTime: "seconds behind", TopicGrowth: "records a second"}[in.Kind]))
		}
	case KeyExpiring:
		if in.Threshold < 1 || in.Threshold > 365 {
			v.Add(portal.Invalid("threshold", "must be between 1 and 365 days"))
		}
	case BudgetHeadroom:
		if in.Threshold <= 0 || in.Threshold > 100 {
			v.Add(portal.Invalid("threshold", "must be a percentage above 0, at most 100"))
		}
	case CostForecast:
		if in.Threshold <= 0 || in.Threshold > 1000 {
			v.Add(portal.Invalid("threshold", "must be a percentage of the monthly amount above 0, at most 1000 (100: the forecast is over it)"))
		}
	}
	if in.Target != "" && in.Target != "*" {
		if in.Kind == KeyExpiring || in.Kind == BudgetHeadroom || in.Kind == CostForecast {
			v.Add(portal.Invalid("target", "a %s rule covers the whole unit: leave target out", in.Kind))
		} else if p := tenancy.IdentifierProblem(tenancy.Normalise(in.Target)); p != "" {
			v.Add(portal.Invalid("target", "give an identifier of the unit's, or *: %q %s", portal.Clip(in.Target, 60), p))
		}
	}
	if in.For < 0 || in.For > alert.MaxAlertFor {
		v.Add(portal.Invalid("for_seconds", "must be between 0 and %s", alert.MaxAlertFor))
	}
	return v.Err()
}

// DeleteRule deletes a unit's rule; a default of its name applies again.
func (s *Service) DeleteRule(ctx context.Context, scope portal.Scope, name string) error {
	return s.guard.Writing(ctx, scope, access.Write, "change alert rules", portal.ActAlertRuleDelete, name, func(ctx context.Context, call *gate.Call) (err error) {
		return s.guard.Write(ctx, call, gate.Change{Event: portal.ActAlertRuleDelete, Resource: name, Do: func(ctx context.Context) error {
			err := s.store.DeleteAlertRule(ctx, call.Scope.Zone().ID, call.Scope.Stage.Name, call.Scope.Unit.ID, name)
			if errors.Is(err, store.ErrNotFound) {
				return portal.New(portal.NotFound, "alert rule %q of %s not found (a platform default cannot be deleted; turn it off)", portal.Clip(name, 60), call.Scope)
			}
			return err
		}})
	})
}

// Silence silences a rule until a time or for a while (neither: ends a
// silence), with a reason: its alerts are still kept, but not told. A default rule is
// saved as the unit's own with the silence.
func (s *Service) Silence(ctx context.Context, scope portal.Scope, name string, in alert.Silence) (alert.AlertRule, error) {
	return gate.Writing(ctx, s.guard, scope, access.Write, "silence alert rules", portal.ActAlertRuleSilence, name, func(ctx context.Context, call *gate.Call) (_ alert.AlertRule, err error) {
		now := s.guard.Now()
		until, reason := in.Until, in.Reason
		var v portal.Validation
		switch {
		case in.For < 0:
			v.Add(portal.Invalid("for_seconds", "must not be negative"))
		case in.For > 0 && !until.IsZero():
			v.Add(portal.Invalid("until", "give until or for_seconds, not both"))
		case in.For > 0:
			until = now.Add(in.For)
		}
		if !until.IsZero() && (!until.After(now) || until.Sub(now) > alert.MaxAlertSilence) {
			v.Add(portal.Invalid("until", "must be in the next %d days", int(alert.MaxAlertSilence/(24*time.Hour))))
		}
		if !until.IsZero() && strings.TrimSpace(reason) == "" {
			v.Add(portal.Missing("reason"))
		}
		v.Add(portal.CheckText("reason", reason, 300, true))
		if err := v.Err(); err != nil {
			return alert.AlertRule{}, err
		}
		zone, stage, unit := call.Scope.Zone().ID, call.Scope.Stage.Name, call.Scope.Unit.ID
		own, err := s.store.AlertRules(ctx, zone, stage, unit)
		if err != nil {
			return alert.AlertRule{}, err
		}
		rules := s.effective(zone, stage, unit, own)
		i := slices.IndexFunc(rules, func(r store.AlertRuleRecord) bool { return r.Name == name })
		if i < 0 {
			return alert.AlertRule{}, portal.New(portal.NotFound, "alert rule %q of %s not found", portal.Clip(name, 60), call.Scope)
		}
		rec := rules[i]
		rec.SilencedUntil, rec.SilenceReason, rec.SilencedBy = until, strings.TrimSpace(reason), call.Principal.Actor()
		if until.IsZero() {
			rec.SilenceReason, rec.SilencedBy = "", ""
		}
		after := "not silenced"
		if !until.IsZero() {
			after = "until " + until.UTC().Format(time.RFC3339) + ": " + rec.SilenceReason
		}
		err = s.guard.Write(ctx, call, gate.Change{Event: portal.ActAlertRuleSilence, Resource: name,
			Changes: []trail.Change{{Field: "silence", After: after}},
			Do:      func(ctx context.Context) error { return s.store.PutAlertRule(ctx, rec) }})
		if err != nil {
			return alert.AlertRule{}, err
		}
		return s.ruleView(rec, false), nil
	})
}

// History lists a unit's alerts in a stage that fired, open first, then
// newest first (at most 200).
func (s *Service) History(ctx context.Context, scope portal.Scope) ([]alert.Alert, error) {
	ctx, call, err := s.guard.Enter(ctx, scope, access.Read, "read alerts")
	if err != nil {
		return nil, err
	}
	recs, err := s.store.AlertHistory(ctx, call.Scope.Zone().ID, call.Scope.Stage.Name, call.Scope.Unit.ID, 400)
	if err != nil {
		return nil, err
	}
	out := []alert.Alert{}
	for _, a := range recs {
		if a.FiredAt.IsZero() {
			continue // pending, or ended before it fired
		}
		out = append(out, alertView(a))
	}
	slices.SortStableFunc(out, func(a, b alert.Alert) int {
		return boolOrder(a.State != Firing, b.State != Firing)
	})
	if len(out) > 200 {
		out = out[:200]
	}
	return out, nil
}

// Firing lists the firing alerts of the caller's units (at most 50),
// newest first.
func (s *Service) Firing(ctx context.Context) ([]alert.Alert, error) {
	p := portal.PrincipalFrom(ctx)
	if p == nil {
		return nil, portal.New(portal.Unauthenticated, "sign-in required")
	}
	var units []string
	for _, u := range s.guard.Tenancy().Units() {
		if p.Role(u.ID) > portal.NoRole {
			units = append(units, u.ID)
		}
	}
	recs, err := s.store.FiringAlerts(ctx, units, 50)
	if err != nil {
		return nil, err
	}
	out := []alert.Alert{}
	for _, a := range recs {
		out = append(out, alertView(a))
	}
	return out, nil
}

func alertView(a store.AlertRecord) alert.Alert {
	return alert.Alert{ID: a.ID, BU: a.BU, Stage: a.Stage, Rule: a.Rule, Kind: a.Kind, Subject: a.Subject, State: a.State, Value: a.Value, Since: a.Since,
		FiredAt: a.FiredAt, ResolvedAt: a.ResolvedAt, Silenced: a.Silenced}
}

func boolOrder(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}
