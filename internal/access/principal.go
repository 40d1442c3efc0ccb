package access

import (
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// Principal is an authenticated caller with its roles already resolved.
type Principal struct {
	Subject  string
	Name     string
	Username string
	Groups   []string
	// Service is true for a machine identity (client credentials).
	Service bool
	// PlatformAdmin grants Super Admin everywhere and the admin area.
	PlatformAdmin bool

	roles map[string]Role
}

// Role returns the principal's role in a business unit.
func (p *Principal) Role(unit string) Role {
	if p == nil {
		return NoRole
	}
	return p.roles[unit]
}

// UnitRole pairs a business unit with the principal's role in it.
type UnitRole struct {
	Unit *tenancy.BusinessUnit
	Role Role
}

// Display returns the best human name for the principal.
func (p *Principal) Display() string {
	switch {
	case p.Name != "":
		return p.Name
	case p.Username != "":
		return p.Username
	}
	return p.Subject
}

type principalKey struct{}

// WithPrincipal returns a context carrying p.
func WithPrincipal(ctx context.Context, p *Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// PrincipalFrom returns the principal carried by ctx, or nil.
func PrincipalFrom(ctx context.Context) *Principal {
	p, _ := ctx.Value(principalKey{}).(*Principal)
	return p
}

// Identity is what an identity provider says about a caller.
type Identity struct {
	Subject  string
	Name     string
	Username string
	Groups   []string
	Service  bool
}

// Resolver turns identities into principals by mapping their groups to
// roles, following the deployment's tenancy.
type Resolver struct {
	tenancy       *tenancy.Tenancy
	platformAdmin string
}

// NewResolver returns a resolver for a tenancy. Members of platformAdmin
// are Super Admin everywhere.
func NewResolver(t *tenancy.Tenancy, platformAdmin string) *Resolver {
	return &Resolver{tenancy: t, platformAdmin: platformAdmin}
}

// Resolve computes roles: in each unit the highest role any group grants.
// Group names compare case-insensitively because identity providers differ
// in how they spell them.
func (r *Resolver) Resolve(id Identity) *Principal {
	p := &Principal{
		Subject: id.Subject, Name: id.Name, Username: id.Username,
		Groups: slices.Clone(id.Groups), Service: id.Service,
		roles: map[string]Role{},
	}
	has := func(groups []string) bool {
		for _, g := range groups {
			if slices.ContainsFunc(id.Groups, func(x string) bool { return strings.EqualFold(x, g) }) {
				return true
			}
		}
		return false
	}
	p.PlatformAdmin = r.platformAdmin != "" && has([]string{r.platformAdmin})
	for _, u := range r.tenancy.Units() {
		role := NoRole
		switch {
		case p.PlatformAdmin, has(u.LandingZone.SuperAdminGroups):
			role = SuperAdmin
		case has(u.AdminGroups):
			role = Admin
		case has(u.DeveloperGroups):
			role = Developer
		case has(u.ViewerGroups):
			role = Viewer
		}
		if role > NoRole {
			p.roles[u.ID] = role
		}
	}
	return p
}

// NewPrincipal builds a principal with explicit roles; tests use it to set
// up callers without going through groups.
func NewPrincipal(subject string, roles map[string]Role) *Principal {
	return &Principal{Subject: subject, Username: subject, roles: maps.Clone(roles)}
}
