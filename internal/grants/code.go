package grants

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/plans"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/ascode"
	"github.com/edh-platform/rms-portal/internal/portal/grant"
	"github.com/edh-platform/rms-portal/internal/store"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// AsCode is the grants' part of resources as code: the grants a unit
// gives are its own kind in its plans and exports. An Admin of the owner
// who applies a Grant gives it directly (the owner is whom a request asks).
// Grants are never pruned: a document written before its unit gave a
// grant on request must not take the grant back.
func (s *Service) AsCode() plans.Kind { return grantCode{s} }

type grantCode struct{ s *Service }

func (grantCode) Kind() string { return portal.KindGrant }

// Action lets every role plan a grant: the owner's Admins give them, which
// the kind decides itself (access.DecideGrant, as for a review).
func (grantCode) Action() access.Action { return access.Read }
func (grantCode) Prunes() bool          { return false }

// observed is the unit's grants (both sides) and the principals of the
// zone's units in the stage, by id and by display name.
type observed struct {
	grants     []store.GrantRecord
	principals map[string]principal
}

type principal struct {
	id, name string
	owner    tenancy.Scope
}

// Observe reads the unit's grants (one query) and, when the document
// declares grants, the organisation's accounts and pools (two calls).
func (k grantCode) Observe(ctx context.Context, call *gate.Call, declared []portal.Resource) (plans.Observed, error) {
	recs, err := k.s.store.GrantRecords(ctx, call.Scope.Unit.ID, call.Scope.Stage.Name, maxListed)
	if err != nil {
		return nil, err
	}
	o := observed{grants: recs, principals: map[string]principal{}}
	if len(declared) == 0 {
		return o, nil
	}
	t := k.s.guard.Tenancy()
	add := func(kind tenancy.OrgKind, id, name string) {
		if s, ok := t.OwnerOf(kind, name); ok && s.Zone().ID == call.Scope.Zone().ID && s.Stage.Name == call.Scope.Stage.Name {
			p := principal{id: id, name: name, owner: s}
			o.principals[id], o.principals[name] = p, p
		}
	}
	accounts, err := call.Env.IAM.ListServiceAccounts(ctx)
	if err != nil {
		return nil, err
	}
	for _, a := range accounts {
		add(tenancy.OrgAccount, a.ID, a.DisplayName)
	}
	pools, err := call.Env.Pools.ListPools(ctx)
	if err != nil {
		return nil, err
	}
	for _, p := range pools {
		add(tenancy.OrgPool, p.ID, p.DisplayName)
	}
	return o, nil
}

// inStage is an organisation-wide name of some stage as the same unit's
// name in stage (a document exported in dev plans in qas).
func inStage(t *tenancy.Tenancy, name string, stage tenancy.Stage) string {
	for _, k := range []tenancy.OrgKind{tenancy.OrgAccount, tenancy.OrgPool} {
		if s, ok := t.OwnerOf(k, name); ok {
			return tenancy.Scope{Unit: s.Unit, Stage: stage}.OrgPrefix(k) + strings.TrimPrefix(name, s.OrgPrefix(k))
		}
	}
	return name
}

