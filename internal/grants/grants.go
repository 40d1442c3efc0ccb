// Package grants is access across units: a unit of a landing zone asks
// another unit of the zone for read or write access to a topic (or a
// topic prefix) for one of its own service accounts or identity pools;
// the owner unit's Admins approve, and the portal makes the Confluent
// Cloud role bindings, records the grant and lists it on both sides.
// Revoking removes the bindings the grant made.
package grants

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/catalog"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/grant"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/store"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// MaxReason bounds a request's reason and a reviewer's comment.
const MaxReason = 2000

// maxListed bounds the grants a unit lists (both sides, every state).
const maxListed = 1000

// Service asks for, reviews and revokes grants.
type Service struct {
	guard *gate.Guard
	store store.Grants
	// classes judge a request by its topic's classification (its longest
	// duration, whether write may be asked, the approvals it needs); nil:
	// grants last for good and need one approval.
	classes Classifier
	// warnBefore is how long before its expiry a grant is announced.
	warnBefore time.Duration
	// bindingDelay is how long the platform takes to enforce a removed
	// role binding, which a delete that ended grants waits out.
	bindingDelay time.Duration
}

// WaitForBindings has a delete that ended grants wait d after removing
// their role bindings, the time the platform takes to enforce it, before
// the resource goes.
func (s *Service) WaitForBindings(d time.Duration) *Service {
	s.bindingDelay = d
	return s
}

// Classifier tells the classification of a grant's topic or prefix and
// what a classification allows.
type Classifier interface {
	GrantClass(ctx context.Context, zone, stage, pattern string, prefix bool) (catalog.Class, error)
	Class(name string) catalog.Class
}

// ClassifyWith judges requests by their topics' classifications, and
// announces a grant's expiry warnBefore it (3 days when 0).
func (s *Service) ClassifyWith(c Classifier, warnBefore time.Duration) *Service {
	if warnBefore <= 0 {
		warnBefore = 3 * 24 * time.Hour
	}
	s.classes, s.warnBefore = c, warnBefore
	return s
}

var _ grant.GrantService = (*Service)(nil)

// New returns the service.
func New(g *gate.Guard, s store.Grants) *Service { return &Service{guard: g, store: s} }

// enter authorizes a step of a grant in the named scope: the caller's
// role in the scope's unit decides (access.DecideGrant). A refused write
// step is audited as event.
func (s *Service) enter(ctx context.Context, scope portal.Scope, step access.GrantStep, event portal.Action, resource string) (context.Context, *gate.Call, error) {
	var call *gate.Call
	var err error
	if step == access.ReadGrants {
		ctx, call, err = s.guard.Enter(ctx, scope, access.Read, step.String())
	} else {
		ctx, call, err = s.guard.EnterWrite(ctx, scope, access.Read, step.String(), event, resource)
	}
	if err != nil {
		return ctx, nil, err
	}
	if err := access.CheckGrant(call.Principal, call.Scope.Unit.ID, step); err != nil {
		if step != access.ReadGrants {
			s.guard.Record(ctx, call, event, resource, err)
		}
		return ctx, nil, err
	}
	return ctx, call, nil
}

// RequestGrant asks the owner unit for access for one of the caller's
// unit's principals.
func (s *Service) RequestGrant(ctx context.Context, scope portal.Scope, in grant.NewTopicGrant) (grant.TopicGrant, error) {
	ctx, call, err := s.enter(ctx, scope, access.AskGrant, portal.ActGrantRequest, in.Topic)
	if err != nil {
		return grant.TopicGrant{}, err
	}
	rec, err := s.check(ctx, call, in)
	if err != nil {
		return grant.TopicGrant{}, err
	}
	// One request or decision per principal at a time: two same requests
	// do not both get in.
	unlock, err := s.guard.Lock(ctx, "grant-principal "+rec.Principal)
	if err != nil {
		return grant.TopicGrant{}, err
	}
	defer unlock()
	if err := s.refuseDuplicate(ctx, rec); err != nil {
		s.guard.Record(ctx, call, portal.ActGrantRequest, rec.Pattern, err)
		return grant.TopicGrant{}, err
	}
	rec.ID, rec.State, rec.Created = newID(), grant.GrantRequested, s.guard.Now().UTC()
	err = s.guard.Write(ctx, call, gate.Change{Event: portal.ActGrantRequest, Resource: rec.ID, Changes: describe(rec),
		Do: func(ctx context.Context) error { return s.store.CreateGrantRecord(ctx, rec) }})
	if err != nil {
		return grant.TopicGrant{}, err
	}
	return s.view(call, rec), nil
}

