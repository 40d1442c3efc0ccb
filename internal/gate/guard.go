// Package gate is how every service call enters: it resolves the scope a
// caller names, applies the access policy and the rate limits before any
// upstream call (failing closed without a principal), and gives the call
// what it needs on its way: the environment serving the scope, who owns a
// name, page tokens, the audit trail written ahead of each change, and the
// announcement of each change to every replica.
package gate

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"log/slog"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/audit"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/store"
	"github.com/edh-platform/rms-portal/internal/tenancy"
	"github.com/edh-platform/rms-portal/internal/upstream"
)

// Guard resolves a request's scope and applies the access policy. It fails
// closed: without a principal in the context nothing is allowed.
type Guard struct {
	tenancy    *tenancy.Live
	now        func() time.Time
	adminGroup string
	envs       *platform.Environments
	audit      Recorder
	notify     store.Notifier
	log        *slog.Logger
	limits     *limiter
	pages      *Pages
	// local and locks serialise changes to one resource (Lock): within
	// the process, then in the store as holder; held bounds the store
	// locks held at once.
	local      Locks
	locks      store.Locks
	holder     string
	held       chan struct{}
	outer      chan struct{}
	inner      chan struct{}
	versionKey []byte
	budget     time.Duration
	rules      Rules
	reserved   Reservations
}

// Recorder keeps the audit trail (audit.Recorder): events that are
// complete as they are (refusals, reads), and writes recorded ahead.
type Recorder interface {
	Record(ctx context.Context, e trail.AuditEvent)
	Begin(ctx context.Context, e trail.AuditEvent) (*audit.Attempt, error)
	Resume(ctx context.Context, e trail.AuditEvent, id int64) (*audit.Attempt, error)
	// Note stores a complete event that may be amended later.
	Note(ctx context.Context, e trail.AuditEvent) *audit.Attempt
	// RefusedAnonymous counts a refusal of an unauthenticated caller in
	// its source's event of the minute.
	RefusedAnonymous(ctx context.Context, e trail.AuditEvent)
}

// Options are the guard's dependencies.
type Options struct {
	// Tenancy is the tenancy in force, which the admin area changes.
	Tenancy *tenancy.Live
	Envs    *platform.Environments
	Audit   Recorder
	// Notify announces writes, so that every replica forgets what it
	// cached of the environment.
	Notify store.Notifier
	Logger *slog.Logger
	// Limits are the rate limits; zero values are no limit.
	Limits Limits
	// PageKey signs page tokens; replicas need the same (a random one when
	// empty).
	PageKey []byte
	// Now is the clock (read-only switches end by themselves); time.Now
	// when nil.
	Now func() time.Time
	// PlatformAdminGroup is the group of platform admins, to explain
	// access.
	PlatformAdminGroup string
	// Locks, when set, makes Lock hold across replicas, as Holder (the
	// replica's name).
	Locks  store.Locks
	Holder string
	// UpstreamTimeout is a write's budget: its upstream call and the
	// check after a timeout fit in it (Write.Bound, Write.Confirm).
	UpstreamTimeout time.Duration
	// Reservations release the budget use a create reserved when it
	// fails (nil: none are kept).
	Reservations Reservations
}

// Reservations are the budget use creates reserved (store.Guardrails).
type Reservations interface {
	ReleaseBudget(ctx context.Context, bu, stage, resource, renamed string) error
}

// New returns the guard shared by every service.
func New(o Options) *Guard {
	if o.Now == nil {
		o.Now = time.Now
	}
	pages := newPages(o.PageKey)
	vk := hmac.New(sha256.New, pages.key)
	vk.Write([]byte("versions"))
	return &Guard{tenancy: o.Tenancy, now: o.Now, adminGroup: o.PlatformAdminGroup, envs: o.Envs, audit: o.Audit, notify: o.Notify, log: o.Logger,
		limits: newLimiter(o.Limits), pages: pages, locks: o.Locks, holder: o.Holder, held: make(chan struct{}, maxHeld), outer: make(chan struct{}, maxOuter), inner: make(chan struct{}, maxHeld), versionKey: vk.Sum(nil), budget: o.UpstreamTimeout,
		reserved: o.Reservations}
}

// Principal turns an identity into a principal under the tenancy in force:
// work that outlives its request (a bulk job resumed by another replica)
// runs with the roles its caller's groups give now.
func (g *Guard) Principal(id portal.Identity) *portal.Principal {
	return access.NewResolver(g.tenancy, g.adminGroup).Resolve(id)
}

// Tenancy returns the tenancy in force.
func (g *Guard) Tenancy() *tenancy.Tenancy { return g.tenancy.Current() }

// Now is the guard's clock.
func (g *Guard) Now() time.Time { return g.now() }

// Log is the logger of the services.
func (g *Guard) Log() *slog.Logger { return g.log }

// Pages signs and checks page tokens.
func (g *Guard) Pages() *Pages { return g.pages }

// AdminGroup is the platform admins' group, to explain access.
func (g *Guard) AdminGroup() string { return g.adminGroup }

// Enter authorizes action in the named scope for the caller in ctx. what
// describes the operation in refusals ("create topics"). The context it
// returns is the call's: upstream calls made with it take the unit's
// share of each upstream (upstream.ForTenant).
func (g *Guard) Enter(ctx context.Context, named portal.Scope, action access.Action, what string) (context.Context, *Call, error) {
	call, err := g.enter(ctx, named, action, what)
	if err != nil {
		return ctx, nil, err
	}
	return upstream.ForTenant(ctx, call.Scope.Unit.ID), call, nil
}

