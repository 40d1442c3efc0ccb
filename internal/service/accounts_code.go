package service

import (
	"context"
	"fmt"
	"strings"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/plans"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// AsCode is the service accounts' part of resources as code. Accounts
// are never pruned: deleting one deletes what its applications run with.
func (s *ServiceAccounts) AsCode() plans.Kind { return accountCode{s} }

type accountCode struct{ s *ServiceAccounts }

func (accountCode) Kind() string          { return portal.KindServiceAccount }
func (accountCode) Action() access.Action { return access.ManageIdentity }
func (accountCode) Prunes() bool          { return false }

// Observe lists the organisation's accounts (one request, cached).
func (accountCode) Observe(ctx context.Context, call *gate.Call, _ []portal.Resource) (plans.Observed, error) {
	return call.Env.IAM.ListServiceAccounts(ctx)
}

// Prune is never asked of accounts.
func (accountCode) Prune(*gate.Call, plans.Observed, map[string]bool) []*plans.Step { return nil }

// Export declares the unit's accounts that the portal made (they have a
// type).
func (k accountCode) Export(_ context.Context, call *gate.Call, o plans.Observed) ([]portal.Resource, error) {
	var out []portal.Resource
	for _, a := range o.([]platform.ServiceAccount) {
		v, ok := k.s.view(call, a)
		if !ok || v.Type == "" {
			continue // not made by the portal: no type to declare
		}
		out = append(out, portal.Resource{Kind: portal.KindServiceAccount, Name: v.Identifier, Description: v.Description,
			Account: &portal.AccountDecl{Type: v.Type}})
	}
	return out, nil
}

// Plan plans a declared account: created when missing; an account keeps
// the description it was created with (a difference is a warning).
func (k accountCode) Plan(_ context.Context, call *gate.Call, o plans.Observed, r portal.Resource) (*plans.Step, error) {
	s := k.s
	st := &plans.Step{Change: portal.PlannedChange{Kind: "service-account"}}
	scope := call.Named()
	in := portal.NewServiceAccount{Name: s.guard.Tenancy().RebaseOrg(tenancy.OrgAccount, call.Scope.Unit, r.Name, r.Account.Type), Type: r.Account.Type, Description: strings.TrimSpace(r.Description)}
	var v portal.Validation
	name := s.check(call, in, "", &v)
	st.Change.Name, st.Key = name, "service-account/"+name
	st.Change.Errors = v.Problems
	var exists bool
	for _, a := range o.([]platform.ServiceAccount) {
		if name != "" && a.DisplayName == name {
			exists = true
			st.State = a.ID + " " + a.Description
			if a.Description != in.Description {
				st.Change.Warnings = append(st.Change.Warnings, fmt.Sprintf("the account's description is %q: the portal keeps the description an account was created with", a.Description))
			}
		}
	}
	if !exists {
		st.Diff("type", nil, plans.Ptr(in.Type))
		st.Diff("description", nil, plans.Ptr(in.Description))
	}
	st.Do = func(ctx context.Context) error {
		_, err := s.Create(ctx, scope, in)
		return err
	}
	st.Decide(exists)
	return st, nil
}
