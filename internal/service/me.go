// Package service holds what spans the kinds: the caller (me, sessions),
// the audit trail, search across kinds, and the reconciler that settles
// attempts whose outcome was unknown. Each kind's service is a package of
// its own (topics, records, groups, schemas, connectors, identity, alerts).
package service

import (
	"context"
	"strings"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// Me tells callers who they are and where they may work.
type Me struct {
	guard    *gate.Guard
	sessions SessionStore
	grants   GrantExplainer
}

// GrantExplainer lists the access a principal's units hold through
// grants.
type GrantExplainer func(ctx context.Context, p *portal.Principal) ([]portal.GrantAccess, error)

// ExplainGrantsWith lets the access report list grant-based access.
func (m *Me) ExplainGrantsWith(g GrantExplainer) { m.grants = g }

var _ portal.CallerService = (*Me)(nil)

// NewMe returns the caller service; sessions are the browser sessions it
// lists and ends for their owners.
func NewMe(g *gate.Guard, sessions SessionStore) *Me { return &Me{guard: g, sessions: sessions} }

// Me describes the caller in ctx.
func (m *Me) Me(ctx context.Context) (portal.Caller, error) {
	p := portal.PrincipalFrom(ctx)
	if p == nil {
		return portal.Caller{}, portal.New(portal.Unauthenticated, "sign-in required")
	}
	c := portal.Caller{Principal: p, Units: []portal.UnitRole{}}
	t := m.guard.Tenancy()
	c.Admin = access.CheckAdmin(p, t, access.ReadZoneAudit, "") == nil
	for _, s := range t.Stages() {
		c.Stages = append(c.Stages, portal.Stage{Name: s.Name, ReadOnly: s.ReadOnly})
	}
	for _, u := range t.Units() {
		if g := p.Grant(u.ID); g.Role > portal.NoRole {
			ur := portal.UnitRole{ID: u.ID, LandingZone: u.LandingZone.ID,
				Dedicated: u.LandingZone.Dedicated, Main: u.IsMain(), Role: g.Role, Groups: g.Groups}
			for _, s := range t.Stages() {
				if st, ok := t.StageIn(u.LandingZone, s.Name, m.guard.Now()); ok && st.ReadOnly {
					ur.ReadOnlyStages = append(ur.ReadOnlyStages, s.Name)
				}
			}
			c.Units = append(c.Units, ur)
		}
	}
	return c, nil
}

// Layout describes the caller and its standing in the named scope (when
// it names a unit), or the context it lands in: the first stage of the
// unit where its role is highest.
func (m *Me) Layout(ctx context.Context, named portal.Scope) (portal.Layout, error) {
	c, err := m.Me(ctx)
	if err != nil {
		return portal.Layout{}, err
	}
	l := portal.Layout{Caller: c}
	if named.BU != "" {
		scope, err := m.guard.Resolve(c.Principal, named)
		if err != nil {
			return l, err
		}
		l.Context = outlook(c.Principal, scope)
		if env, err := m.guard.Environments().Get(scope.Zone().ID, scope.Stage.Name); err == nil {
			l.Context.HasRegistry = env.Scope.SchemaRegistryID != ""
		}
		return l, nil
	}
	if len(c.Units) > 0 && len(c.Stages) > 0 {
		// A person lands where they do most: the unit of their highest
		// role (the first of those in order).
		first := c.Units[0]
		for _, u := range c.Units[1:] {
			if u.Role > first.Role {
				first = u
			}
		}
		if scope, err := m.guard.Resolve(c.Principal, portal.Scope{BU: first.ID, Stage: c.Stages[0].Name}); err == nil {
			l.Default = outlook(c.Principal, scope)
		}
	}
	return l, nil
}

// Outlooks describe the caller's standing in each of its units in each
// stage.
func (m *Me) Outlooks(ctx context.Context) ([]portal.Outlook, error) {
	c, err := m.Me(ctx)
	if err != nil {
		return nil, err
	}
	var out []portal.Outlook
	for _, u := range c.Units {
		for _, st := range c.Stages {
			scope, err := m.guard.Resolve(c.Principal, portal.Scope{BU: u.ID, Stage: st.Name})
			if err != nil {
				continue // the unit has no such stage
			}
			out = append(out, *outlook(c.Principal, scope))
		}
	}
	return out, nil
}

// outlook applies the policy to every action, for pages to show controls.
func outlook(p *portal.Principal, scope tenancy.Scope) *portal.Outlook {
	role := p.Role(scope.Unit.ID)
	write := access.Decide(role, access.Write, scope.Stage)
	manage := access.Decide(role, access.ManageIdentity, scope.Stage)
	refusal := ""
	if err := access.CheckProduce(p, scope); err != nil {
		refusal = portal.FirstMessage(err)
	}
	return &portal.Outlook{
		ReadRecords: access.DecideData(role, scope.Stage).Allowed, Produce: refusal == "", ProduceRefusal: refusal,
		AskGrants: access.DecideGrant(role, access.AskGrant).Allowed, FileRequests: access.Decide(role, access.RequestChange, scope.Stage).Allowed,
		BU: scope.Unit.ID, Stage: scope.Stage.Name, LandingZone: scope.Zone().ID, Dedicated: scope.Zone().Dedicated,
		ReadOnly: scope.Stage.ReadOnly, ReadOnlyReason: readOnlyReason(scope.Stage), Role: role, Prefix: scope.Prefix(), AccountPrefix: scope.ServiceAccountPrefix(),
		CanWrite: write.Allowed, Bypass: write.Bypass, WriteBlockedByStage: write.Denial == portal.ReadOnlyEnvironment,
		CanManage: manage.Allowed, WholeCluster: gate.WholeCluster(scope.Unit, role), KeyMaxAge: scope.Stage.APIKeyMaxAge,
	}
}

// readOnlyReason is the switch's reason and end, for the banner.
func readOnlyReason(st tenancy.Stage) string {
	r := access.ReadOnlyReason(st)
	return strings.TrimSuffix(strings.TrimPrefix(r, " ("), ")")
}

// Access explains the caller's own access.
func (m *Me) Access(ctx context.Context) (portal.AccessReport, error) {
	p := portal.PrincipalFrom(ctx)
	if p == nil {
		return portal.AccessReport{}, portal.New(portal.Unauthenticated, "sign-in required")
	}
	r := access.Explain(m.guard.Tenancy(), p, m.guard.AdminGroup())
	if m.grants != nil {
		g, err := m.grants(ctx, p)
		if err != nil {
			return r, err
		}
		r.Grants = g
	}
	return r, nil
}
