package admin

import (
	"context"
	"strconv"
	"strings"
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

// ReadOnly lists every landing zone's stages: the configured default, the
// switch, and what applies now.
func (a *Admin) ReadOnly(ctx context.Context) ([]adminarea.ReadOnlyState, error) {
	_, t, err := a.enter(ctx, access.ManageTenancy, "")
	if err != nil {
		return nil, err
	}
	now := a.guard.Now()
	var out []adminarea.ReadOnlyState
	for _, z := range t.LandingZones() {
		for _, st := range t.Stages() {
			eff, _ := t.StageIn(z, st.Name, now)
			s := adminarea.ReadOnlyState{LandingZone: z.ID, Stage: st.Name, ReadOnly: eff.ReadOnly, Configured: st.ReadOnly}
			if sw, ok := z.Switch(st.Name); ok {
				s.Switched = sw.Active(now)
				s.Reason, s.Until, s.SetBy, s.SetAt = sw.Reason, sw.Until, sw.SetBy, sw.SetAt
			}
			out = append(out, s)
		}
	}
	return out, nil
}

// SetReadOnly switches one zone's stage, with a reason and an optional
// end; in force everywhere as soon as the replicas hear of it.
func (a *Admin) SetReadOnly(ctx context.Context, zone, stage string, c adminarea.ReadOnlyChange) (adminarea.ReadOnlyState, error) {
	target := auditTarget{zone: zone, stage: stage, resource: zone + "/" + stage}
	p, t, err := a.enterWrite(ctx, access.ManageTenancy, portal.ActReadOnlySet, target)
	if err != nil {
		return adminarea.ReadOnlyState{}, err
	}
	z, ok := t.LandingZone(zone)
	if !ok {
		e := portal.New(portal.NotFound, "landing zone %q not found", zone)
		e.Field = "landing_zone"
		return adminarea.ReadOnlyState{}, e
	}
	st, ok := t.Stage(stage)
	if !ok {
		return adminarea.ReadOnlyState{}, gate.StageNotFound(t, stage)
	}
	now := a.guard.Now()
	var v portal.Validation
	c.Reason = strings.TrimSpace(c.Reason)
	switch {
	case c.Reason == "":
		v.Add(portal.Invalid("reason", "say why, for the banner people will see (a change freeze, an incident)"))
	default:
		v.Add(portal.CheckText("reason", c.Reason, 500, true))
	}
	if !c.Until.IsZero() && !c.Until.After(now) {
		v.Add(portal.Invalid("until", "must be in the future"))
	}
	if err := v.Err(); err != nil {
		a.record(ctx, p, portal.ActReadOnlySet, target, err)
		return adminarea.ReadOnlyState{}, err
	}
	before, _ := t.StageIn(z, stage, now)
	rec := store.SwitchRecord{LandingZone: zone, Stage: stage, ReadOnly: c.ReadOnly, Reason: c.Reason, Until: c.Until, SetBy: p.Actor(), SetAt: now}
	if err := a.write(ctx, p, portal.ActReadOnlySet, target, func(ctx context.Context) ([]trail.Change, error) {
		if err := a.o.Store.PutSwitchRecord(ctx, rec); err != nil {
			return nil, err
		}
		return switchChanges(before, rec), nil
	}); err != nil {
		return adminarea.ReadOnlyState{}, err
	}
	a.o.Sync.Announce(ctx, "switches")
	return adminarea.ReadOnlyState{LandingZone: zone, Stage: stage, ReadOnly: c.ReadOnly, Configured: st.ReadOnly, Switched: true,
		Reason: c.Reason, Until: c.Until, SetBy: rec.SetBy, SetAt: now}, nil
}

// switchChanges are a switch's before and after, for the trail.
func switchChanges(before tenancy.Stage, after store.SwitchRecord) []trail.Change {
	until := func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.UTC().Format(time.RFC3339)
	}
	var out []trail.Change
	add := func(field, b, a string) {
		if b != a {
			out = append(out, trail.Change{Field: field, Before: b, After: a})
		}
	}
	add("read_only", strconv.FormatBool(before.ReadOnly), strconv.FormatBool(after.ReadOnly))
	add("reason", before.Reason, after.Reason)
	add("until", until(before.Until), until(after.Until))
	return out
}

// adminQuery narrows the trail to what the caller may read: platform
// admins everything, a zone's Super Admins their zones.
func (a *Admin) adminQuery(ctx context.Context, q trail.AuditQuery) (store.AuditFilter, []string, error) {
	p, t, err := a.enter(ctx, access.ReadZoneAudit, q.LandingZone)
	if err != nil {
		return store.AuditFilter{}, nil, err
	}
	f, err := service.AuditFilter(a.guard.Pages(), "admin audit", q)
	if err != nil {
		return store.AuditFilter{}, nil, err
	}
	f.LandingZone, f.BU, f.Stage = q.LandingZone, q.BU, q.Stage
	var zones []string
	if !p.PlatformAdmin && q.LandingZone == "" {
		zones = access.AdminZones(p, t)
	}
	return f, zones, nil
}

// Audit reads a page of the trail across units.
func (a *Admin) Audit(ctx context.Context, q trail.AuditQuery) (portal.Page[trail.AuditEvent], error) {
	f, zones, err := a.adminQuery(ctx, q)
	if err != nil {
		return portal.Page[trail.AuditEvent]{}, err
	}
	f.Zones = zones
	return a.trail.Page(ctx, f, "admin audit")
}

