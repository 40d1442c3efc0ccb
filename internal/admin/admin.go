// Package admin is the platform admin area: business units onboarded and
// offboarded, read-only switches, the audit trail across units, upstream
// health, the configuration in force, people's sessions and access
// previews. Access to it is decided here, per action and zone.
package admin

import (
	"context"
	"errors"
	"time"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/adminarea"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/service"
	"github.com/edh-platform/rms-portal/internal/store"
	"github.com/edh-platform/rms-portal/internal/tenancy"
	"github.com/edh-platform/rms-portal/internal/upstream"
)

// Store is what the admin area keeps in the database.
type Store interface {
	store.Tenants
	store.Audit
	ListSessions
}

// ListSessions reads and ends browser sessions.
type ListSessions interface {
	Session(ctx context.Context, id string, now time.Time) (store.Session, error)
	SessionsOf(ctx context.Context, subject string, now time.Time) ([]store.Session, error)
	DeleteSession(ctx context.Context, id string) error
}

// Announcer tells every replica that the tenancy changed
// (worker.TenancySync).
type Announcer interface {
	Announce(ctx context.Context, what string)
}

// Resolver maps an identity's groups to roles (access.Resolver).
type Resolver interface {
	Resolve(id portal.Identity) *portal.Principal
}

// Options are the admin area's dependencies.
type Options struct {
	Store Store
	Sync  Announcer
	// Health reports the upstreams (upstream.Registry.Report).
	Health func() []upstream.Health
	// Config renders the configuration in force without secrets, with
	// the database's units and switches (YAML).
	Config func(t *tenancy.Tenancy) (string, error)
	// Ignored lists the configuration file's keys this release ignores.
	Ignored []string
	// Resolver and GroupsClaim explain a set of groups or claims.
	Resolver    Resolver
	GroupsClaim string
}

// Admin is the platform admin area: business units, read-only switches,
// the audit trail across units, upstream health, the configuration in
// force, people's sessions, and access explained. Platform admins may do
// everything; a landing zone's Super Admins read its trail and health;
// everyone else is told the area does not exist.
type Admin struct {
	guard *gate.Guard
	trail *service.AuditTrail
	o     Options
	// grants explains the grant-based access of a previewed principal.
	grants service.GrantExplainer
}

// ExplainGrantsWith lets the access preview list grant-based access.
func (a *Admin) ExplainGrantsWith(g service.GrantExplainer) { a.grants = g }

var _ adminarea.AdminService = (*Admin)(nil)

// New returns the admin area's service.
func New(g *gate.Guard, o Options) *Admin {
	return &Admin{guard: g, trail: service.NewAuditTrail(g, o.Store), o: o}
}

// enter checks an admin action for the caller in ctx ("" zone: any).
func (a *Admin) enter(ctx context.Context, action access.AdminAction, zone string) (*portal.Principal, *tenancy.Tenancy, error) {
	t := a.guard.Tenancy()
	p, err := a.guard.EnterAdmin(ctx)
	if err != nil {
		return nil, nil, err
	}
	if err := access.CheckAdmin(p, t, action, zone); err != nil {
		return nil, nil, err
	}
	return p, t, nil
}

// enterWrite is enter for a change; a refusal is audited too.
func (a *Admin) enterWrite(ctx context.Context, action access.AdminAction, event portal.Action, target auditTarget) (*portal.Principal, *tenancy.Tenancy, error) {
	p, t, err := a.enter(ctx, action, target.zone)
	if err != nil && !portal.Is(err, portal.RateLimited) {
		if pr := portal.PrincipalFrom(ctx); pr != nil {
			a.record(ctx, pr, event, target, err)
		}
	}
	return p, t, err
}

// auditTarget is where an admin event happened.
type auditTarget struct {
	zone, unit, stage, resource string
}

// event is the audit event of an admin action.
func (a *Admin) event(p *portal.Principal, event portal.Action, t auditTarget) trail.AuditEvent {
	role := "platform_admin"
	if !p.PlatformAdmin {
		role = p.Role(t.unit).String()
	}
	return trail.AuditEvent{Actor: p.Actor(), ActorRole: role, Groups: p.Groups, Service: p.Service, LandingZone: t.zone,
		BU: t.unit, Stage: t.stage, Action: event, Resource: t.resource}
}

// record audits an admin change refused before it was made.
func (a *Admin) record(ctx context.Context, p *portal.Principal, event portal.Action, t auditTarget, err error) {
	e := a.event(p, event, t)
	e.Outcome = gate.Outcome(err)
	if err != nil {
		e.Detail = portal.FirstMessage(err)
	}
	a.guard.RecordEvent(ctx, e)
}

// write makes an admin change the one way every change is made
// (Guard.WriteEvent), with the area's event: do returns what it changed.
func (a *Admin) write(ctx context.Context, p *portal.Principal, event portal.Action, t auditTarget, do func(ctx context.Context) ([]trail.Change, error)) error {
	return a.guard.WriteEvent(ctx, a.event(p, event, t), gate.Change{
		Steps: func(ctx context.Context, _ *gate.Write) ([]trail.Change, error) { return do(ctx) }})
}

// Area says what the caller may see.
func (a *Admin) Area(ctx context.Context) (adminarea.AdminArea, error) {
	p, t, err := a.enter(ctx, access.ReadZoneAudit, "")
	if err != nil {
		return adminarea.AdminArea{}, err
	}
	if p.PlatformAdmin {
		zones := []string{}
		for _, z := range t.LandingZones() {
			zones = append(zones, z.ID)
		}
		return adminarea.AdminArea{Platform: true, Zones: zones}, nil
	}
	return adminarea.AdminArea{Zones: access.AdminZones(p, t)}, nil
}

// storeErr maps a store's not-found and exists onto the domain's errors.
func storeErr(err error, what string) error {
	switch {
	case errors.Is(err, store.ErrNotFound):
		return portal.New(portal.NotFound, "%s not found", what)
	case errors.Is(err, store.ErrExists):
		return portal.New(portal.AlreadyExists, "%s exists already", what)
	}
	return err
}
