package alerts

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/plans"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/alert"
	"github.com/edh-platform/rms-portal/internal/portal/ascode"
	"github.com/edh-platform/rms-portal/internal/store"
)

// AsCode is the alert rules' part of resources as code: a unit's own
// rules are its AlertRule resources (the platform's defaults are not the
// unit's, and are not exported); pruning one brings back a default of its
// name.
func (s *Service) AsCode() plans.Kind { return alertRuleCode{s} }

type alertRuleCode struct{ s *Service }

func (alertRuleCode) Kind() string          { return portal.KindAlertRule }
func (alertRuleCode) Action() access.Action { return access.Write }
func (alertRuleCode) Prunes() bool          { return true }

// Observe reads the unit's own rules in the stage (one query).
func (k alertRuleCode) Observe(ctx context.Context, call *gate.Call, _ []portal.Resource) (plans.Observed, error) {
	return k.s.store.AlertRules(ctx, call.Scope.Zone().ID, call.Scope.Stage.Name, call.Scope.Unit.ID)
}

func ruleNamed(own []store.AlertRuleRecord, name string) (store.AlertRuleRecord, bool) {
	for _, r := range own {
		if r.Name == name {
			return r, true
		}
	}
	return store.AlertRuleRecord{}, false
}

// ruleFields are a rule's fields as plans compare them.
func ruleFields(r alert.AlertRule) map[string]string {
	target := r.Target
	if target == "" {
		target = "*"
	}
	return map[string]string{"kind": r.Kind, "target": target, "threshold": strconv.FormatFloat(r.Threshold, 'g', -1, 64), "for": r.For.String(),
		"enabled": strconv.FormatBool(r.Enabled)}
}

// Plan compares a declared rule with the unit's own of its name.
func (k alertRuleCode) Plan(_ context.Context, call *gate.Call, o plans.Observed, r portal.Resource) (*plans.Step, error) {
	d := portal.DeclOf[portal.AlertRuleDecl](r)
	rule := alert.AlertRule{Name: r.Name, Kind: d.Kind, Target: d.Target, Threshold: d.Threshold, Enabled: d.Enabled == nil || *d.Enabled}
	var v portal.Validation
	if d.For != "" {
		f, err := time.ParseDuration(d.For)
		if err != nil {
			v.Add(portal.Invalid("for", "%q is not a duration such as 5m or 1h30m", portal.Clip(d.For, 40)))
		}
		rule.For = f
	}
	if err := checkRule(rule); err != nil {
		for _, p := range portal.Problems(err) {
			p.Field = strings.ReplaceAll(p.Field, "for_seconds", "for")
			v.Add(p)
		}
	}
	if (rule.Target == "" || rule.Target == "*") && rule.Kind != "key_expiring" && rule.Kind != "budget_headroom" {
		rule.Target = "*"
	}
	st := &plans.Step{Key: "alert-rule/" + r.Name, Change: ascode.PlannedChange{Kind: portal.ChangeKind(portal.KindAlertRule), Name: r.Name}}
	cur, exists := ruleNamed(o.([]store.AlertRuleRecord), r.Name)
	before := map[string]string{}
	if exists {
		before = ruleFields(alert.AlertRule{Kind: cur.Kind, Target: cur.Target, Threshold: cur.Threshold, For: cur.For, Enabled: cur.Enabled})
		st.State = cur.UpdatedAt.UTC().Format(time.RFC3339Nano)
	}
	st.DiffMaps("", before, ruleFields(rule))
	st.Change.Errors = v.Problems
	scope := call.Named()
	st.Do = func(ctx context.Context) error {
		_, err := k.s.PutRule(ctx, scope, rule)
		return err
	}
	st.Decide(exists)
	return st, nil
}

// Prune plans deleting the unit's own rules the document does not
// declare (a default of the same name applies again).
func (k alertRuleCode) Prune(call *gate.Call, o plans.Observed, keep map[string]bool) []*plans.Step {
	scope := call.Named()
	var out []*plans.Step
	for _, r := range o.([]store.AlertRuleRecord) {
		if keep["alert-rule/"+r.Name] {
			continue
		}
		name := r.Name
		st := &plans.Step{Key: "alert-rule/" + name, State: r.UpdatedAt.UTC().Format(time.RFC3339Nano),
			Change: ascode.PlannedChange{Kind: portal.ChangeKind(portal.KindAlertRule), Name: name, Identifier: name, Index: -1, Action: ascode.ActionDelete}}
		st.Diff("kind", plans.Ptr(r.Kind), nil)
		st.Do = func(ctx context.Context) error { return k.s.DeleteRule(ctx, scope, name) }
		out = append(out, st)
	}
	return out
}

// Export declares the unit's own rules.
func (k alertRuleCode) Export(_ context.Context, _ *gate.Call, o plans.Observed) ([]portal.Resource, error) {
	var out []portal.Resource
	for _, r := range o.([]store.AlertRuleRecord) {
		d := &portal.AlertRuleDecl{Kind: r.Kind, Target: r.Target, Threshold: r.Threshold}
		if r.For > 0 {
			d.For = r.For.String()
		}
		if !r.Enabled {
			off := false
			d.Enabled = &off
		}
		if d.Target == "*" {
			d.Target = ""
		}
		out = append(out, portal.Resource{Kind: portal.KindAlertRule, Name: r.Name, Spec: d})
	}
	return out, nil
}
