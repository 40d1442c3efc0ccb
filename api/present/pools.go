package present

import (
	"github.com/edh-platform/rms-portal/internal/portal/iam"
	"github.com/edh-platform/rms-portal/internal/wire"
)

// Pool is an identity pool; withBindings adds its role bindings (its detail).
func Pool(p iam.Pool, withBindings bool) wire.IdentityPool {
	out := wire.IdentityPool{ID: p.ID, Name: p.Name, Identifier: p.Identifier, BusinessUnit: p.BU, Outside: p.OutsideConvention,
		ReadOnly: p.ReadOnly, Type: p.Type, Description: p.Description,
		IdentityClaim: p.IdentityClaim, Filter: p.Filter, State: p.State}
	if withBindings {
		out.RoleBindings = Bindings(p.RoleBindings)
	}
	return out
}
