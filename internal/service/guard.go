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
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
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
	Principal *portal.Principal
	Scope     tenancy.Scope
	Role      portal.Role
	Env       *platform.Environment
	// WholeCluster is true when a Super Admin views the main business unit
	// of a shared landing zone: the whole cluster is visible, including
	// resources outside the naming convention.
	WholeCluster bool
}

// Enter authorizes action in bu/stage for the caller in ctx. what describes
// the operation in refusals ("create topics").
func (g *Guard) Enter(ctx context.Context, bu, stage string, action access.Action, what string) (*Call, error) {
	p := portal.PrincipalFrom(ctx)
	if p == nil {
		return nil, portal.New(portal.Unauthenticated, "sign-in required")
	}
	scope, err := g.scope(p, bu, stage)
	if err != nil {
		return nil, err
	}
	if err := access.Check(p, scope, action, what); err != nil {
		return nil, err
	}
	env, err := g.envs.Get(scope.Zone().ID, scope.Stage.Name)
	if err != nil {
		return nil, portal.Wrap(err, portal.Internal, "no environment is configured for %s", scope)
	}
	role := p.Role(bu)
	return &Call{Principal: p, Scope: scope, Role: role, Env: env, WholeCluster: wholeCluster(scope.Unit, role)}, nil
}

// scope resolves bu/stage for p: a unit where p has no role is as unknown
// as one that does not exist.
func (g *Guard) scope(p *portal.Principal, bu, stage string) (tenancy.Scope, error) {
	unit, ok := g.tenancy.Unit(bu)
	if !ok || p.Role(bu) == portal.NoRole {
		return tenancy.Scope{}, access.UnitNotFound(bu)
	}
	st, ok := g.tenancy.Stage(stage)
	if !ok {
		return tenancy.Scope{}, stageNotFound(g.tenancy, stage)
	}
	return tenancy.Scope{Unit: unit, Stage: st}, nil
}

func wholeCluster(u *tenancy.BusinessUnit, r portal.Role) bool {
	return u.IsMain() && r >= portal.SuperAdmin
}

// record audits a write.
func (g *Guard) record(ctx context.Context, c *Call, action, resource string, err error) {
	outcome, detail := "ok", ""
	if err != nil {
		outcome, detail = string(portal.KindOf(err)), err.Error()
	}
	g.audit.Record(ctx, audit.Event{
		Actor: c.Principal.Username, Action: action, Resource: resource,
		Scope: c.Scope.String(), Outcome: outcome, Detail: detail,
	})
}

// identifier adds to v what is wrong with an identifier sent as field
// (missing, or not usable in a name; label starts the message), and says
// whether it can be qualified.
func identifier(v *portal.Validation, field, label, name string) bool {
	if strings.TrimSpace(name) == "" {
		v.Add(portal.Missing(field))
		return false
	}
	if p := tenancy.IdentifierProblem(tenancy.Normalise(name)); p != "" {
		v.Add(portal.Invalid(field, "%s %s", label, p))
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

// The services implement the contract of the front doors.
var (
	_ portal.TopicService     = (*Topics)(nil)
	_ portal.MetricsService   = (*Topics)(nil)
	_ portal.ConnectorService = (*Connectors)(nil)
	_ portal.SchemaService    = (*Schemas)(nil)
	_ portal.AccountService   = (*ServiceAccounts)(nil)
	_ portal.PoolService      = (*IdentityPools)(nil)
)
