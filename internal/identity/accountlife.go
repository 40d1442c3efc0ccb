package identity

import (
	"context"
	"slices"
	"strings"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/guardrails/rules"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/store"
)

// Update changes an account's description.
func (s *Accounts) Update(ctx context.Context, scope portal.Scope, id, description string) (iam.ServiceAccount, error) {
	return gate.Writing(ctx, s.guard, scope, access.ManageIdentity, "change service accounts", portal.ActServiceAccountUpdate, id, func(ctx context.Context, call *gate.Call) (_ iam.ServiceAccount, err error) {
		description = strings.TrimSpace(description)
		if len(description) > maxDescription {
			return iam.ServiceAccount{}, portal.Invalid("description", "description must be at most %d characters", maxDescription)
		}
		a, o, err := call.Account(ctx, id)
		if err != nil {
			return iam.ServiceAccount{}, err
		}
		if call, err = s.guard.EnterOwner(ctx, call, o, access.ManageIdentity, "change", portal.ActServiceAccountUpdate, a.DisplayName); err != nil {
			return iam.ServiceAccount{}, err
		}
		var updated platform.ServiceAccount
		err = s.guard.Write(ctx, call, gate.Change{Event: portal.ActServiceAccountUpdate, Resource: a.DisplayName + " (" + id + ")",
			Rule:    accountChange(call, rules.OpUpdate, a.DisplayName, description, accountRule(call, a)),
			Changes: []trail.Change{{Field: "description", Before: a.Description, After: description}},
			Do: func(ctx context.Context) (err error) {
				updated, err = call.Env.IAM.UpdateServiceAccount(ctx, id, description)
				return err
			},
			Announce: func(ctx context.Context, _ error) { s.guard.Changed(ctx, call.Env, "accounts") }})
		if err != nil {
			return iam.ServiceAccount{}, err
		}
		v, _ := s.view(call, updated)
		return v, nil
	})
}

// Delete deletes an account, its role bindings and, when asked, its API
// keys, as one audited action that lists what it removed. An account
// that owns keys is not deleted otherwise: its clients would lose access
// without anyone having said so.
func (s *Accounts) Delete(ctx context.Context, scope portal.Scope, id string, opt portal.DeleteOptions) (iam.AccountDeletion, error) {
	return gate.Writing(ctx, s.guard, scope, access.ManageIdentity, "delete service accounts", portal.ActServiceAccountDelete, id, func(ctx context.Context, call *gate.Call) (_ iam.AccountDeletion, err error) {
		withKeys := opt.WithKeys
		a, o, err := call.Account(ctx, id)
		if err != nil {
			return iam.AccountDeletion{}, err
		}
		if call, err = s.guard.EnterOwner(ctx, call, o, access.ManageIdentity, "delete", portal.ActServiceAccountDelete, a.DisplayName); err != nil {
			return iam.AccountDeletion{}, err
		}
		keys, err := call.Env.APIKeys.ListAPIKeys(ctx, id, "")
		if err != nil {
			return iam.AccountDeletion{}, err
		}
		if len(keys) > 0 && !withKeys {
			ids := make([]string, len(keys))
			for i, k := range keys {
				ids[i] = k.ID
			}
			return iam.AccountDeletion{}, portal.New(portal.Conflict,
				"service account %s owns %d API keys (%s): delete them first, or delete the account with its keys", a.DisplayName, len(keys), strings.Join(ids, ", "))
		}
		bindings, err := call.Env.IAM.RoleBindings(ctx, "User:"+id)
		if err != nil {
			return iam.AccountDeletion{}, err
		}
		// The keys are the caller's choice (withKeys); the grants other
		// units gave the account need an Admin's name and reason.
		grants, err := principalGrants(ctx, call, s.grants, id)
		if err != nil {
			return iam.AccountDeletion{}, err
		}
		forced, err := gate.CheckDependants(call, portal.Impact{Kind: "service_account", Name: id, Dependants: grants}, a.DisplayName, opt)
		if err != nil {
			return iam.AccountDeletion{}, err
		}
		if err := s.guard.Check(ctx, call, portal.ActServiceAccountDelete, accountChange(call, rules.OpDelete, a.DisplayName, "", accountRule(call, a))); err != nil {
			return iam.AccountDeletion{}, err
		}
		if err := call.Pace(ctx); err != nil {
			return iam.AccountDeletion{}, err
		}
		var out iam.AccountDeletion
		err = s.guard.Write(ctx, call, gate.Change{Event: portal.ActServiceAccountDelete, Resource: a.DisplayName + " (" + id + ")",
			Steps: func(ctx context.Context, _ *gate.Write) ([]trail.Change, error) {
				v, _ := s.view(call, a)
				out = iam.AccountDeletion{Account: v}
				removed, bindings, err := endGrants(ctx, call, s.endGrants, id, "service account "+a.DisplayName+" ("+id+")", bindings)
				if err != nil {
					return removed, err
				}
				fail := func(err error) ([]trail.Change, error) {
					return removed, portal.Partial(err, "%d of the account's %d API keys and %d of its %d role bindings were removed, the account was not",
						len(out.Keys), len(keys), len(out.RoleBindings), len(bindings))
				}
				for _, k := range keys {
					if err := call.Env.APIKeys.DeleteAPIKey(ctx, k.ID); err != nil && !portal.Is(err, portal.NotFound) {
						return fail(err)
					}
					out.Keys = append(out.Keys, iam.APIKey{ID: k.ID, Owner: id, OwnerName: a.DisplayName, ResourceID: k.Resource,
						Resource: call.Env.KeyResource(k.Resource), Description: k.Description, Created: k.Created, State: iam.KeyDeleted})
					removed = append(removed, trail.Change{Field: "api_key", Before: k.ID + " on " + k.Resource})
				}
				for _, b := range bindings {
					if err := call.Env.IAM.DeleteRoleBinding(ctx, b.ID); err != nil && !portal.Is(err, portal.NotFound) {
						return fail(err)
					}
					out.RoleBindings = append(out.RoleBindings, b)
					removed = append(removed, trail.Change{Field: "role_binding", Before: bindingText(b)})
				}
				ids := make([]string, len(keys))
				for i, k := range keys {
					ids[i] = k.ID
				}
				if err := s.keys.DeleteKeys(ctx, ids); err != nil {
					return fail(err)
				}
				err = call.Env.IAM.DeleteServiceAccount(ctx, id)
				s.guard.Changed(ctx, call.Env, "accounts")
				return append(removed, forced...), err
			}})
		return out, err
	})
}

