package identity

import (
	"context"

	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/guardrails/rules"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// What each kind is as the platform's guardrails see it: the desired
// state a write would make, the current state it replaces, and the
// existing resources a policy's report judges.

// accountChange is a service account write as the guardrails judge it.
func accountChange(call *gate.Call, op, name, description string, before *rules.ServiceAccount) rules.Change {
	ch := rules.Change{Kind: rules.KindServiceAccount, Operation: op, Name: name}
	if op != rules.OpDelete {
		ch.Resource = &rules.ServiceAccount{Name: name, Identifier: accountIdentifier(call, name), Description: description}
	}
	if before != nil {
		ch.Before = before
	}
	return ch
}

// accountRule is an existing account as policies see it.
func accountRule(call *gate.Call, a platform.ServiceAccount) *rules.ServiceAccount {
	return &rules.ServiceAccount{Name: a.DisplayName, Identifier: accountIdentifier(call, a.DisplayName), Description: a.Description}
}

func accountIdentifier(call *gate.Call, name string) string {
	o, _ := call.OrgOwner(tenancy.OrgAccount, name)
	return o.Identifier(tenancy.OrgAccount, name)
}

// Holder reads the unit's service accounts for the guardrails: one list.
func (s *Accounts) Holder() gate.Holder {
	return gate.HolderOf(rules.KindServiceAccount, func(ctx context.Context, call *gate.Call) (map[string]any, error) {
		as, err := call.Env.IAM.ListServiceAccounts(ctx)
		if err != nil {
			return nil, err
		}
		out := map[string]any{}
		for _, a := range as {
			if o, ok := call.OrgOwner(tenancy.OrgAccount, a.DisplayName); ok && o.Unit() == call.Scope.Unit.ID {
				out[a.DisplayName] = accountRule(call, a)
			}
		}
		return out, nil
	})
}

// poolRule is an identity pool as policies see it.
func poolRule(call *gate.Call, p platform.IdentityPool) *rules.IdentityPool {
	o, _ := call.OrgOwner(tenancy.OrgPool, p.DisplayName)
	return &rules.IdentityPool{Name: p.DisplayName, Identifier: o.Identifier(tenancy.OrgPool, p.DisplayName), Description: p.Description,
		Filter: p.Filter, IdentityClaim: p.IdentityClaim}
}

// Holder reads the unit's identity pools for the guardrails: one list.
func (s *Pools) Holder() gate.Holder {
	return gate.HolderOf(rules.KindIdentityPool, func(ctx context.Context, call *gate.Call) (map[string]any, error) {
		ps, err := call.Env.Pools.ListPools(ctx)
		if err != nil {
			return nil, err
		}
		out := map[string]any{}
		for _, p := range ps {
			if o, ok := call.OrgOwner(tenancy.OrgPool, p.DisplayName); ok && o.Unit() == call.Scope.Unit.ID {
				out[p.DisplayName] = poolRule(call, p)
			}
		}
		return out, nil
	})
}
