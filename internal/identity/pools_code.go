package identity

import (
	"context"
	"fmt"
	"strings"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/guardrails/rules"
	"github.com/edh-platform/rms-portal/internal/plans"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/ascode"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// AsCode is the identity pools' part of resources as code.
func (s *Pools) AsCode() plans.Kind { return poolCode{s} }

type poolCode struct{ s *Pools }

func (poolCode) Kind() string          { return portal.KindIdentityPool }
func (poolCode) Action() access.Action { return access.ManageIdentity }
func (poolCode) Prunes() bool          { return true }

// Observe lists the identity provider's pools.
func (poolCode) Observe(ctx context.Context, call *gate.Call, _ []portal.Resource) (plans.Observed, error) {
	return call.Env.Pools.ListPools(ctx)
}

// Prune plans deleting the unit's pools the document does not declare.
func (k poolCode) Prune(call *gate.Call, o plans.Observed, keep map[string]bool) []*plans.Step {
	scope := call.Named()
	var out []*plans.Step
	for _, p := range o.([]platform.IdentityPool) {
		if _, mine := k.s.view(call, p); !mine || keep["identity-pool/"+p.DisplayName] {
			continue
		}
		id := p.ID
		st := &plans.Step{Key: "identity-pool/" + p.DisplayName, State: id,
			Change: ascode.PlannedChange{Kind: "identity-pool", Name: p.DisplayName, Identifier: call.Scope.Identifier(p.DisplayName), Index: -1, Action: ascode.ActionDelete}}
		st.Diff("filter", plans.Ptr(p.Filter), nil)
		rule := rules.NewChange(rules.KindIdentityPool, rules.OpDelete, p.DisplayName, nil, poolRule(call, p))
		st.Rule = &rule
		st.Impact = func(ctx context.Context) (portal.Impact, error) {
			grants, err := principalGrants(ctx, call, k.s.grants, id)
			return portal.Impact{Kind: "identity_pool", Name: p.DisplayName, Dependants: grants}, err
		}
		st.Do = func(ctx context.Context) error {
			return k.s.Delete(ctx, scope, id, portal.DeleteOptions{Forced: st.Force})
		}
		out = append(out, st)
	}
	return out
}

// Export declares the unit's pools that the portal made (they have a
// type).
func (k poolCode) Export(_ context.Context, call *gate.Call, o plans.Observed) ([]portal.Resource, error) {
	var out []portal.Resource
	for _, p := range o.([]platform.IdentityPool) {
		v, ok := k.s.view(call, p)
		if !ok || v.Type == "" {
			continue
		}
		out = append(out, portal.Resource{Kind: portal.KindIdentityPool, Name: v.Identifier, Description: v.Description,
			Spec: &portal.PoolDecl{Type: v.Type, IdentityClaim: v.IdentityClaim, Filter: v.Filter}})
	}
	return out, nil
}

// Plan plans a declared pool: created when missing, its filter updated;
// a pool keeps its identity claim and description (a difference is a
// warning).
func (k poolCode) Plan(_ context.Context, call *gate.Call, o plans.Observed, r portal.Resource) (*plans.Step, error) {
	s := k.s
	st := &plans.Step{Change: ascode.PlannedChange{Kind: "identity-pool"}}
	scope := call.Named()
	d := portal.DeclOf[portal.PoolDecl](r)
	in := iam.NewPool{Name: s.guard.Tenancy().RebaseOrg(tenancy.OrgPool, call.Scope.Unit, r.Name, d.Type), Type: d.Type, Description: strings.TrimSpace(r.Description),
		IdentityClaim: d.IdentityClaim, Filter: strings.TrimSpace(d.Filter)}
	var v portal.Validation
	name := s.check(call, &in, &v)
	st.Change.Name, st.Key = name, "identity-pool/"+name
	st.Change.Errors = v.Problems
	id, exists := "", false
	rule := rules.NewChange(rules.KindIdentityPool, "", name, poolRule(call, platform.IdentityPool{DisplayName: name, Description: in.Description, IdentityClaim: in.IdentityClaim, Filter: in.Filter}), nil)
	st.Rule = &rule
	for _, p := range o.([]platform.IdentityPool) {
		if name == "" || p.DisplayName != name {
			continue
		}
		id, exists = p.ID, true
		// An update changes the filter only.
		after := p
		after.Filter = in.Filter
		rule.Resource, rule.Before = poolRule(call, after), poolRule(call, p)
		st.State = p.ID + " " + p.Filter + " " + p.IdentityClaim
		st.Diff("filter", plans.Ptr(p.Filter), plans.Ptr(in.Filter))
		if p.IdentityClaim != in.IdentityClaim {
			st.Change.Warnings = append(st.Change.Warnings, fmt.Sprintf("the pool's identity claim is %s, not %s: a pool keeps its claim; create a pool under another name to change it", p.IdentityClaim, in.IdentityClaim))
		}
		if p.Description != in.Description {
			st.Change.Warnings = append(st.Change.Warnings, fmt.Sprintf("the pool's description is %q: the portal keeps the description a pool was created with", p.Description))
		}
	}
	if !exists {
		st.Diff("type", nil, plans.Ptr(in.Type))
		st.Diff("identityClaim", nil, plans.Ptr(in.IdentityClaim))
		st.Diff("filter", nil, plans.Ptr(in.Filter))
		st.Diff("description", nil, plans.Ptr(in.Description))
	}
	st.Do = func(ctx context.Context) error {
		if !exists {
			_, err := s.Create(ctx, scope, in)
			return err
		}
		_, err := s.UpdateFilter(ctx, scope, id, in.Filter, "")
		return err
	}
	st.Decide(exists)
	return st, nil
}
