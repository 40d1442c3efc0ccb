// Package guardrails is the platform's guardrails in force: the policies
// and budgets platform admins keep in the store, the judgement of every
// write by them (gate.Rules: single calls, bulk jobs and plans alike),
// the report of the existing resources a policy would refuse, and each
// unit's use against its budgets.
package guardrails

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/guardrails/rules"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/policy"
	"github.com/edh-platform/rms-portal/internal/store"
)

// Store is what the guardrails keep in the database; API key records count
// a unit's keys.
type Store interface {
	store.Guardrails
	StageKeys(ctx context.Context, zone, stage string) ([]store.KeyRecord, error)
}

// ClusterLimit gives a zone stage's cluster partition limit and where it
// comes from; 0 when none is known.
type ClusterLimit func(ctx context.Context, zone, stage string) (limit int64, source string)

// Options are the guardrails' dependencies.
type Options struct {
	Store Store
	// Holders read each kind's existing resources (reports, plans).
	Holders []gate.Holder
	// ClusterLimit gives clusters' partition limits (nil: none known).
	ClusterLimit ClusterLimit
}

// Service judges writes by the policies and budgets in force.
type Service struct {
	guard    *gate.Guard
	o        Options
	compiler *rules.Compiler
	// compiled keeps each policy's rule by its stored body, so that a
	// write compiles nothing unless a policy changed.
	mu       sync.Mutex
	compiled map[string]compiledRule
}

type compiledRule struct {
	body string
	rule *rules.Rule
	err  error
}

var (
	_ gate.Rules              = (*Service)(nil)
	_ policy.GuardrailService = (*Service)(nil)
)

// New returns the guardrails service.
func New(g *gate.Guard, o Options) (*Service, error) {
	c, err := rules.NewCompiler()
	if err != nil {
		return nil, err
	}
	return &Service{guard: g, o: o, compiler: c, compiled: map[string]compiledRule{}}, nil
}

// policyJSON is a policy as the store keeps it.
type policyJSON struct {
	Description string   `json:"description,omitempty"`
	Kind        string   `json:"kind"`
	Units       []string `json:"units,omitempty"`
	Stages      []string `json:"stages,omitempty"`
	Operations  []string `json:"operations,omitempty"`
	Expression  string   `json:"expression"`
	Message     string   `json:"message"`
	Field       string   `json:"field,omitempty"`
	Action      string   `json:"action"`
}

func encodePolicy(p policy.Policy) []byte {
	b, _ := json.Marshal(policyJSON{Description: p.Description, Kind: p.Kind, Units: p.Units, Stages: p.Stages, Operations: p.Operations,
		Expression: p.Expression, Message: p.Message, Field: p.Field, Action: p.Action})
	return b
}

func decodePolicy(r store.PolicyRecord) (policy.Policy, error) {
	var j policyJSON
	if err := json.Unmarshal(r.Body, &j); err != nil {
		return policy.Policy{}, fmt.Errorf("policy %s: %w", r.ID, err)
	}
	return policy.Policy{ID: r.ID, Zone: r.Zone, Description: j.Description, Kind: j.Kind, Units: j.Units, Stages: j.Stages, Operations: j.Operations,
		Expression: j.Expression, Message: j.Message, Field: j.Field, Action: j.Action, UpdatedBy: r.UpdatedBy, Updated: r.Updated}, nil
}

// rules are the zone's policies in force, compiled. A stored policy that
// no longer compiles (a release changed a kind's fields) refuses the
// writes it covers: a guardrail is never silently dropped.
func (gr *Service) rules(ctx context.Context, zone string) ([]*rules.Rule, []policy.Policy, error) {
	recs, err := gr.o.Store.PolicyRecords(ctx)
	if err != nil {
		return nil, nil, err
	}
	gr.mu.Lock()
	defer gr.mu.Unlock()
	var compiled []*rules.Rule
	var broken []policy.Policy
	for _, r := range recs {
		if r.Zone != zone {
			continue
		}
		c, ok := gr.compiled[r.ID]
		if !ok || c.body != string(r.Body) {
			p, err := decodePolicy(r)
			c = compiledRule{body: string(r.Body), err: err}
			if err == nil {
				c.rule, c.err = gr.compiler.Compile(p)
				if c.err != nil {
					c.rule = &rules.Rule{Policy: p}
				}
			}
			gr.compiled[r.ID] = c
		}
		switch {
		case c.err != nil && c.rule != nil:
			broken = append(broken, c.rule.Policy)
		case c.err == nil:
			compiled = append(compiled, c.rule)
		}
	}
	return compiled, broken, nil
}