// describe lists a grant's fields for its audit events.
func describe(r store.GrantRecord) []trail.Change {
	what := "topic"
	if r.Prefixed {
		what = "prefix"
	}
	out := []trail.Change{{Field: "owner", After: r.Owner}, {Field: "grantee", After: r.Grantee}, {Field: what, After: r.Pattern},
		{Field: "access", After: r.Access}, {Field: "principal", After: r.Principal + " (" + r.PrincipalName + ")"},
		{Field: "duration", After: describeDuration(r.Duration)}}
	if r.Classification != "" {
		out = append(out, trail.Change{Field: "classification", After: r.Classification})
	}
	if !r.Expires.IsZero() {
		out = append(out, trail.Change{Field: "expires_at", After: r.Expires.UTC().Format(time.RFC3339)})
	}
	if r.Renews != "" {
		out = append(out, trail.Change{Field: "renews", After: r.Renews})
	}
	return out
}

// check validates a request made from call's unit and returns its record
// (without id, state or time). Every problem is named by its field.
func (s *Service) check(ctx context.Context, call *gate.Call, in grant.NewTopicGrant) (store.GrantRecord, error) {
	t := s.guard.Tenancy()
	p := call.Principal
	rec := store.GrantRecord{Zone: call.Scope.Zone().ID, Stage: call.Scope.Stage.Name, Grantee: call.Scope.Unit.ID, Access: in.Access,
		Prefixed: in.Prefix, Requester: p.Actor(), RequesterSubject: p.Subject, Reason: strings.TrimSpace(in.Reason)}
	var v portal.Validation
	owner, ownerOK := s.owner(t, call, strings.TrimSpace(in.Owner), &v)
	if ownerOK {
		rec.Owner = owner.Unit.ID
		rec.Pattern = s.pattern(ctx, call, owner, strings.TrimSpace(in.Topic), in.Prefix, &v)
	}
	switch in.Access {
	case "":
		v.Add(portal.Missing("access"))
	case grant.AccessRead, grant.AccessWrite:
	default:
		v.Add(portal.Invalid("access", "access must be read or write, not %q", portal.Clip(in.Access, 32)))
	}
	rec.Principal, rec.PrincipalName = s.principal(ctx, call, strings.TrimSpace(in.Principal), &v)
	if rec.Pattern != "" {
		if err := s.classify(ctx, &rec, in, &v); err != nil {
			s.guard.Record(ctx, call, portal.ActGrantRequest, in.Topic, err)
			return rec, err
		}
	}
	if in.Renews != "" {
		s.checkRenewal(ctx, call, &rec, strings.TrimSpace(in.Renews), &v)
	}
	switch {
	case rec.Reason == "":
		v.Add(portal.Missing("reason"))
	default:
		v.Add(portal.CheckText("reason", rec.Reason, MaxReason, true))
	}
	if err := v.Err(); err != nil {
		s.guard.Record(ctx, call, portal.ActGrantRequest, in.Topic, err)
		return rec, err
	}
	return rec, nil
}

