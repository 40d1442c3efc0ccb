// Package access is the authorization policy: which role may do what in
// which stage. It is pure: no I/O, no clock, and every combination is
// table-tested. Services call it at the top of every operation.
package access

import (
	"fmt"

	"github.com/edh-platform/rms-portal/internal/fault"
	"github.com/edh-platform/rms-portal/internal/tenancy"
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

// Title returns the role's name for people ("Super Admin").
func (r Role) Title() string {
	return [...]string{"None", "Viewer", "Developer", "Admin", "Super Admin"}[r]
}

// Action is a class of operation that the policy distinguishes.
type Action int

// Actions.
const (
	// Read covers every read: lists, details, configurations, metrics.
	Read Action = iota
	// Write covers creating, changing and deleting topics, connectors and
	// schemas, and pausing, resuming and restarting connectors.
	Write
	// ManageIdentity covers creating, changing and deleting service
	// accounts and identity pools.
	ManageIdentity
)

// Actions lists every action, for exhaustive tests and documentation.
var Actions = []Action{Read, Write, ManageIdentity}

// Roles lists every role, for exhaustive tests and documentation.
var Roles = []Role{NoRole, Viewer, Developer, Admin, SuperAdmin}

func (a Action) String() string {
	return [...]string{"read", "write", "manage-identity"}[a]
}

// minimum is the lowest role that may perform an action at all.
func (a Action) minimum() Role {
	switch a {
	case Read:
		return Viewer
	case Write:
		return Developer
	default:
		return Admin
	}
}

// Decision is the policy's answer for one role, action and stage.
type Decision struct {
	Allowed bool
	// Bypass is true when the action is allowed only because the role may
	// write in a read-only stage; pages use it to say so.
	Bypass bool
	// Denial is the error kind when not allowed.
	Denial fault.Kind
}

// Decide applies the policy. Without a role the unit is invisible, so the
// denial is NotFound rather than Forbidden: callers must not learn which
// business units exist.
func Decide(role Role, action Action, stage tenancy.Stage) Decision {
	switch {
	case role <= NoRole:
		return Decision{Denial: fault.NotFound}
	case role < action.minimum():
		return Decision{Denial: fault.InsufficientRole}
	case action == Read || !stage.ReadOnly:
		return Decision{Allowed: true}
	case role >= Admin:
		return Decision{Allowed: true, Bypass: true}
	default:
		return Decision{Denial: fault.ReadOnlyEnvironment}
	}
}

// Check applies the policy for a principal in a scope and returns the
// domain error to give the caller, or nil. what describes the operation
// for the message ("create topics").
func Check(p *Principal, scope tenancy.Scope, action Action, what string) error {
	if p == nil {
		return fault.New(fault.Unauthenticated, "sign-in required")
	}
	role := p.Role(scope.Unit.ID)
	d := Decide(role, action, scope.Stage)
	switch {
	case d.Allowed:
		return nil
	case d.Denial == fault.NotFound:
		return UnitNotFound(scope.Unit.ID)
	case d.Denial == fault.InsufficientRole:
		return fault.New(fault.InsufficientRole, "your role in %s is %s; to %s you need the %s role or higher",
			scope.Unit.ID, role, what, action.minimum())
	default:
		return fault.New(fault.ReadOnlyEnvironment, "stage %s is read-only: %ss may not %s there; ask an Admin of %s",
			scope.Stage.Name, role, what, scope.Unit.ID)
	}
}

// UnitNotFound is the error for a business unit that does not exist or in
// which the caller has no role; the two are indistinguishable on purpose.
func UnitNotFound(id string) error {
	e := fault.New(fault.NotFound, "business unit %q not found", id)
	e.Field = "bu"
	return e
}
