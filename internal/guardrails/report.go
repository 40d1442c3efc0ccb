package guardrails

import (
	"context"
	"slices"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/guardrails/rules"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/policy"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// Report evaluates a saved policy against every existing resource of its
// kind in its units and stages, each judged as if it were created now by
// the caller. The portal changes none of them.
func (gr *Service) Report(ctx context.Context, id string) (policy.PolicyReport, error) {
	p, t, err := gr.enter(ctx, access.ReadGuardrails, "")
	if err != nil {
		return policy.PolicyReport{}, err
	}
	pol, err := gr.find(ctx, id)
	if err != nil {
		return policy.PolicyReport{}, err
	}
	if access.CheckAdmin(p, t, access.ReadGuardrails, pol.Zone) != nil {
		return policy.PolicyReport{}, policyNotFound(id)
	}
	rule, err := gr.compiler.Compile(pol)
	if err != nil {
		return policy.PolicyReport{}, err
	}
	out := policy.PolicyReport{Policy: pol, Violators: []policy.PolicyViolator{}}
	holder := gr.holder(pol.Kind)
	err = gr.eachScope(ctx, t, pol.Zone, pol.Units, pol.Stages, func(call *gate.Call, err error) {
		if err == nil && holder == nil {
			return
		}
		var held map[string]any
		if err == nil {
			held, err = holder.Holdings(ctx, call)
		}
		if err != nil {
			out.Unread = append(out.Unread, call.Scope.String()+": "+portal.FirstMessage(err))
			return
		}
		scope, principal := gate.RuleScope(call), gate.RulePrincipal(call)
		names := make([]string, 0, len(held))
		for n := range held {
			names = append(names, n)
		}
		slices.Sort(names)
		for _, n := range names {
			ch := rules.Change{Kind: pol.Kind, Operation: rules.OpCreate, Name: n, Resource: held[n], Scope: scope, Principal: principal}
			out.Checked++
			if v := rule.Judge(ctx, ch); !v.Kept {
				out.Violators = append(out.Violators, policy.PolicyViolator{BU: scope.Unit, Stage: scope.Stage, Kind: pol.Kind, Resource: n, Message: v.Message})
			}
		}
	})
	return out, err
}

// holder is the reader of a kind's existing resources.
func (gr *Service) holder(kind string) gate.Holder {
	for _, h := range gr.o.Holders {
		if h.Kind() == kind {
			return h
		}
	}
	return nil
}

// eachScope calls fn with a call in each unit and stage of a zone (units
// and stages narrow it when given), as the caller, outside the rate
// limits (one admin request reads many scopes). A scope the caller cannot
// enter comes with its error and a call that only names it.
func (gr *Service) eachScope(ctx context.Context, t *tenancy.Tenancy, zone string, units, stages []string, fn func(call *gate.Call, err error)) error {
	z, ok := t.LandingZone(zone)
	if !ok {
		return nil
	}
	ctx = gate.WithApplyStep(ctx)
	for _, u := range z.BusinessUnits {
		if len(units) > 0 && !slices.Contains(units, u) {
			continue
		}
		unit, _ := t.Unit(u)
		for _, st := range t.Stages() {
			if len(stages) > 0 && !slices.Contains(stages, st.Name) {
				continue
			}
			if _, ok := t.StageIn(z, st.Name, gr.guard.Now()); !ok {
				continue
			}
			_, call, err := gr.guard.Enter(ctx, portal.Scope{BU: u, Stage: st.Name}, access.Read, "read guardrails")
			if err != nil {
				if portal.Is(err, portal.Unauthenticated) {
					return err
				}
				fn(&gate.Call{Scope: tenancy.Scope{Unit: unit, Stage: st}}, err)
				continue
			}
			fn(call.Unit(), nil)
		}
	}
	return nil
}