// classify judges a request by its topic's classification: the
// duration asked for (the longest allowed when none is), and whether
// write may be asked for.
// It fails only when the classification cannot be read.
func (s *Service) classify(ctx context.Context, rec *store.GrantRecord, in grant.NewTopicGrant, v *portal.Validation) error {
	if s.classes == nil {
		if in.Duration != "" {
			d, err := catalog.ParseDuration(in.Duration)
			if err != nil {
				v.Add(portal.Invalid("duration", "%s", err.Error()))
			}
			rec.Duration = d
		}
		return nil
	}
	class, err := s.classes.GrantClass(ctx, rec.Zone, rec.Stage, rec.Pattern, rec.Prefixed)
	if err != nil {
		return err
	}
	rec.Classification, rec.Duration = class.Name, class.MaxGrant
	if in.Duration != "" {
		d, err := catalog.ParseDuration(in.Duration)
		switch {
		case err != nil:
			v.Add(portal.Invalid("duration", "%s", err.Error()))
		case d > class.MaxGrant:
			v.Add(portal.Invalid("duration", "%s is classified %s: a grant on it lasts at most %s, not %s", rec.Pattern, class.Name,
				catalog.FormatDuration(class.MaxGrant), catalog.FormatDuration(d)))
		default:
			rec.Duration = d
		}
	}
	if in.Access == grant.AccessWrite && !class.Write {
		v.Add(portal.Invalid("access", "%s is classified %s: other units may ask for read access only", rec.Pattern, class.Name))
	}
	return nil
}

// checkRenewal checks that a request renews an active grant the
// caller's unit received, for the same access.
func (s *Service) checkRenewal(ctx context.Context, call *gate.Call, rec *store.GrantRecord, id string, v *portal.Validation) {
	r, err := s.store.GrantRecord(ctx, id)
	switch {
	case errors.Is(err, store.ErrNotFound) || err == nil && (r.Grantee != call.Scope.Unit.ID || r.Stage != call.Scope.Stage.Name):
		v.Add(portal.Invalid("renews", "%s received no grant %q in %s", call.Scope.Unit.ID, portal.Clip(id, 64), call.Scope.Stage.Name))
	case err != nil:
		v.Add(portal.Invalid("renews", "grant %s could not be read: %s", id, portal.FirstMessage(err)))
	case r.State != grant.GrantActive:
		v.Add(portal.Invalid("renews", "grant %s is %s: only an active grant is renewed (ask for a new one)", id, r.State))
	case rec.Pattern != "" && rec.Principal != "" && !sameGrant(r, *rec):
		v.Add(portal.Invalid("renews", "grant %s is %s access of %s to %s: a renewal asks for the same", id, r.Access, r.PrincipalName, r.Pattern))
	default:
		rec.Renews = id
	}
}

// owner resolves the owner unit: another unit of the caller's zone.
func (s *Service) owner(t *tenancy.Tenancy, call *gate.Call, id string, v *portal.Validation) (tenancy.Scope, bool) {
	u, ok := t.Unit(id)
	switch {
	case id == "":
		v.Add(portal.Missing("owner"))
	case !ok:
		v.Add(portal.Invalid("owner", "there is no business unit %q", portal.Clip(id, 64)))
	case u.LandingZone.ID != call.Scope.Zone().ID:
		v.Add(portal.Invalid("owner", "business unit %s is in landing zone %s, %s in %s: access is granted between units of one landing zone",
			u.ID, u.LandingZone.ID, call.Scope.Unit.ID, call.Scope.Zone().ID))
	case u.ID == call.Scope.Unit.ID:
		v.Add(portal.Invalid("owner", "%s owns its topics already: a grant is access to another unit's topics", u.ID))
	default:
		return tenancy.Scope{Unit: u, Stage: call.Scope.Stage}, true
	}
	return tenancy.Scope{}, false
}

// pattern resolves the topic (its identifier in the owner unit or its
// full name) or the prefix the grant is on: it must carry the owner's
// prefix, and a topic must exist.
func (s *Service) pattern(ctx context.Context, call *gate.Call, owner tenancy.Scope, topic string, prefix bool, v *portal.Validation) string {
	name := topic
	if !strings.HasPrefix(name, owner.Prefix()) {
		if o, found := s.guard.Tenancy().OwnerOf(tenancy.OrgPool, name); found && !o.Same(owner) {
			v.Add(portal.Invalid("topic", "%s is a topic name of %s in %s (landing zone %s), not of %s: ask the unit that owns it", name, o.Unit.ID,
				o.Stage.Name, o.Zone().ID, owner.Unit.ID))
			return ""
		}
		name = owner.Prefix() + topic
	}
	switch {
	case topic == "":
		v.Add(portal.Missing("topic"))
		return ""
	case portal.TopicNameProblem(name) != "":
		what := "topic name"
		if prefix {
			what = "topic prefix"
		}
		v.Add(portal.Invalid("topic", "%q is not a %s: letters, digits, '.', '_' and '-', at most 249 (a prefix has no wildcard)", portal.Clip(topic, 64), what))
		return ""
	case prefix:
		return name
	}
	if _, err := call.Env.Topics.DescribeTopic(ctx, name); portal.Is(err, portal.NotFound) {
		v.Add(portal.Invalid("topic", "%s has no topic %s in %s", owner.Unit.ID, name, owner.Stage.Name))
	} else if err != nil {
		v.Add(portal.Invalid("topic", "topic %s could not be read: %s", name, portal.FirstMessage(err)))
	}
	return name
}

