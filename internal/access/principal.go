package access

import (
	"slices"
	"strings"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// Resolver turns identities into principals by mapping their groups to
// roles, following the deployment's tenancy.
type Resolver struct {
	tenancy       *tenancy.Live
	platformAdmin string
}

// NewResolver returns a resolver for the tenancy in force (resolved per
// call, so that onboarded units count at once). Members of platformAdmin
// are Super Admin everywhere.
func NewResolver(t *tenancy.Live, platformAdmin string) *Resolver {
	return &Resolver{tenancy: t, platformAdmin: platformAdmin}
}

// Tenancy is the tenancy in force: roles resolved from it stay right
// while it is.
func (r *Resolver) Tenancy() *tenancy.Tenancy { return r.tenancy.Current() }

// Resolve computes roles: in each unit the highest role any group grants,
// with the groups that grant it. Group names compare case-insensitively
// because identity providers differ in how they spell them.
func (r *Resolver) Resolve(id portal.Identity) *portal.Principal {
	id.Groups = slices.Clone(id.Groups)
	matching := func(groups []string) []string {
		var out []string
		for _, g := range groups {
			if slices.ContainsFunc(id.Groups, func(x string) bool { return strings.EqualFold(x, g) }) {
				out = append(out, g)
			}
		}
		return out
	}
	admin := r.platformAdmin != "" && len(matching([]string{r.platformAdmin})) > 0
	grants := map[string]portal.Grant{}
	for _, u := range r.tenancy.Current().Units() {
		var g portal.Grant
		if admin {
			g = portal.Grant{Role: portal.SuperAdmin, Groups: []string{r.platformAdmin}}
		} else if m := matching(u.LandingZone.SuperAdminGroups); len(m) > 0 {
			g = portal.Grant{Role: portal.SuperAdmin, Groups: m}
		} else if m := matching(u.AdminGroups); len(m) > 0 {
			g = portal.Grant{Role: portal.Admin, Groups: m}
		} else if m := matching(u.DeveloperGroups); len(m) > 0 {
			g = portal.Grant{Role: portal.Developer, Groups: m}
		} else if m := matching(u.ViewerGroups); len(m) > 0 {
			g = portal.Grant{Role: portal.Viewer, Groups: m}
		}
		if g.Role > portal.NoRole {
			grants[u.ID] = g
		}
	}
	return portal.NewPrincipal(id, admin, grants)
}
