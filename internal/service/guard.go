// Package service holds the portal's behaviour: one service per resource
// type. Every operation starts by resolving the caller's scope and asking
// the access policy, before any upstream call; both front doors (HTML and
// JSON) call these methods and nothing else.
package service

import (
	"context"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/audit"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/store"
	"github.com/edh-platform/rms-portal/internal/tenancy"
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
	pages      *pager
}

// Recorder keeps the audit trail (audit.Recorder): events that are
// complete as they are (refusals, reads), and writes recorded ahead.
type Recorder interface {
	Record(ctx context.Context, e store.AuditEvent)
	Begin(ctx context.Context, e store.AuditEvent) (*audit.Attempt, error)
	// RefusedAnonymous counts a refusal of an unauthenticated caller in
	// its source's event of the minute.
	RefusedAnonymous(ctx context.Context, e store.AuditEvent)
}

// GuardOptions are the guard's dependencies.
type GuardOptions struct {
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
}

// NewGuard returns the guard shared by every service.
func NewGuard(o GuardOptions) *Guard {
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Guard{tenancy: o.Tenancy, now: o.Now, adminGroup: o.PlatformAdminGroup, envs: o.Envs, audit: o.Audit, notify: o.Notify, log: o.Logger,
		limits: newLimiter(o.Limits), pages: newPager(o.PageKey)}
}

// topicChanged brings every replica's topic list up to a write: when the
// write is known to have happened, the change itself is applied here and
// announced, so that no list goes cold; when it failed or its outcome is
// unknown, the replicas are told to refetch in the background.
func (g *Guard) topicChanged(ctx context.Context, env *platform.Environment, err error, c platform.TopicChange) {
	if err != nil {
		g.changed(ctx, env, "topics")
		return
	}
	if p, ok := env.Topics.(platform.TopicPatcher); ok {
		p.ApplyTopicChange(c)
	}
	g.changed(ctx, env, topicAnnouncement(c))
}

// topicAnnouncement is the cache channel's message for a topic write,
// completed with the environment by changed: "topic <name> <partitions>
// <deleted> <zone>/<stage>". Topic names hold no spaces.
func topicAnnouncement(c platform.TopicChange) string {
	return "topic " + c.Name + " " + strconv.Itoa(c.Partitions) + " " + strconv.FormatBool(c.Deleted)
}

// changed tells every replica (this one too) that what of env changed.
func (g *Guard) changed(ctx context.Context, env *platform.Environment, what string) {
	if err := g.notify.Publish(context.WithoutCancel(ctx), store.ChannelCache, what+" "+env.Name()); err != nil {
		// The other replicas' caches expire by themselves; say why they
		// may lag behind.
		g.log.WarnContext(ctx, "announcing a change failed", "what", what, "env", env.Name(), "error", err)
	}
}

// Tenancy returns the tenancy in force.
func (g *Guard) Tenancy() *tenancy.Tenancy { return g.tenancy.Current() }

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
	// pace waits for the unit's share of the Confluent Cloud write quota.
	pace func(ctx context.Context) error
	// prefixes are the zone's units with their name prefixes in the
	// call's stage, the call's own first; owner fills them once (a bulk
	// job's workers share the call).
	prefixes     []unitPrefix
	prefixesOnce sync.Once
}

type unitPrefix struct {
	unit, prefix string
}

// Enter authorizes action in the named scope for the caller in ctx. what
// describes the operation in refusals ("create topics").
func (g *Guard) Enter(ctx context.Context, named portal.Scope, action access.Action, what string) (*Call, error) {
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
	scope, err := g.scope(p, named)
	if err != nil {
		return nil, err
	}
	if limited {
		if err := g.limits.allow("", scope.Unit.ID); err != nil {
			return nil, err
		}
	}
	if err := access.Check(p, scope, action, what); err != nil {
		return nil, err
	}
	env, err := g.envs.Get(scope.Zone().ID, scope.Stage.Name)
	if err != nil {
		return nil, portal.Wrap(err, portal.Internal, "no environment is configured for %s", scope)
	}
	role := p.Role(scope.Unit.ID)
	return &Call{Principal: p, Scope: scope, Role: role, Env: env, WholeCluster: wholeCluster(scope.Unit, role),
		pace: func(ctx context.Context) error { return g.limits.pace(ctx, scope.Unit.ID) }}, nil
}

// applyStepKey marks the context of the service calls an apply makes:
// the apply passed the rate limits once for all of them (the Cloud write
// pacing still applies to each). Only this package can set it.
type applyStepKey struct{}

// scope resolves a named scope for p: a unit where p has no role is as
// unknown as one that does not exist.
func (g *Guard) scope(p *portal.Principal, named portal.Scope) (tenancy.Scope, error) {
	t := g.tenancy.Current()
	unit, ok := t.Unit(named.BU)
	if !ok || p.Role(named.BU) == portal.NoRole {
		return tenancy.Scope{}, access.UnitNotFound(named.BU)
	}
	st, ok := t.StageIn(unit.LandingZone, named.Stage, g.now())
	if !ok {
		return tenancy.Scope{}, stageNotFound(t, named.Stage)
	}
	return tenancy.Scope{Unit: unit, Stage: st}, nil
}

func wholeCluster(u *tenancy.BusinessUnit, r portal.Role) bool {
	return u.IsMain() && r >= portal.SuperAdmin
}