// Judge judges changes made in the call's unit and stage, in order: each
// one's budget use counts those before it (a plan's use after the plan).
// The unit's use is read only when a change adds to a limited dimension,
// or withUse asks for it (a plan, which makes nothing: withUse is what a
// plan asks). Changes about to be made (withUse false) that add to a
// limited dimension are judged under the unit's budget lock, across
// replicas, and a create that may be made reserves its use before the lock
// is released: the next judgement counts it until its resource shows.
func (gr *Service) Judge(ctx context.Context, call *gate.Call, changes []rules.Change, withUse bool) (rules.Judged, error) {
	scope := gate.RuleScope(call)
	inForce, broken, err := gr.rules(ctx, scope.Zone)
	if err != nil {
		return rules.Judged{}, unreadable(err)
	}
	limits, err := gr.limits(ctx, scope.Unit, scope.Stage)
	if err != nil {
		return rules.Judged{}, unreadable(err)
	}
	// Changes that add to a limited dimension are judged one unit and
	// stage at a time, on every replica, with the use reserved by those
	// judged before (reserve).
	growing := false
	for _, ch := range changes {
		growing = growing || !withUse && len(limits) > 0 && grows(limits, rules.Delta(ch))
	}
	if growing {
		unlock, err := gr.guard.LockInner(ctx, "budget "+scope.Zone+"/"+scope.Unit+"/"+scope.Stage)
		if err != nil {
			return rules.Judged{}, err
		}
		defer unlock()
	}
	var use rules.Usage
	if len(limits) > 0 && (withUse || growing) {
		judging := map[string]bool{}
		for _, ch := range changes {
			judging[ch.Name] = true
		}
		if use, err = gr.reserved(ctx, call, limits, judging); err != nil {
			return rules.Judged{}, err
		}
	}
	out := make([]rules.Judgement, len(changes))
	for i, ch := range changes {
		ch.Scope, ch.Principal = scope, gate.RulePrincipal(call)
		j := &out[i]
		for _, r := range inForce {
			if r.Action == rules.Report || !rules.Covers(r.Policy, ch.Kind, ch.Scope, ch.Operation) {
				continue
			}
			v := r.Judge(ctx, ch)
			if v.Kept {
				continue
			}
			if r.Action == rules.Warn {
				j.Warnings = append(j.Warnings, "policy "+r.ID+": "+v.Message)
				continue
			}
			j.Errors = append(j.Errors, &portal.Error{Kind: portal.PolicyViolation, Rule: r.ID, Field: r.Field, Message: "policy " + r.ID + ": " + v.Message})
		}
		for _, p := range broken {
			if p.Action == rules.Enforce && rules.Covers(p, ch.Kind, ch.Scope, ch.Operation) {
				j.Errors = append(j.Errors, &portal.Error{Kind: portal.PolicyViolation, Rule: p.ID,
					Message: "policy " + p.ID + " no longer compiles, so it refuses what it covers until a platform admin saves it again"})
			}
		}
		delta := rules.Delta(ch)
		if len(limits) > 0 && grows(limits, delta) {
			if dim, after, over := rules.Exceeded(limits, use, delta); over {
				j.Errors = append(j.Errors, &portal.Error{Kind: portal.BudgetExceeded, Rule: dim, Field: budgetField(ch.Kind, dim),
					Message: fmt.Sprintf("budget %s of %s/%s: %s in use, this change would make it %s, the limit is %s", dim, scope.Unit, scope.Stage,
						rules.Show(dim, use[dim]), rules.Show(dim, after), rules.Show(dim, limits[dim]))})
			}
			if len(j.Errors) == 0 && ch.Operation == rules.OpCreate && growing {
				if err := gr.reserve(ctx, scope.Unit, scope.Stage, ch.Name, delta); err != nil {
					return rules.Judged{}, err
				}
			}
		}
		if use != nil && len(j.Errors) == 0 {
			use.Add(delta)
		}
	}
	judged := rules.Judged{Each: out}
	if use != nil {
		judged.Limits, judged.Use = limits, use
	}
	return judged, nil
}

// grows tells whether a change adds to a dimension that has a limit.
func grows(limits, delta rules.Usage) bool {
	for k, v := range delta {
		if _, set := limits[k]; set && v > 0 {
			return true
		}
	}
	return false
}

// budgetField is the input a budget refusal points at.
func budgetField(kind, dim string) string {
	switch {
	case kind == rules.KindTopic && dim == rules.Partitions:
		return "partitions_count"
	case kind == rules.KindTopic && dim == rules.StorageBytes:
		return "config.retention.bytes"
	case kind == rules.KindConnector && dim == rules.ConnectorTasks:
		return "config.tasks.max"
	}
	return ""
}

// limits are a unit's budget in a stage (nil: none).
func (gr *Service) limits(ctx context.Context, unit, stage string) (rules.Usage, error) {
	l, _, err := gr.budgetRecord(ctx, unit, stage)
	return l, err
}

// budgetRecord is a unit's budget in a stage with its record (zero, and
// no limits, when it has none).
func (gr *Service) budgetRecord(ctx context.Context, unit, stage string) (rules.Usage, store.BudgetRecord, error) {
	recs, err := gr.o.Store.BudgetRecords(ctx)
	if err != nil {
		return nil, store.BudgetRecord{}, err
	}
	i := slices.IndexFunc(recs, func(r store.BudgetRecord) bool { return r.BU == unit && r.Stage == stage })
	if i < 0 {
		return nil, store.BudgetRecord{}, nil
	}
	var l rules.Usage
	if err := json.Unmarshal(recs[i].Limits, &l); err != nil {
		return nil, store.BudgetRecord{}, fmt.Errorf("budget of %s/%s: %w", unit, stage, err)
	}
	return l, recs[i], nil
}

// unreadable explains a store that cannot give the guardrails: the write
// is refused (a guardrail is never skipped), and neither could its audit
// trail be written.
func unreadable(err error) error {
	if !portal.Is(err, portal.UpstreamUnavailable) && !portal.Is(err, portal.UpstreamTimeout) {
		return err
	}
	pe := portal.Wrap(err, portal.UpstreamUnavailable,
		"the guardrails cannot be read and the audit trail cannot be written (the portal's database does not answer), so nothing was changed; try again shortly")
	pe.RetryAfter = 5 * time.Second
	return pe
}