// Plan plans giving a declared grant: unchanged when it is active,
// refused when the same grant waits as a request (review it instead).
func (k grantCode) Plan(_ context.Context, call *gate.Call, obs plans.Observed, r portal.Resource) (*plans.Step, error) {
	o := obs.(observed)
	d := portal.DeclOf[portal.GrantDecl](r)
	t := k.s.guard.Tenancy()
	var v portal.Validation
	if err := access.CheckGrant(call.Principal, call.Scope.Unit.ID, access.ReviewGrant); err != nil {
		v.Add(portal.New(portal.InsufficientRole, "%s: grants of %s are given by its Admins", portal.FirstMessage(err), call.Scope.Unit.ID))
	}
	rec := store.GrantRecord{Zone: call.Scope.Zone().ID, Stage: call.Scope.Stage.Name, Owner: call.Scope.Unit.ID, Access: d.Access, Prefixed: d.Prefix,
		Requester: call.Principal.Actor(), RequesterSubject: call.Principal.Subject, Reason: "given by " + call.Scope.Unit.ID + " as code"}
	if r.Description != "" {
		rec.Reason = r.Description
	}
	rec.Pattern = call.Scope.Prefix() + t.Rebase(call.Scope.Unit, r.Name)
	if portal.TopicNameProblem(rec.Pattern) != "" {
		v.Add(portal.Invalid("name", "%q is not a topic name or prefix of %s", portal.Clip(r.Name, 64), call.Scope.Unit.ID))
	}
	if u, ok := t.Unit(d.Unit); !ok || u.LandingZone.ID != call.Scope.Zone().ID || u.ID == call.Scope.Unit.ID {
		v.Add(portal.Invalid("spec.businessUnit", "businessUnit must be another unit of landing zone %s, not %q", call.Scope.Zone().ID, portal.Clip(d.Unit, 64)))
	} else {
		rec.Grantee = u.ID
	}
	if d.Access != grant.AccessRead && d.Access != grant.AccessWrite {
		v.Add(portal.Invalid("spec.access", "access must be read or write, not %q", portal.Clip(d.Access, 32)))
	}
	p, found := o.principals[d.Principal]
	if !found {
		p, found = o.principals[inStage(t, d.Principal, call.Scope.Stage)]
	}
	switch {
	case !found && rec.Grantee != "":
		v.Add(portal.Invalid("spec.principal", "%s has no service account or identity pool %q in %s", rec.Grantee, portal.Clip(d.Principal, 80), call.Scope.Stage.Name))
	case found && p.owner.Unit.ID != rec.Grantee:
		v.Add(portal.Invalid("spec.principal", "%s belongs to %s, not to %s", d.Principal, p.owner.Unit.ID, rec.Grantee))
	}
	rec.Principal, rec.PrincipalName = p.id, p.name
	pattern := rec.Pattern
	if rec.Prefixed {
		pattern += "*"
	}
	st := &plans.Step{Key: "grant/" + rec.Grantee + "/" + rec.Principal + "/" + rec.Access + "/" + pattern,
		Change: ascode.PlannedChange{Kind: "grant", Name: pattern}}
	exists := false
	for _, g := range o.grants {
		switch {
		case !sameGrant(g, rec):
		case g.State == grant.GrantActive:
			exists = true
			st.State = g.ID
		case g.State == grant.GrantRequested:
			v.Add(portal.New(portal.Conflict, "%s asked for this grant (%s): approve or reject the request", g.Grantee, g.ID))
		}
	}
	if !exists {
		st.Diff("businessUnit", nil, plans.Ptr(rec.Grantee))
		st.Diff("principal", nil, plans.Ptr(rec.PrincipalName))
		st.Diff("access", nil, plans.Ptr(rec.Access))
		st.Diff("prefix", nil, plans.Ptr(strconv.FormatBool(rec.Prefixed)))
	}
	st.Change.Errors = v.Problems
	st.Do = func(ctx context.Context) error {
		_, err := k.s.give(ctx, call, rec)
		return err
	}
	st.Decide(exists)
	return st, nil
}

// give makes a grant active without a request: the owner's own decision.
func (s *Service) give(ctx context.Context, call *gate.Call, rec store.GrantRecord) (grant.TopicGrant, error) {
	unlock, err := s.guard.Lock(ctx, "grant-principal "+rec.Principal)
	if err != nil {
		return grant.TopicGrant{}, err
	}
	defer unlock()
	if err := s.refuseDuplicate(ctx, rec); err != nil {
		return grant.TopicGrant{}, err
	}
	rec.ID, rec.Created = newID(), s.guard.Now().UTC()
	return s.approve(ctx, call, rec, portal.ActGrantCreate, "", "")
}

// Prune is never asked of grants.
func (grantCode) Prune(*gate.Call, plans.Observed, map[string]bool) []*plans.Step { return nil }

// Export declares the grants the unit gives, active ones only.
func (k grantCode) Export(_ context.Context, call *gate.Call, obs plans.Observed) ([]portal.Resource, error) {
	var out []portal.Resource
	for _, g := range obs.(observed).grants {
		if g.Owner != call.Scope.Unit.ID || g.State != grant.GrantActive {
			continue
		}
		out = append(out, portal.Resource{Kind: portal.KindGrant, Name: strings.TrimPrefix(g.Pattern, call.Scope.Prefix()), Description: g.Reason,
			Spec: &portal.GrantDecl{Unit: g.Grantee, Principal: g.PrincipalName, Access: g.Access, Prefix: g.Prefixed}})
	}
	slices.SortStableFunc(out, func(a, b portal.Resource) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}
