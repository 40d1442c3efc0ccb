// Package service holds the portal's behaviour: one service per resource
// type. Every operation starts by resolving the caller's scope and asking
// the access policy, before any upstream call; both front doors (HTML and
// JSON) call these methods and nothing else.
package service

import (
	"context"
	"strings"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/audit"
	"github.com/edh-platform/rms-portal/internal/fault"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// Guard resolves a request's scope and applies the access policy. It fails
// closed: without a principal in the context nothing is allowed.
type Guard struct {
	tenancy *tenancy.Tenancy
	envs    *platform.Environments
	audit   audit.Recorder
}

// NewGuard returns the guard shared by every service.
func NewGuard(t *tenancy.Tenancy, envs *platform.Environments, rec audit.Recorder) *Guard {
	return &Guard{tenancy: t, envs: envs, audit: rec}
}

// Tenancy returns the deployment's tenancy.
func (g *Guard) Tenancy() *tenancy.Tenancy { return g.tenancy }

// Call is an authorized operation in progress: who, where, and the
// environment that serves the scope.
type Call struct {
	Principal *access.Principal
	Scope     tenancy.Scope
	Role      access.Role
	Env       *platform.Environment
	// WholeCluster is true when a Super Admin views the main business unit
	// of a shared landing zone: the whole cluster is visible, including
	// resources outside the naming convention.
	WholeCluster bool
}

// Enter authorizes action in bu/stage for the caller in ctx. what describes
// the operation in refusals ("create topics").
func (g *Guard) Enter(ctx context.Context, bu, stage string, action access.Action, what string) (*Call, error) {
	p := access.PrincipalFrom(ctx)
	if p == nil {
		return nil, fault.New(fault.Unauthenticated, "sign-in required")
	}
	unit, ok := g.tenancy.Unit(bu)
	if !ok || p.Role(bu) == access.NoRole {
		return nil, access.UnitNotFound(bu)
	}
	st, ok := g.tenancy.Stage(stage)
	if !ok {
		e := fault.New(fault.NotFound, "stage %q not found; stages are %s", stage, strings.Join(g.tenancy.StageNames(), ", "))
		e.Field = "stage"
		return nil, e
	}
	scope := tenancy.Scope{Unit: unit, Stage: st}
	if err := access.Check(p, scope, action, what); err != nil {
		return nil, err
	}
	env, err := g.envs.Get(unit.LandingZone.ID, st.Name)
	if err != nil {
		return nil, fault.Wrap(err, fault.Internal, "no environment is configured for %s", scope)
	}
	role := p.Role(bu)
	return &Call{Principal: p, Scope: scope, Role: role, Env: env, WholeCluster: wholeCluster(unit, role)}, nil
}

func wholeCluster(u *tenancy.BusinessUnit, r access.Role) bool {
	return u.IsMain() && r >= access.SuperAdmin
}

// Outlook is what the caller may do in a scope, for pages to show or hide
// controls. It is never the enforcement: every operation checks again.
type Outlook struct {
	Scope        tenancy.Scope
	Role         access.Role
	Write        access.Decision
	Manage       access.Decision
	WholeCluster bool
}

// Outlook describes the caller's standing in bu/stage; ok is false when
// the scope does not exist or the caller has no role there.
func (g *Guard) Outlook(ctx context.Context, bu, stage string) (Outlook, bool) {
	p := access.PrincipalFrom(ctx)
	unit, uok := g.tenancy.Unit(bu)
	st, sok := g.tenancy.Stage(stage)
	if p == nil || !uok || !sok || p.Role(bu) == access.NoRole {
		return Outlook{}, false
	}
	role := p.Role(bu)
	return Outlook{
		Scope: tenancy.Scope{Unit: unit, Stage: st}, Role: role,
		Write: access.Decide(role, access.Write, st), Manage: access.Decide(role, access.ManageIdentity, st),
		WholeCluster: wholeCluster(unit, role),
	}, true
}

// record audits a write.
func (g *Guard) record(ctx context.Context, c *Call, action, resource string, err error) {
	outcome, detail := "ok", ""
	if err != nil {
		outcome, detail = string(fault.KindOf(err)), err.Error()
	}
	g.audit.Record(ctx, audit.Event{
		Actor: c.Principal.Username, Action: action, Resource: resource,
		Scope: c.Scope.String(), Outcome: outcome, Detail: detail,
	})
}

// identifier adds to v what is wrong with an identifier sent as field
// (missing, or not usable in a name; label starts the message), and says
// whether it can be qualified.
func identifier(v *fault.Validation, field, label, name string) bool {
	if strings.TrimSpace(name) == "" {
		v.Add(fault.Missing(field))
		return false
	}
	if p := tenancy.IdentifierProblem(tenancy.Normalise(name)); p != "" {
		v.Add(fault.Invalid(field, "%s %s", label, p))
		return false
	}
	return true
}

// ownership is who owns a resource name by the naming convention.
type ownership struct {
	unit       string
	identifier string
	outside    bool
}

// owner finds the business unit whose prefix (and suffix, for connectors)
// a name carries, among the units of the call's landing zone.
func (g *Guard) owner(call *Call, name, suffix string) ownership {
	if !strings.HasSuffix(name, suffix) {
		return ownership{identifier: name, outside: true}
	}
	scopes := []tenancy.Scope{call.Scope}
	for _, id := range call.Scope.Zone().BusinessUnits {
		if u, _ := g.tenancy.Unit(id); u != call.Scope.Unit {
			scopes = append(scopes, tenancy.Scope{Unit: u, Stage: call.Scope.Stage})
		}
	}
	for _, sc := range scopes {
		if sc.Owns(name) {
			return ownership{unit: sc.Unit.ID, identifier: strings.TrimSuffix(sc.Identifier(name), suffix)}
		}
	}
	return ownership{identifier: name, outside: true}
}