// principal resolves one of the caller's unit's service accounts or
// identity pools by id; its display name must carry the unit's prefix in
// the stage.
func (s *Service) principal(ctx context.Context, call *gate.Call, id string, v *portal.Validation) (string, string) {
	var name string
	var kind tenancy.OrgKind
	var err error
	switch {
	case id == "":
		v.Add(portal.Missing("principal"))
		return "", ""
	case strings.HasPrefix(id, "sa-"):
		var a platform.ServiceAccount
		a, err = call.Env.IAM.GetServiceAccount(ctx, id)
		name, kind = a.DisplayName, tenancy.OrgAccount
	case strings.HasPrefix(id, "pool-"):
		var p platform.IdentityPool
		p, err = call.Env.Pools.GetPool(ctx, id)
		name, kind = p.DisplayName, tenancy.OrgPool
	default:
		v.Add(portal.Invalid("principal", "a principal is a service account (sa-...) or an identity pool (pool-...), not %q", portal.Clip(id, 64)))
		return "", ""
	}
	if err != nil && !portal.Is(err, portal.NotFound) {
		v.Add(portal.Invalid("principal", "%s could not be read: %s", id, portal.FirstMessage(err)))
		return "", ""
	}
	if o, found := s.guard.Tenancy().OwnerOf(kind, name); err != nil || !found || !o.Same(call.Scope) {
		v.Add(portal.Invalid("principal", "%s is not a service account or identity pool of %s in %s: a unit asks for access for its own principals",
			portal.Clip(id, 64), call.Scope.Unit.ID, call.Scope.Stage.Name))
		return "", ""
	}
	return id, name
}

// refuseDuplicate refuses a grant asked for or given already.
func (s *Service) refuseDuplicate(ctx context.Context, rec store.GrantRecord) error {
	recs, err := s.store.GrantRecords(ctx, rec.Owner, rec.Stage, maxListed)
	if err != nil {
		return err
	}
	for _, r := range recs {
		if r.ID == rec.Renews && r.State == grant.GrantActive {
			continue
		}
		if (r.State == grant.GrantRequested || r.State == grant.GrantActive) && sameGrant(r, rec) {
			return portal.New(portal.Conflict, "grant %s is %s already: %s access of %s to %s", r.ID, r.State, r.Access, r.PrincipalName, r.Pattern)
		}
	}
	return nil
}

// sameGrant tells whether two records give the same access.
func sameGrant(a, b store.GrantRecord) bool {
	return a.Owner == b.Owner && a.Grantee == b.Grantee && a.Principal == b.Principal && a.Pattern == b.Pattern && a.Prefixed == b.Prefixed &&
		a.Access == b.Access
}

func newID() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return "gr-" + strings.ToLower(base64.RawURLEncoding.EncodeToString(b))
}

// view is a record as call sees it, with what the caller may do with it.
func (s *Service) view(call *gate.Call, r store.GrantRecord) grant.TopicGrant {
	g := grant.TopicGrant{ID: r.ID, Zone: r.Zone, Stage: r.Stage, Owner: r.Owner, Grantee: r.Grantee, Principal: r.Principal,
		PrincipalName: r.PrincipalName, Topic: r.Pattern, Prefix: r.Prefixed, Access: r.Access, State: r.State, Requester: r.Requester,
		Reason: r.Reason, Created: r.Created, DecidedBy: r.DecidedBy, Comment: r.Comment, Decided: r.Decided, Bindings: made(r.Bindings)}
	s.terms(&g, r)
	p := call.Principal
	admin := func(unit string) bool { return access.DecideGrant(p.Role(unit), access.ReviewGrant).Allowed }
	g.Reviewable = r.State == grant.GrantRequested && admin(r.Owner) && p.Subject != r.RequesterSubject && !approvedBy(r, p.Subject)
	g.Withdrawable = r.State == grant.GrantRequested && admin(r.Grantee)
	g.Revocable = r.State == grant.GrantActive && (admin(r.Owner) || admin(r.Grantee))
	g.Renewable = r.State == grant.GrantActive && !r.Expires.IsZero() && admin(r.Grantee)
	return g
}