// EnterWrite is Enter for an operation that changes something: a refusal
// is audited too, as event on resource (the name the caller gave).
func (g *Guard) EnterWrite(ctx context.Context, named portal.Scope, action access.Action, what, event, resource string) (*Call, error) {
	call, err := g.Enter(ctx, named, action, what)
	// A refusal is audited; a rate limit is not, or a runaway script
	// would fill the trail.
	if err != nil && !portal.Is(err, portal.RateLimited) {
		if p := portal.PrincipalFrom(ctx); p != nil {
			zone := ""
			if u, ok := g.tenancy.Current().Unit(named.BU); ok {
				zone = u.LandingZone.ID
			}
			bu := named.BU
			g.audit.Record(ctx, store.AuditEvent{Actor: p.Actor(), ActorRole: p.Role(bu).String(), Groups: p.Grant(bu).Groups,
				Service: p.Service, LandingZone: zone, BU: bu, Stage: named.Stage, Action: event, Resource: resource, Outcome: outcome(err), Detail: firstMessage(err)})
		}
	}
	return call, err
}

// Named is the call's scope as callers name it, for the services a call
// makes on its way (an apply's changes).
func (c *Call) Named() portal.Scope {
	return portal.Scope{BU: c.Scope.Unit.ID, Stage: c.Scope.Stage.Name}
}

// event is the audit event of a call's write of resource.
func (c *Call) event(action, resource string) store.AuditEvent {
	return store.AuditEvent{Actor: c.Principal.Actor(), ActorRole: c.Role.String(), Groups: c.Principal.Grant(c.Scope.Unit.ID).Groups,
		Service: c.Principal.Service, LandingZone: c.Scope.Zone().ID, BU: c.Scope.Unit.ID, Stage: c.Scope.Stage.Name, Action: action,
		Resource: resource}
}

// record audits what happened to a write that never reached the upstream
// (a refusal found after entering, a read worth a trace).
func (g *Guard) record(ctx context.Context, c *Call, event, resource string, err error, changes ...store.Change) {
	e := c.event(event, resource)
	e.Outcome, e.Changes = outcome(err), changes
	if err != nil {
		e.Detail = firstMessage(err)
	}
	g.audit.Record(ctx, e)
}

// write is a change under way whose attempt the audit trail holds.
type write struct {
	att      *audit.Attempt
	resource string
}

// begin records the attempt of a change before its first upstream call:
// no record, no change. When the trail cannot be written, the error
// (UpstreamUnavailable) says that nothing was changed.
func (g *Guard) begin(ctx context.Context, c *Call, event, resource string) (*write, error) {
	return g.beginEvent(ctx, c.event(event, resource))
}

// beginEvent is begin for an event made elsewhere (the admin area's).
func (g *Guard) beginEvent(ctx context.Context, e store.AuditEvent) (*write, error) {
	att, err := g.audit.Begin(ctx, e)
	if err != nil {
		return nil, err
	}
	return &write{att: att, resource: e.Resource}, nil
}

// done settles a change's attempt with its outcome and what it changed.
func (w *write) done(ctx context.Context, err error, changes ...store.Change) {
	detail := ""
	if err != nil {
		detail = firstMessage(err)
	}
	w.att.Settle(ctx, outcome(err), detail, w.resource, changes)
}

// outcome names an operation's result in the audit trail; a write that
// timed out may still have happened, so its outcome is unknown.
func outcome(err error) string {
	switch {
	case err == nil:
		return audit.OK
	case portal.Is(err, portal.UpstreamTimeout):
		return audit.Unknown
	}
	return string(portal.KindOf(err))
}

// identifier adds to v what is wrong with an identifier sent as field
// (missing, or not usable in a name; label starts the message), and says
// whether it can be qualified.
func identifier(v *portal.Validation, field, label, name string) bool {
	if strings.TrimSpace(name) == "" {
		v.Add(portal.Missing(field))
		return false
	}
	if len(name) > maxIdentifier {
		v.Add(portal.Invalid(field, "%s is %d characters long; at most %d", label, len(name), maxIdentifier))
		return false
	}
	if p := tenancy.IdentifierProblem(tenancy.Normalise(name)); p != "" {
		v.Add(portal.Invalid(field, "%s %s", label, p))
		return false
	}
	return true
}

// maxIdentifier bounds any identifier a caller sends: no resource name
// (a topic's 249 characters at most, with its prefix) can hold a longer one.
const maxIdentifier = 200

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
	call.prefixesOnce.Do(func() {
		// Once per call: a page asks for every item.
		call.prefixes = []unitPrefix{{call.Scope.Unit.ID, call.Scope.Prefix()}}
		for _, id := range call.Scope.Zone().BusinessUnits {
			if u, _ := g.tenancy.Current().Unit(id); u != call.Scope.Unit {
				call.prefixes = append(call.prefixes, unitPrefix{u.ID, tenancy.Scope{Unit: u, Stage: call.Scope.Stage}.Prefix()})
			}
		}
	})
	for _, p := range call.prefixes {
		if strings.HasPrefix(name, p.prefix) {
			return ownership{unit: p.unit, identifier: strings.TrimSuffix(name[len(p.prefix):], suffix)}
		}
	}
	return ownership{identifier: name, outside: true}
}

// keepUnit tells whether an item owned by unit ("" for none) stays in a
// list filtered by q.Unit: only whole-cluster views are filtered.
func keepUnit(call *Call, q portal.ListQuery, unit string) bool {
	switch {
	case !call.WholeCluster || q.Unit == "":
		return true
	case q.Unit == portal.UnitNone:
		return unit == ""
	}
	return unit == q.Unit
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
