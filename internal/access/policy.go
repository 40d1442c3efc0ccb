// Package access is the authorization policy: which role may do what in
// which stage. It is pure: no I/O, no clock, and every combination is
// table-tested. Services call it at the top of every operation.
package access

import (
	"strings"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

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
	// ReadAudit covers reading the unit's audit trail: Admins and up, in
	// any stage (it changes nothing).
	ReadAudit
	// RequestChange covers filing a change request: Developers and up, in
	// any stage (a request changes nothing until an Admin approves it).
	RequestChange
)

// Actions lists every action, for exhaustive tests and documentation.
var Actions = []Action{Read, Write, ManageIdentity, ReadAudit, RequestChange}

// Roles lists every role, for exhaustive tests and documentation.
var Roles = []portal.Role{portal.NoRole, portal.Viewer, portal.Developer, portal.Admin, portal.SuperAdmin}

func (a Action) String() string {
	return [...]string{"read", "write", "manage-identity", "read-audit", "request-change"}[a]
}

// minimum is the lowest role that may perform an action at all.
func (a Action) minimum() portal.Role {
	switch a {
	case Read:
		return portal.Viewer
	case Write, RequestChange:
		return portal.Developer
	default:
		return portal.Admin
	}
}

// readOnly reports whether an action changes nothing, so that read-only
// stages do not concern it.
func (a Action) readOnly() bool { return a == Read || a == ReadAudit || a == RequestChange }

// Decision is the policy's answer for one role, action and stage.
type Decision struct {
	Allowed bool
	// Bypass is true when the action is allowed only because the role may
	// write in a read-only stage; pages use it to say so.
	Bypass bool
	// Denial is the error kind when not allowed.
	Denial portal.Kind
}

// Decide applies the policy. Without a role the unit is invisible, so the
// denial is NotFound rather than Forbidden: callers must not learn which
// business units exist.
func Decide(role portal.Role, action Action, stage tenancy.Stage) Decision {
	switch {
	case role <= portal.NoRole:
		return Decision{Denial: portal.NotFound}
	case role < action.minimum():
		return Decision{Denial: portal.InsufficientRole}
	case action.readOnly():
		return Decision{Allowed: true}
	case stage.FourEyes:
		// Nobody changes the stage alone: an approval of a change request
		// is the way (the gate lifts this for the approved plan).
		return Decision{Denial: portal.ReadOnlyEnvironment}
	case !stage.ReadOnly && !(stage.Changes == tenancy.ChangesRequest && role < portal.Admin):
		return Decision{Allowed: true}
	case role >= portal.Admin:
		return Decision{Allowed: true, Bypass: stage.ReadOnly}
	default:
		return Decision{Denial: portal.ReadOnlyEnvironment}
	}
}

// Check applies the policy for a principal in a scope and returns the
// domain error to give the caller, or nil. what describes the operation
// for the message ("create topics").
func Check(p *portal.Principal, scope tenancy.Scope, action Action, what string) error {
	if p == nil {
		return portal.New(portal.Unauthenticated, "sign-in required")
	}
	role := p.Role(scope.Unit.ID)
	d := Decide(role, action, scope.Stage)
	switch {
	case d.Allowed:
		return nil
	case d.Denial == portal.NotFound:
		return UnitNotFound(scope.Unit.ID)
	case d.Denial == portal.InsufficientRole:
		return portal.New(portal.InsufficientRole, "your role in %s is %s; to %s you need the %s role or higher",
			scope.Unit.ID, role, what, action.minimum())
	case scope.Stage.FourEyes:
		return portal.New(portal.ReadOnlyEnvironment, "stage %s takes four eyes: nobody may %s there alone; file a change request "+
			"(POST /api/v1/%s/%s/change-requests, or the Change requests page) that another Admin of %s approves",
			scope.Stage.Name, what, scope.Unit.ID, scope.Stage.Name, scope.Unit.ID)
	case !scope.Stage.ReadOnly:
		return portal.New(portal.ReadOnlyEnvironment, "in stage %s, %ss change through change requests: file one (POST /api/v1/%s/%s/change-requests, "+
			"or the Change requests page) that an Admin of %s approves", scope.Stage.Name, role, scope.Unit.ID, scope.Stage.Name, scope.Unit.ID)
	default:
		return portal.New(portal.ReadOnlyEnvironment, "stage %s is read-only%s: %ss may not %s there; file a change request "+
			"(POST /api/v1/%s/%s/change-requests, or the Change requests page) that an Admin of %s approves",
			scope.Stage.Name, ReadOnlyReason(scope.Stage), role, what, scope.Unit.ID, scope.Stage.Name, scope.Unit.ID)
	}
}