func (g *Guard) enter(ctx context.Context, named portal.Scope, action access.Action, what string) (*Call, error) {
	p := portal.PrincipalFrom(ctx)
	if p == nil {
		return nil, portal.New(portal.Unauthenticated, "sign-in required")
	}
	// The steps of an apply were counted once, as the apply.
	limited := ctx.Value(applyStepKey{}) == nil
	if limited {
		if err := g.limits.allow(p.Subject, ""); err != nil {
			return nil, err
		}
	}
	scope, err := g.Resolve(p, named)
	if err != nil {
		return nil, err
	}
	if limited {
		if err := g.limits.allow("", scope.Unit.ID); err != nil {
			return nil, err
		}
	}
	scope = approved(ctx, scope)
	if err := access.Check(p, scope, action, what); err != nil {
		return nil, err
	}
	env, err := g.envs.Get(scope.Zone().ID, scope.Stage.Name)
	if err != nil {
		return nil, portal.Wrap(err, portal.Internal, "no environment is configured for %s", scope)
	}
	role := p.Role(scope.Unit.ID)
	return &Call{Principal: p, Scope: scope, Role: role, Env: env, WholeCluster: WholeCluster(scope.Unit, role),
		pace: func(ctx context.Context) error { return g.limits.pace(ctx, scope.Unit.ID) }, g: g}, nil
}

// EnterWrite is Enter for an operation that changes something: a refusal
// is audited too, as event on resource (the name the caller gave).
func (g *Guard) EnterWrite(ctx context.Context, named portal.Scope, action access.Action, what string, event portal.Action, resource string) (context.Context, *Call, error) {
	ctx, call, err := g.Enter(ctx, named, action, what)
	if call != nil {
		call.write = &pendingWrite{event: event, resource: resource}
	}
	// A refusal is audited; a rate limit is not, or a runaway script
	// would fill the trail.
	if err != nil && !portal.Is(err, portal.RateLimited) {
		if p := portal.PrincipalFrom(ctx); p != nil {
			zone := ""
			if u, ok := g.tenancy.Current().Unit(named.BU); ok {
				zone = u.LandingZone.ID
			}
			bu := named.BU
			g.audit.Record(ctx, trail.AuditEvent{Actor: p.Actor(), ActorRole: p.Role(bu).String(), Groups: p.Grant(bu).Groups,
				Service: p.Service, LandingZone: zone, BU: bu, Stage: named.Stage, Action: event, Resource: resource, Outcome: Outcome(err),
				Detail: portal.FirstMessage(err)})
		}
	}
	return ctx, call, err
}

// applyStepKey marks the context of the service calls an apply makes:
// the apply passed the rate limits once for all of them (the Cloud write
// pacing still applies to each).
type applyStepKey struct{}

// WithApplyStep marks ctx as a change of an apply, which passed the rate
// limits once for all its changes, and which waits for its unit's share
// of an upstream rather than failing half way (upstream.Patient).
func WithApplyStep(ctx context.Context) context.Context {
	return upstream.Patient(context.WithValue(ctx, applyStepKey{}, true))
}

// Resolve resolves a named scope for p. A unit where p has no role is
// not found (404), as one that does not exist; a member of its landing
// zone, who sees its units already (the grant form lists them), is told
// that it is a role they lack.
func (g *Guard) Resolve(p *portal.Principal, named portal.Scope) (tenancy.Scope, error) {
	t := g.tenancy.Current()
	unit, ok := t.Unit(named.BU)
	if !ok {
		return tenancy.Scope{}, access.UnitNotFound(named.BU)
	}
	if p.Role(named.BU) == portal.NoRole {
		for _, u := range t.Units() {
			if u.LandingZone.ID == unit.LandingZone.ID && p.Role(u.ID) > portal.NoRole {
				return tenancy.Scope{}, access.NoRoleIn(unit.ID)
			}
		}
		return tenancy.Scope{}, access.UnitNotFound(named.BU)
	}
	st, ok := t.StageIn(unit.LandingZone, named.Stage, g.now())
	if !ok {
		return tenancy.Scope{}, StageNotFound(t, named.Stage)
	}
	return tenancy.Scope{Unit: unit, Stage: st}, nil
}

// WholeCluster tells whether a role in a unit sees its whole cluster: a
// Super Admin on the main unit of a shared landing zone.
func WholeCluster(u *tenancy.BusinessUnit, r portal.Role) bool {
	return u.IsMain() && r >= portal.SuperAdmin
}

// StageNotFound is the error for a stage that is not configured.
func StageNotFound(t *tenancy.Tenancy, stage string) error {
	e := portal.New(portal.NotFound, "stage %q not found; stages are %s", stage, strings.Join(t.StageNames(), ", "))
	e.Field = "stage"
	return e
}

// Environments is the registry of environments the calls are served by.
func (g *Guard) Environments() *platform.Environments { return g.envs }

// EnterAdmin applies the caller's rate limit to an admin-area operation,
// which has no scope of a unit; the admin area then decides access.
func (g *Guard) EnterAdmin(ctx context.Context) (*portal.Principal, error) {
	p := portal.PrincipalFrom(ctx)
	subject := ""
	if p != nil {
		subject = p.Subject
	}
	if err := g.limits.allow(subject, ""); err != nil {
		return nil, err
	}
	return p, nil
}