// ExportAudit gives every matching event to emit, newest first, at most
// adminarea.MaxExport of them, reading the trail a page at a time.
func (a *Admin) ExportAudit(ctx context.Context, q trail.AuditQuery, emit func(trail.AuditEvent) error) error {
	q.PageToken, q.PageSize = "", 0
	f, zones, err := a.adminQuery(ctx, q)
	if err != nil {
		return err
	}
	f.Zones = zones
	f.Limit = 1000
	sent := 0
	for sent < adminarea.MaxExport {
		events, err := a.o.Store.ListAudit(ctx, f)
		if err != nil {
			return err
		}
		for _, e := range events {
			if err := emit(e); err != nil {
				return err
			}
			sent++
		}
		if len(events) < f.Limit {
			return nil
		}
		last := events[len(events)-1]
		f.After = &store.AuditCursor{At: last.Time, ID: last.ID}
	}
	return nil
}

// Upstreams reports the upstreams' health; a zone's Super Admins see
// their zones' clusters and registries.
func (a *Admin) Upstreams(ctx context.Context) ([]adminarea.UpstreamStatus, error) {
	p, t, err := a.enter(ctx, access.ReadZoneHealth, "")
	if err != nil {
		return nil, err
	}
	zones := map[string]bool{}
	for _, z := range access.AdminZones(p, t) {
		zones[z] = true
	}
	out := []adminarea.UpstreamStatus{}
	for _, h := range a.o.Health() {
		zone := ""
		if h.Kind == upstream.Cluster || h.Kind == upstream.SchemaRegistry {
			zone, _, _ = strings.Cut(h.Name, "/")
		}
		if !p.PlatformAdmin && !zones[zone] {
			continue
		}
		out = append(out, adminarea.UpstreamStatus{Kind: h.Kind, Name: h.Name, LandingZone: zone, State: h.State, Circuit: h.Circuit,
			Since: h.Since, LatencyMS: h.LatencyMS, LastError: h.LastError, LastErrAt: h.LastErrAt, LastOK: h.LastOK, Calls: h.Calls})
	}
	return out, nil
}

// Config is the configuration in force, secrets redacted.
func (a *Admin) Config(ctx context.Context) (adminarea.EffectiveConfig, error) {
	_, t, err := a.enter(ctx, access.ReadConfig, "")
	if err != nil {
		return adminarea.EffectiveConfig{}, err
	}
	text, err := a.o.Config(t)
	return adminarea.EffectiveConfig{YAML: text, Ignored: a.o.Ignored}, err
}

// Sessions lists live browser sessions of a user (by username or
// subject), or everyone's, newest first.
func (a *Admin) Sessions(ctx context.Context, user string) ([]portal.SessionInfo, error) {
	if _, _, err := a.enter(ctx, access.ManageSessions, ""); err != nil {
		return nil, err
	}
	all, err := a.o.Store.SessionsOf(ctx, "", a.guard.Now())
	if err != nil {
		return nil, err
	}
	out := []portal.SessionInfo{}
	for _, s := range all {
		if user != "" && s.Subject != user && !strings.EqualFold(s.Username, user) {
			continue
		}
		out = append(out, portal.SessionInfo{ID: s.ID, Subject: s.Subject, Username: s.Username, UserAgent: s.UserAgent, IP: s.IP,
			Created: s.Created, LastSeen: s.LastSeen, Expires: s.Expires})
	}
	return out, nil
}

// EndSession signs a session out on every replica at once (sessions live
// in the database).
func (a *Admin) EndSession(ctx context.Context, id string) error {
	target := auditTarget{resource: "session " + id}
	p, _, err := a.enterWrite(ctx, access.ManageSessions, portal.ActSessionEnd, target)
	if err != nil {
		return err
	}
	sess, err := a.o.Store.Session(ctx, id, a.guard.Now())
	if err != nil {
		err = storeErr(err, "session (it ended or expired)")
		a.record(ctx, p, portal.ActSessionEnd, target, err)
		return err
	}
	target.resource = "session of " + sess.Username
	return a.write(ctx, p, portal.ActSessionEnd, target, func(ctx context.Context) ([]trail.Change, error) {
		if err := a.o.Store.DeleteSession(ctx, id); err != nil {
			return nil, storeErr(err, "session")
		}
		return nil, nil
	})
}

// PreviewAccess explains the access that groups (or a token's claims)
// would give, before anyone signs in again.
func (a *Admin) PreviewAccess(ctx context.Context, q portal.AccessQuery) (portal.AccessReport, error) {
	_, t, err := a.enter(ctx, access.PreviewAccess, "")
	if err != nil {
		return portal.AccessReport{}, err
	}
	id := portal.Identity{Subject: "preview", Groups: q.Groups}
	if q.Claims != nil {
		groups, overage, err := access.GroupsFromClaims(q.Claims, a.o.GroupsClaim)
		if err != nil {
			return portal.AccessReport{}, portal.Invalid("claims", "%v", err)
		}
		id.Groups, id.GroupsOverage = append(id.Groups, groups...), overage
	}
	var v portal.Validation
	for i, g := range id.Groups {
		if strings.TrimSpace(g) == "" {
			v.Add(portal.Invalid("groups", "group %d is empty", i+1))
		}
	}
	if q.Claims == nil && len(q.Groups) == 0 {
		v.Add(portal.Invalid("groups", "give groups, or a token's claims"))
	}
	if err := v.Err(); err != nil {
		return portal.AccessReport{}, err
	}
	p := a.o.Resolver.Resolve(id)
	r := access.Explain(t, p, a.guard.AdminGroup())
	if a.grants != nil {
		g, err := a.grants(ctx, p)
		if err != nil {
			return r, err
		}
		r.Grants = g
	}
	return r, nil
}
