package portal

import (
	"context"
	"fmt"
	"maps"
)

// Role is what a principal may do in one business unit. Roles are ordered:
// a higher role can do everything a lower one can.
type Role int

// Roles from lowest to highest.
const (
	NoRole Role = iota
	Viewer
	Developer
	Admin
	SuperAdmin
)

var roleNames = [...]string{"none", "viewer", "developer", "admin", "super_admin"}

// String returns the role's name as used in the API ("developer", ...).
func (r Role) String() string {
	if r < NoRole || r > SuperAdmin {
		return fmt.Sprintf("role(%d)", int(r))
	}
	return roleNames[r]
}

// ParseRole is the role of a name as String gives it.
func ParseRole(name string) (Role, bool) {
	for r, n := range roleNames {
		if n == name {
			return Role(r), true
		}
	}
	return NoRole, false
}

// Title returns the role's name for people ("Super Admin").
func (r Role) Title() string {
	if r < NoRole || r > SuperAdmin {
		return r.String()
	}
	return [...]string{"None", "Viewer", "Developer", "Admin", "Super Admin"}[r]
}

// Identity is what an identity provider says about a caller.
type Identity struct {
	Subject  string
	Name     string
	Username string
	Groups   []string
	Service  bool
	// GroupsOverage is true when the token said that the caller's groups
	// did not fit into it (Entra ID's _claim_names), so Groups is partial.
	GroupsOverage bool
}

// Principal is an authenticated caller with its roles already resolved.
// Principals are immutable once built.
type Principal struct {
	Subject  string
	Name     string
	Username string
	Groups   []string
	// Service is true for a machine identity (client credentials).
	Service bool
	// PlatformAdmin grants Super Admin everywhere and the admin area.
	PlatformAdmin bool
	// GroupsOverage: the token's group list was incomplete.
	GroupsOverage bool

	grants map[string]Grant
}

// Grant is a principal's role in one business unit and the groups that
// gave it.
type Grant struct {
	Role   Role
	Groups []string
}

// NewPrincipal builds a principal for an identity with its grants per
// business unit. Access resolution builds principals; tests use it to set
// up callers without going through groups.
func NewPrincipal(id Identity, platformAdmin bool, grants map[string]Grant) *Principal {
	return &Principal{Subject: id.Subject, Name: id.Name, Username: id.Username, Groups: id.Groups,
		Service: id.Service, PlatformAdmin: platformAdmin, GroupsOverage: id.GroupsOverage, grants: maps.Clone(grants)}
}

// PrincipalWithRoles is a principal with explicit roles and no groups,
// for tests and internal callers (the demo seed).
func PrincipalWithRoles(subject string, roles map[string]Role) *Principal {
	grants := map[string]Grant{}
	for bu, r := range roles {
		grants[bu] = Grant{Role: r}
	}
	return NewPrincipal(Identity{Subject: subject, Username: subject}, false, grants)
}

// Role returns the principal's role in a business unit.
func (p *Principal) Role(unit string) Role {
	if p == nil {
		return NoRole
	}
	return p.grants[unit].Role
}

// Grant returns the principal's role in a unit with the groups that gave it.
func (p *Principal) Grant(unit string) Grant {
	if p == nil {
		return Grant{}
	}
	return p.grants[unit]
}

// Actor names the principal in audit events: the username, or the
// subject when there is none.
func (p *Principal) Actor() string {
	if p == nil {
		return ""
	}
	if p.Username != "" {
		return p.Username
	}
	return p.Subject
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