// Impact lists what depends on an account: its API keys (their clients
// break), the grants other units gave it, its role bindings.
func (s *Accounts) Impact(ctx context.Context, scope portal.Scope, id string) (portal.Impact, error) {
	ctx, call, err := s.guard.Enter(ctx, scope, access.Read, "read service accounts")
	if err != nil {
		return portal.Impact{}, err
	}
	a, _, err := call.Account(ctx, id)
	if err != nil {
		return portal.Impact{}, err
	}
	keys, err := call.Env.APIKeys.ListAPIKeys(ctx, id, "")
	if err != nil {
		return portal.Impact{}, err
	}
	bindings, err := call.Env.IAM.RoleBindings(ctx, "User:"+id)
	if err != nil {
		return portal.Impact{}, err
	}
	grants, err := principalGrants(ctx, call, s.grants, id)
	if err != nil {
		return portal.Impact{}, err
	}
	ids, resources := make([]string, len(keys)), make([]string, len(keys))
	for i, k := range keys {
		ids[i], resources[i] = k.ID, k.Resource
	}
	unit := call.Scope.Unit.ID
	im := portal.Impact{Kind: "service_account", Name: a.DisplayName}
	im.Dependants = append(append(keyDependants(unit, ids, resources), grants...), bindingDependants(unit, bindings)...)
	return im, nil
}

// WithImpact lets deletes see the zone's grants among an account's
// dependants, and end those of an account being deleted.
func (s *Accounts) WithImpact(g store.ZoneGrants, end GrantEnder) *Accounts {
	s.grants, s.endGrants = g, end
	return s
}

// Use lists the connectors that run as the account (kafka.auth.mode
// SERVICE_ACCOUNT). Connectors that use one of its API keys cannot be
// told: Confluent Cloud masks kafka.api.key on reads.
func (s *Accounts) Use(ctx context.Context, scope portal.Scope, id string) (iam.AccountUse, error) {
	ctx, call, err := s.guard.Enter(ctx, scope, access.Read, "read service accounts")
	if err != nil {
		return iam.AccountUse{}, err
	}
	if _, _, err := call.Account(ctx, id); err != nil {
		return iam.AccountUse{}, err
	}
	connectors, err := call.Env.Connectors.ListConnectors(ctx)
	if err != nil {
		return iam.AccountUse{}, err
	}
	var out iam.AccountUse
	for _, c := range connectors {
		if c.Config["kafka.service.account.id"] == id {
			out.Connectors = append(out.Connectors, c.Name)
		}
	}
	slices.Sort(out.Connectors)
	return out, nil
}
