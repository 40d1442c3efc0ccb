package identity

import (
	"context"
	"regexp"
	"strings"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/guardrails/rules"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/store"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// Pools manages a business unit's identity pools: tokens of the
// stage's identity provider whose claims pass a pool's filter act as the
// pool, with the role bindings of its type.
type Pools struct {
	guard   *gate.Guard
	filters *Filters
	// grants are the zone's grants (a pool's dependants), which
	// endGrants ends ahead of the pool's delete.
	grants    store.ZoneGrants
	endGrants GrantEnder
}

// WithImpact lets deletes see the zone's grants among a pool's
// dependants, and end those of a pool being deleted.
func (s *Pools) WithImpact(g store.ZoneGrants, end GrantEnder) *Pools {
	s.grants, s.endGrants = g, end
	return s
}

// Impact lists what depends on a pool: the grants other units gave it,
// its role bindings.
func (s *Pools) Impact(ctx context.Context, scope portal.Scope, id string) (portal.Impact, error) {
	p, err := s.Get(ctx, scope, id)
	if err != nil {
		return portal.Impact{}, err
	}
	ctx, call, err := s.guard.Enter(ctx, scope, access.Read, "read identity pools")
	if err != nil {
		return portal.Impact{}, err
	}
	bindings, err := call.Env.IAM.RoleBindings(ctx, "User:"+p.ID)
	if err != nil {
		return portal.Impact{}, err
	}
	grants, err := principalGrants(ctx, call, s.grants, p.ID)
	if err != nil {
		return portal.Impact{}, err
	}
	return portal.Impact{Kind: "identity_pool", Name: p.Name, Dependants: append(grants, bindingDependants(call.Scope.Unit.ID, bindings)...)}, nil
}

// NewPools returns the identity pool service.
func NewPools(g *gate.Guard, f *Filters) *Pools {
	return &Pools{guard: g, filters: f}
}

var claimPath = regexp.MustCompile(`^claims(\.[A-Za-z_][A-Za-z0-9_]*)+$`)

// view is a pool as call sees it; false when call may not see it
// (orgOwnerOf).
func (s *Pools) view(call *gate.Call, p platform.IdentityPool) (iam.Pool, bool) {
	o, ok := call.OrgOwner(tenancy.OrgPool, p.DisplayName)
	if !ok {
		return iam.Pool{}, false
	}
	return iam.Pool{ID: p.ID, Name: p.DisplayName, Identifier: o.Identifier(tenancy.OrgPool, p.DisplayName), BU: o.Unit(),
		OutsideConvention: o.Outside, ReadOnly: o.ReadOnly(call), Type: iam.AccountTypeOf(p.DisplayName), Description: p.Description,
		IdentityClaim: p.IdentityClaim, Filter: p.Filter, State: p.State, Version: s.version(p)}, true
}

// version is a pool's version: the digest of what can change of it.
func (s *Pools) version(p platform.IdentityPool) string {
	return s.guard.Version([]string{p.DisplayName, p.Description, p.IdentityClaim, p.Filter})
}

// lockToWrite takes the lock of a pool's changes, then reads the pool as
// findToWrite does and checks the caller's precondition.
func (s *Pools) lockToWrite(ctx context.Context, call *gate.Call, id, what string, event portal.Action, ifMatch portal.IfMatch) (platform.IdentityPool, *gate.Call, func(), error) {
	unlock, err := s.guard.Lock(ctx, "identity-pool "+id)
	if err != nil {
		return platform.IdentityPool{}, nil, nil, err
	}
	p, call, err := s.findToWrite(ctx, call, id, what, event)
	if err == nil {
		err = ifMatch.Check("identity pool "+p.DisplayName, s.version(p))
	}
	if err != nil {
		unlock()
		return p, nil, nil, err
	}
	return p, call, unlock, nil
}

// List returns one page of the unit's pools.
func (s *Pools) List(ctx context.Context, scope portal.Scope, q portal.ListQuery) (portal.Page[iam.Pool], error) {
	ctx, call, err := s.guard.Enter(ctx, scope, access.Read, "list identity pools")
	if err != nil {
		return portal.Page[iam.Pool]{}, err
	}
	all, err := call.Env.Pools.ListPools(ctx)
	if err != nil {
		return portal.Page[iam.Pool]{}, err
	}
	var mine []iam.Pool
	for _, p := range all {
		if v, ok := s.view(call, p); ok && call.KeepUnit(q, v.BU) {
			mine = append(mine, v)
		}
	}
	gate.SortByName(mine, func(p iam.Pool) string { return p.Name })
	return gate.Paginate(s.guard.Pages(), "identity-pools "+call.Scope.String(), mine, func(p iam.Pool) string { return p.Name }, q)
}

// find reads a pool that call may see, with its owner.
func (s *Pools) find(ctx context.Context, call *gate.Call, id string) (platform.IdentityPool, gate.OrgOwner, error) {
	p, err := call.Env.Pools.GetPool(ctx, id)
	if err != nil && !portal.Is(err, portal.NotFound) {
		return p, gate.OrgOwner{}, err
	}
	o, visible := call.OrgOwner(tenancy.OrgPool, p.DisplayName)
	if err != nil || !visible {
		return p, o, portal.New(portal.NotFound, "identity pool %s not found", id)
	}
	return p, o, nil
}

// findToWrite reads a pool that call may see and enters the scope of the
// unit that owns it, where the write is authorized and audited.
func (s *Pools) findToWrite(ctx context.Context, call *gate.Call, id, what string, event portal.Action) (platform.IdentityPool, *gate.Call, error) {
	p, o, err := s.find(ctx, call, id)
	if err != nil {
		return p, nil, err
	}
	call, err = s.guard.EnterOwner(ctx, call, o, access.ManageIdentity, what, event, p.DisplayName+" ("+id+")")
	return p, call, err
}

// Get returns one of the unit's pools with its role bindings.
func (s *Pools) Get(ctx context.Context, scope portal.Scope, id string) (iam.Pool, error) {
	ctx, call, err := s.guard.Enter(ctx, scope, access.Read, "read identity pools")
	if err != nil {
		return iam.Pool{}, err
	}
	p, _, err := s.find(ctx, call, id)
	if err != nil {
		return iam.Pool{}, err
	}
	v, _ := s.view(call, p)
	if v.RoleBindings, err = call.Env.IAM.RoleBindings(ctx, "User:"+p.ID); err != nil {
		return iam.Pool{}, err
	}
	sortBindings(v.RoleBindings)
	return v, nil
}

// Create checks the filter locally, creates the pool and applies its
// type's role bindings.
func (s *Pools) Create(ctx context.Context, scope portal.Scope, in iam.NewPool) (iam.Pool, error) {
	return gate.Writing(ctx, s.guard, scope, access.ManageIdentity, "create identity pools", portal.ActIdentityPoolCreate, in.Name, func(ctx context.Context, call *gate.Call) (_ iam.Pool, err error) {
		var v portal.Validation
		name := s.check(call, &in, &v)
		if err := v.Err(); err != nil {
			return iam.Pool{}, err
		}
		if err := call.Pace(ctx); err != nil {
			return iam.Pool{}, err
		}
		return s.create(ctx, call, name, in)
	})
}

// check validates a pool to create, completing its defaults, and returns
// its display name.
func (s *Pools) check(call *gate.Call, in *iam.NewPool, v *portal.Validation) string {
	name := ""
	in.Name = strings.TrimSpace(in.Name)
	if gate.Identifier(v, "name", "name", in.Name) && isAccountType(in.Type) {
		if name = call.Scope.QualifyPool(in.Name, in.Type); len(name) > maxDisplayName {
			v.Add(portal.Invalid("name", "the display name %s is %d characters long; Confluent Cloud allows %d", name, len(name), maxDisplayName))
		}
	}
	switch {
	case in.Type == "":
		v.Add(portal.Missing("type"))
	case !isAccountType(in.Type):
		v.Add(portal.Invalid("type", "type must be one of %s, not %q", accountTypeNames(), in.Type))
	}
	v.Add(portal.CheckText("description", in.Description, maxDescription, false))
	if in.IdentityClaim == "" {
		in.IdentityClaim = iam.DefaultIdentityClaim
	} else if !claimPath.MatchString(in.IdentityClaim) {
		v.Add(portal.Invalid("identity_claim", "identity_claim must name a claim, such as claims.sub, not %q", in.IdentityClaim))
	}
	v.Add(s.filters.Check("filter", in.Filter))
	return name
}

func (s *Pools) create(ctx context.Context, call *gate.Call, name string, in iam.NewPool) (iam.Pool, error) {
	desired := poolRule(call, platform.IdentityPool{DisplayName: name, Description: strings.TrimSpace(in.Description), IdentityClaim: in.IdentityClaim, Filter: in.Filter})
	if err := s.guard.Check(ctx, call, portal.ActIdentityPoolCreate, rules.NewChange(rules.KindIdentityPool, rules.OpCreate, name, desired, nil)); err != nil {
		return iam.Pool{}, err
	}
	var out iam.Pool
	err := s.guard.Write(ctx, call, gate.Change{Event: portal.ActIdentityPoolCreate, Resource: name,
		Steps: func(ctx context.Context, w *gate.Write) ([]trail.Change, error) {
			bctx, cancel := w.Bound(ctx)
			p, err := call.Env.Pools.CreatePool(bctx, platform.IdentityPool{DisplayName: name, Description: strings.TrimSpace(in.Description),
				IdentityClaim: in.IdentityClaim, Filter: in.Filter})
			cancel()
			err = w.Confirm(ctx, err, "identity pool "+name+" was created", "list the identity pools to see, and create it again if it is not there",
				func(ctx context.Context) (bool, error) {
					all, err := call.Env.Pools.ListPools(ctx)
					for _, x := range all {
						if x.DisplayName == name {
							p = x
							return true, nil
						}
					}
					return false, err
				})
			if err != nil {
				return nil, err
			}
			w.Rename(name + " (" + p.ID + ")")
			out, _ = s.view(call, p)
			out.RoleBindings, err = applyBindings(ctx, call, "User:"+p.ID, in.Type)
			if err != nil {
				err = rollback(ctx, call, p.ID, out.RoleBindings, err, "identity pool", func(id string) error {
					return call.Env.Pools.DeletePool(ctx, id)
				})
				return nil, err
			}
			return nil, nil
		}})
	if err != nil {
		return iam.Pool{}, err
	}
	return out, nil
}

// UpdateFilter changes a pool's filter, checked before anything is sent.
func (s *Pools) UpdateFilter(ctx context.Context, scope portal.Scope, id, filter string, ifMatch portal.IfMatch) (iam.Pool, error) {
	return gate.Writing(ctx, s.guard, scope, access.ManageIdentity, "change identity pools", portal.ActIdentityPoolFilter, id, func(ctx context.Context, call *gate.Call) (_ iam.Pool, err error) {
		if e := s.filters.Check("filter", filter); e != nil {
			return iam.Pool{}, e
		}
		cur, call, unlock, err := s.lockToWrite(ctx, call, id, "change", portal.ActIdentityPoolFilter, ifMatch)
		if err != nil {
			return iam.Pool{}, err
		}
		defer unlock()
		after := cur
		after.Filter = filter
		rule := rules.NewChange(rules.KindIdentityPool, rules.OpUpdate, cur.DisplayName, poolRule(call, after), poolRule(call, cur))
		if err := s.guard.Check(ctx, call, portal.ActIdentityPoolFilter, rule); err != nil {
			return iam.Pool{}, err
		}
		if err := call.Pace(ctx); err != nil {
			return iam.Pool{}, err
		}
		var p platform.IdentityPool
		err = s.guard.Write(ctx, call, gate.Change{Event: portal.ActIdentityPoolFilter, Resource: cur.DisplayName + " (" + id + ")",
			Changes: []trail.Change{{Field: "filter", Before: cur.Filter, After: filter}},
			Do: func(ctx context.Context) (err error) {
				p, err = call.Env.Pools.UpdatePoolFilter(ctx, id, filter)
				return err
			}})
		if err != nil {
			return iam.Pool{}, err
		}
		v, _ := s.view(call, p)
		return v, nil
	})
}

// Delete removes a pool's role bindings, then the pool.
func (s *Pools) Delete(ctx context.Context, scope portal.Scope, id string, opt portal.DeleteOptions) error {
	return s.guard.Writing(ctx, scope, access.ManageIdentity, "delete identity pools", portal.ActIdentityPoolDelete, id, func(ctx context.Context, call *gate.Call) (err error) {
		p, call, unlock, err := s.lockToWrite(ctx, call, id, "delete", portal.ActIdentityPoolDelete, opt.IfMatch)
		if err != nil {
			return err
		}
		defer unlock()
		bindings, err := call.Env.IAM.RoleBindings(ctx, "User:"+id)
		if err != nil {
			return err
		}
		grants, err := principalGrants(ctx, call, s.grants, id)
		if err != nil {
			return err
		}
		forced, err := gate.CheckDependants(call, portal.Impact{Kind: "identity_pool", Name: id, Dependants: grants}, p.DisplayName, opt)
		if err != nil {
			return err
		}
		if err := s.guard.Check(ctx, call, portal.ActIdentityPoolDelete, rules.NewChange(rules.KindIdentityPool, rules.OpDelete, p.DisplayName, nil, poolRule(call, p))); err != nil {
			return err
		}
		if err := call.Pace(ctx); err != nil {
			return err
		}
		return s.guard.Write(ctx, call, gate.Change{Event: portal.ActIdentityPoolDelete, Resource: p.DisplayName + " (" + id + ")",
			Steps: func(ctx context.Context, _ *gate.Write) ([]trail.Change, error) {
				ended, bindings, err := endGrants(ctx, call, s.endGrants, id, "identity pool "+p.DisplayName+" ("+id+")", bindings)
				if err != nil {
					return ended, err
				}
				removed := ended
				for i, b := range bindings {
					if err := call.Env.IAM.DeleteRoleBinding(ctx, b.ID); err != nil && !portal.Is(err, portal.NotFound) {
						return removed, portal.Partial(err, "%d of the pool's %d role bindings were removed, the pool was not", i, len(bindings))
					}
					removed = append(removed, trail.Change{Field: "role_binding", Before: bindingText(b)})
				}
				err = call.Env.Pools.DeletePool(ctx, id)
				return append(removed, forced...), err
			}})
	})
}

// bindingText describes a role binding in the audit trail.
func bindingText(b iam.RoleBinding) string {
	if b.Pattern == "" {
		return b.Role + " on " + b.Resource
	}
	return b.Role + " on " + b.Resource + " " + b.Pattern
}

// TestFilter says whether a filter matches a sample token's claims. It
// changes nothing, so every role of the unit may use it.
func (s *Pools) TestFilter(ctx context.Context, scope portal.Scope, filter string, claims map[string]any) (iam.FilterResult, error) {
	if _, _, err := s.guard.Enter(ctx, scope, access.Read, "test identity pool filters"); err != nil {
		return iam.FilterResult{}, err
	}
	if claims == nil {
		return iam.FilterResult{}, portal.Missing("claims")
	}
	return s.filters.Test(filter, claims)
}