// made are the bindings of a record that exist (not those an approval
// under way is still to make).
func made(enc []string) []iam.RoleBinding {
	out := decodeBindings(enc)
	return slices.DeleteFunc(out, func(b iam.RoleBinding) bool { return b.ID == toMake })
}

// Grants lists the grants the caller's unit gave or received in the
// stage, by topic.
func (s *Service) Grants(ctx context.Context, scope portal.Scope, q grant.GrantQuery) (portal.Page[grant.TopicGrant], error) {
	ctx, call, err := s.enter(ctx, scope, access.ReadGrants, portal.Action{}, "")
	if err != nil {
		return portal.Page[grant.TopicGrant]{}, err
	}
	var v portal.Validation
	switch q.Side {
	case "", grant.GrantsGiven, grant.GrantsReceived:
	default:
		v.Add(portal.Invalid("side", "side must be given or received, not %q", portal.Clip(q.Side, 32)))
	}
	switch q.State {
	case "", grant.GrantRequested, grant.GrantActive, grant.GrantRejected, grant.GrantWithdrawn, grant.GrantRevoked, grant.GrantExpired,
		grant.GrantEnded, grant.GrantRenewed:
	default:
		v.Add(portal.Invalid("state", "state must be requested, active, rejected, withdrawn, revoked, expired, ended or renewed, not %q", portal.Clip(q.State, 32)))
	}
	if err := v.Err(); err != nil {
		return portal.Page[grant.TopicGrant]{}, err
	}
	recs, err := s.store.GrantRecords(ctx, call.Scope.Unit.ID, call.Scope.Stage.Name, maxListed)
	if err != nil {
		return portal.Page[grant.TopicGrant]{}, err
	}
	unit := call.Scope.Unit.ID
	out := []grant.TopicGrant{}
	for _, r := range recs {
		g := s.view(call, r)
		switch {
		case q.Side == grant.GrantsGiven && r.Owner != unit, q.Side == grant.GrantsReceived && r.Grantee != unit,
			q.State != "" && r.State != q.State, q.Topic != "" && !g.Covers(q.Topic), q.Expiring && !g.Expiring:
			continue
		}
		out = append(out, g)
	}
	gate.SortByName(out, listName)
	return gate.Paginate(s.guard.Pages(), "grants "+call.Scope.String(), out, listName, q.ListQuery)
}

// listName orders a unit's grants by topic, then by id.
func listName(g grant.TopicGrant) string { return g.Topic + " " + g.ID }

// find reads a grant the call's unit gave or received.
func (s *Service) find(ctx context.Context, call *gate.Call, id string) (store.GrantRecord, error) {
	r, err := s.store.GrantRecord(ctx, id)
	unit := call.Scope.Unit.ID
	if errors.Is(err, store.ErrNotFound) || err == nil && (r.Owner != unit && r.Grantee != unit || r.Stage != call.Scope.Stage.Name) {
		return r, portal.New(portal.NotFound, "grant %q not found in %s", portal.Clip(id, 64), call.Scope)
	}
	return r, err
}

// Grant returns one of the grants the caller's unit gave or received.
func (s *Service) Grant(ctx context.Context, scope portal.Scope, id string) (grant.TopicGrant, error) {
	ctx, call, err := s.enter(ctx, scope, access.ReadGrants, portal.Action{}, "")
	if err != nil {
		return grant.TopicGrant{}, err
	}
	r, err := s.find(ctx, call, id)
	if err != nil {
		return grant.TopicGrant{}, err
	}
	return s.view(call, r), nil
}
