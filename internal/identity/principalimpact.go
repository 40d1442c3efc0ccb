package identity

import (
	"context"

	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/grant"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/store"
)

// GrantEnder ends, ahead of a principal's delete that call makes, the
// grants for it (their role bindings removed, each with its own audit
// event naming the delete), and returns the delete's changes; an error
// stops the delete.
type GrantEnder func(ctx context.Context, call *gate.Call, principal, cause string) ([]trail.Change, error)

// principalGrants are the impact's part of the grants other units gave
// a principal: each is live (another unit's consent, whose bindings go
// with the principal).
func principalGrants(ctx context.Context, call *gate.Call, grants store.ZoneGrants, id string) ([]portal.Dependant, error) {
	if grants == nil {
		return nil, nil
	}
	recs, err := grants.ZoneGrants(ctx, call.Scope.Zone().ID, call.Scope.Stage.Name, 10_000)
	if err != nil {
		return nil, err
	}
	var out []portal.Dependant
	for _, g := range recs {
		if g.Principal != id || g.State != grant.GrantActive {
			continue
		}
		detail := g.Access + " on " + g.Pattern + " given by " + g.Owner
		if !g.Expires.IsZero() {
			detail += " until " + g.Expires.UTC().Format("2006-01-02")
		}
		out = append(out, portal.Dependant{Kind: "grant", Name: g.ID, Unit: g.Grantee, Detail: detail, Live: true})
	}
	return out, nil
}

// bindingDependants are a principal's role bindings: they go with it.
func bindingDependants(unit string, bindings []iam.RoleBinding) []portal.Dependant {
	out := make([]portal.Dependant, 0, len(bindings))
	for _, b := range bindings {
		out = append(out, portal.Dependant{Kind: "role_binding", Name: b.ID, Unit: unit, Detail: bindingText(b) + " (removed with it)"})
	}
	return out
}

// keyDependants are an account's API keys: the clients using them break.
func keyDependants(unit string, keys []string, resources []string) []portal.Dependant {
	out := make([]portal.Dependant, 0, len(keys))
	for i, k := range keys {
		out = append(out, portal.Dependant{Kind: "api_key", Name: k, Unit: unit, Detail: "for " + resources[i] + "; clients using it are refused", Live: true})
	}
	return out
}

// endGrants ends the grants for a principal about to be deleted, ahead
// of its delete: no moment exists in which the principal is gone
// and another unit's consent to it is still recorded active. The
// principal's bindings are then read again, without those the grants
// took away.
func endGrants(ctx context.Context, call *gate.Call, end GrantEnder, id, what string, bindings []iam.RoleBinding) ([]trail.Change, []iam.RoleBinding, error) {
	if end == nil {
		return nil, bindings, nil
	}
	ended, err := end(ctx, call, id, what+" is deleted by "+call.Principal.Actor())
	if err != nil || len(ended) == 0 {
		return ended, bindings, err
	}
	bindings, err = call.Env.IAM.RoleBindings(ctx, "User:"+id)
	return ended, bindings, err
}
