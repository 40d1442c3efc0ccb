package guardrails

import (
	"context"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/plans"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/ascode"
	"github.com/edh-platform/rms-portal/internal/portal/policy"
)

// AsCode is the policies' part of resources as code: a Policy document
// planned from any unit's scope is a policy of that unit's landing zone,
// which platform admins alone may apply. Policies are neither pruned nor
// exported (they are the zone's, not the unit's).
func (gr *Service) AsCode() plans.Kind { return policyCode{gr} }

type policyCode struct{ gr *Service }

func (policyCode) Kind() string { return portal.KindPolicy }

// Action lets every role plan a policy: the refusal of everyone but
// platform admins is the kind's own (no unit role is enough).
func (policyCode) Action() access.Action { return access.Read }
func (policyCode) Prunes() bool          { return false }

// Observe reads the zone's policies (one query).
func (k policyCode) Observe(ctx context.Context, call *gate.Call, _ []portal.Resource) (plans.Observed, error) {
	recs, err := k.gr.o.Store.PolicyRecords(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string]policy.Policy{}
	for _, r := range recs {
		p, err := decodePolicy(r)
		if err != nil {
			return nil, err
		}
		out[r.ID] = p
	}
	return out, nil
}

// Plan diffs a declared policy against the stored one, checked (its
// expression type-checked) as a save would be.
func (k policyCode) Plan(_ context.Context, call *gate.Call, o plans.Observed, r portal.Resource) (*plans.Step, error) {
	existing := o.(map[string]policy.Policy)
	d := portal.DeclOf[portal.PolicyDecl](r)
	pol := policy.Policy{ID: r.Name, Zone: call.Scope.Zone().ID, Description: r.Description, Kind: d.Kind, Units: d.Units, Stages: d.Stages,
		Operations: d.Operations, Expression: d.Expression, Message: d.Message, Field: d.Field, Action: d.Action}
	st := &plans.Step{Key: "policy/" + pol.ID, Change: ascode.PlannedChange{Kind: "policy", Name: pol.ID, Identifier: pol.ID}}
	var v portal.Validation
	if !call.Principal.PlatformAdmin {
		v.Add(portal.New(portal.InsufficientRole, "only platform admins change policies"))
	}
	if err := k.gr.validate(k.gr.guard.Tenancy(), pol); err != nil {
		v.Problems = append(v.Problems, portal.Problems(err)...)
	}
	cur, exists := existing[pol.ID]
	if exists && cur.Zone != pol.Zone {
		v.Add(portal.Invalid("name", "policy %s belongs to landing zone %s; plan it from a unit of that zone", pol.ID, cur.Zone))
	}
	var before *policy.Policy
	if exists {
		before = &cur
		st.State = string(encodePolicy(cur))
	}
	for _, c := range policyChanges(before, &pol) {
		var b, a *string
		if exists || c.Before != "" {
			b = plans.Ptr(c.Before)
		}
		if c.After != "" || exists {
			a = plans.Ptr(c.After)
		}
		st.Diff(c.Field, b, a)
	}
	st.Change.Errors = v.Problems
	st.Do = func(ctx context.Context) error {
		_, _, err := k.gr.PutPolicy(ctx, pol, false)
		return err
	}
	st.Decide(exists)
	return st, nil
}

// Prune is never asked of policies.
func (policyCode) Prune(*gate.Call, plans.Observed, map[string]bool) []*plans.Step { return nil }

// Export declares no policy: they are the zone's, not the unit's.
func (policyCode) Export(context.Context, *gate.Call, plans.Observed) ([]portal.Resource, error) {
	return nil, nil
}
