package access

import "github.com/edh-platform/rms-portal/internal/portal"

// GrantStep is a step in the life of a grant between two units of a
// landing zone: the grantee asks, the owner reviews, either side revokes.
type GrantStep int

// Grant steps.
const (
	// ReadGrants lists and reads the grants a unit gave or received.
	ReadGrants GrantStep = iota
	// AskGrant asks another unit for access, for one's own principal.
	AskGrant
	// WithdrawGrant closes one's own unit's request.
	WithdrawGrant
	// ReviewGrant approves (makes the role bindings) or rejects a request
	// on the unit's topics.
	ReviewGrant
	// RevokeGrant removes an active grant's bindings, from either side.
	RevokeGrant
)

// GrantSteps lists every step, for exhaustive tests and documentation.
var GrantSteps = []GrantStep{ReadGrants, AskGrant, WithdrawGrant, ReviewGrant, RevokeGrant}

func (s GrantStep) String() string {
	return [...]string{"read grants", "ask for access", "withdraw a request", "review requests", "revoke grants"}[s]
}

// DecideGrant says whether a role of the unit on its side of a grant may
// take a step. Reading needs any role; every other step is an Admin's
// (Super Admins included), since a grant changes what a principal may do.
// A stage's read-only, change-request and four-eyes switches do not apply:
// a grant is decided by two people of two units by construction (the
// service refuses a requester's approval of their own request), and
// revoking only ever takes access away.
func DecideGrant(role portal.Role, step GrantStep) Decision {
	switch {
	case role <= portal.NoRole:
		return Decision{Denial: portal.NotFound}
	case step == ReadGrants, role >= portal.Admin:
		return Decision{Allowed: true}
	}
	return Decision{Denial: portal.InsufficientRole}
}

// CheckGrant applies DecideGrant to a principal in unit: the error to
// give, or nil.
func CheckGrant(p *portal.Principal, unit string, step GrantStep) error {
	if p == nil {
		return portal.New(portal.Unauthenticated, "sign-in required")
	}
	role := p.Role(unit)
	switch DecideGrant(role, step).Denial {
	case "":
		return nil
	case portal.NotFound:
		return UnitNotFound(unit)
	}
	return portal.New(portal.InsufficientRole, "your role in %s is %s; to %s you need the admin role or higher", unit, role, step)
}
