package identity

import (
	"context"
	"strconv"

	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/store"
)

// GrantCloser records as revoked the active grants of a principal that
// call's unit deleted.
type GrantCloser func(ctx context.Context, call *gate.Call, principal string) (int, error)

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
		if g.Principal != id || g.State != portal.GrantActive {
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
func bindingDependants(unit string, bindings []portal.RoleBinding) []portal.Dependant {
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

// closeGrants closes a deleted principal's grants, saying in the log
// (and the grants' trail) what it could not.
func closeGrants(ctx context.Context, g *gate.Guard, call *gate.Call, close GrantCloser, id string, had int) {
	if close == nil || had == 0 {
		return
	}
	n, err := close(context.WithoutCancel(ctx), call, id)
	if err != nil {
		g.Log().ErrorContext(ctx, "the grants of a deleted principal could not all be closed; revoke them by hand", "principal", id,
			"closed", strconv.Itoa(n)+" of "+strconv.Itoa(had), "err", err)
	}
}