// ReadOnlyReason says why a stage is read-only and until when, when a
// switch says so: " (reason: change freeze, until 2026-12-01 18:00 UTC)".
func ReadOnlyReason(st tenancy.Stage) string {
	var parts []string
	if st.Reason != "" {
		parts = append(parts, "reason: "+st.Reason)
	}
	if !st.Until.IsZero() {
		parts = append(parts, "until "+st.Until.UTC().Format("2006-01-02 15:04 UTC"))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// UnitNotFound is the error for a business unit that does not exist, or
// in which the caller has no role outside the landing zones they work in
// (NoRoleIn inside them); the two are indistinguishable on purpose.
func UnitNotFound(id string) error {
	e := portal.New(portal.NotFound, "business unit %q not found", id)
	e.Field = "bu"
	return e
}

// NoRoleIn is the error for a unit of the caller's landing zone in which
// the caller has no role: not found, as DESIGN has it, but saying why.
func NoRoleIn(id string) error {
	e := portal.New(portal.NotFound, "you have no role in %s: its Admins can add you to one of its groups", id)
	e.Field = "bu"
	return e
}

// DecideData says whether a role may read records in a stage: the stage's
// data_access switch names the lowest role that may (or none).
func DecideData(role portal.Role, stage tenancy.Stage) Decision {
	switch {
	case role <= portal.NoRole:
		return Decision{Denial: portal.NotFound}
	case stage.DataAccess == tenancy.DataViewers:
		return Decision{Allowed: true}
	case stage.DataAccess == tenancy.DataDevelopers && role >= portal.Developer:
		return Decision{Allowed: true}
	case stage.DataAccess == tenancy.DataDevelopers:
		return Decision{Denial: portal.InsufficientRole}
	}
	return Decision{Denial: portal.DataAccessDisabled}
}

// DecideMasking says whether a role's record reads in a stage mask the
// fields their schema tags as sensitive: in a stage whose masking is on,
// for roles below unmasked (the lowest role that sees them whole).
func DecideMasking(role portal.Role, stage tenancy.Stage, unmasked portal.Role) bool {
	return stage.Masking == tenancy.MaskingTags && role < unmasked
}

// CheckData applies DecideData for a principal in a scope.
func CheckData(p *portal.Principal, scope tenancy.Scope) error {
	if p == nil {
		return portal.New(portal.Unauthenticated, "sign-in required")
	}
	role := p.Role(scope.Unit.ID)
	switch d := DecideData(role, scope.Stage); d.Denial {
	case "":
		return nil
	case portal.NotFound:
		return UnitNotFound(scope.Unit.ID)
	case portal.InsufficientRole:
		return portal.New(portal.InsufficientRole, "reading records in stage %s needs the developer role or higher; yours in %s is %s",
			scope.Stage.Name, scope.Unit.ID, role)
	default:
		return portal.New(portal.DataAccessDisabled, "reading records is turned off in stage %s (data_access: off); ask the platform team", scope.Stage.Name)
	}
}

// DecideProduce says whether a role may write records by hand in a stage:
// the stage's produce switch names the lowest role that may (or none),
// and a stage that is read-only at the time lets only Admins and up, as
// for any change.
func DecideProduce(role portal.Role, stage tenancy.Stage) Decision {
	switch {
	case role <= portal.NoRole:
		return Decision{Denial: portal.NotFound}
	case stage.Produce != tenancy.ProduceDevelopers && stage.Produce != tenancy.ProduceAdmins:
		return Decision{Denial: portal.ProduceDisabled}
	case role < portal.Developer, stage.Produce == tenancy.ProduceAdmins && role < portal.Admin:
		return Decision{Denial: portal.InsufficientRole}
	case !stage.ReadOnly:
		return Decision{Allowed: true}
	case role >= portal.Admin:
		return Decision{Allowed: true, Bypass: true}
	}
	return Decision{Denial: portal.ReadOnlyEnvironment}
}

// CheckProduce applies DecideProduce for a principal in a scope.
func CheckProduce(p *portal.Principal, scope tenancy.Scope) error {
	if p == nil {
		return portal.New(portal.Unauthenticated, "sign-in required")
	}
	role := p.Role(scope.Unit.ID)
	switch d := DecideProduce(role, scope.Stage); d.Denial {
	case "":
		return nil
	case portal.NotFound:
		return UnitNotFound(scope.Unit.ID)
	case portal.InsufficientRole:
		least := "developer"
		if scope.Stage.Produce == tenancy.ProduceAdmins {
			least = "admin"
		}
		return portal.New(portal.InsufficientRole, "producing records in stage %s needs the %s role or higher (produce: %s); yours in %s is %s",
			scope.Stage.Name, least, scope.Stage.Produce, scope.Unit.ID, role)
	case portal.ReadOnlyEnvironment:
		return portal.New(portal.ReadOnlyEnvironment, "stage %s is read-only%s: %ss may not produce records there; ask an Admin of %s",
			scope.Stage.Name, ReadOnlyReason(scope.Stage), role, scope.Unit.ID)
	default:
		return portal.New(portal.ProduceDisabled, "producing records is turned off in stage %s (produce: off); ask the platform team", scope.Stage.Name)
	}
}
