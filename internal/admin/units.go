package admin

import (
	"context"
	"slices"
	"strings"
	"sync"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/adminarea"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/store"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// Units lists every landing zone's units with their groups, clusters and
// resource counts (one list per cluster, registry and Connect API, shared
// by all the zone's units).
func (a *Admin) Units(ctx context.Context) ([]adminarea.AdminUnit, error) {
	_, t, err := a.enter(ctx, access.ManageTenancy, "")
	if err != nil {
		return nil, err
	}
	records, err := a.records(ctx)
	if err != nil {
		return nil, err
	}
	counts := a.count(ctx, t, t.LandingZones())
	out := make([]adminarea.AdminUnit, 0, len(t.Units()))
	for _, u := range t.Units() {
		out = append(out, a.unitOut(t, u, records[u.ID], counts))
	}
	return out, nil
}

// Unit describes one unit.
func (a *Admin) Unit(ctx context.Context, id string) (adminarea.AdminUnit, error) {
	_, t, err := a.enter(ctx, access.ManageTenancy, "")
	if err != nil {
		return adminarea.AdminUnit{}, err
	}
	u, ok := t.Unit(id)
	if !ok {
		return adminarea.AdminUnit{}, unitMissing(id)
	}
	records, err := a.records(ctx)
	if err != nil {
		return adminarea.AdminUnit{}, err
	}
	return a.unitOut(t, u, records[id], a.count(ctx, t, []*tenancy.LandingZone{u.LandingZone})), nil
}

func unitMissing(id string) error {
	e := portal.New(portal.NotFound, "business unit %q not found", id)
	e.Field = "id"
	return e
}

func (a *Admin) records(ctx context.Context) (map[string]store.UnitRecord, error) {
	list, err := a.o.Store.UnitRecords(ctx)
	if err != nil {
		return nil, err
	}
	m := map[string]store.UnitRecord{}
	for _, r := range list {
		m[r.ID] = r
	}
	return m, nil
}

func (a *Admin) unitOut(t *tenancy.Tenancy, u *tenancy.BusinessUnit, r store.UnitRecord, counts map[string]unitCounts) adminarea.AdminUnit {
	out := adminarea.AdminUnit{ID: u.ID, LandingZone: u.LandingZone.ID, Dedicated: u.LandingZone.Dedicated, Main: u.IsMain(),
		Source: u.Source, Groups: adminarea.UnitGroups{Admin: nonNil(u.AdminGroups), Developer: nonNil(u.DeveloperGroups), Viewer: nonNil(u.ViewerGroups)},
		CreatedBy: r.CreatedBy, Created: r.Created, UpdatedBy: r.UpdatedBy, Updated: r.Updated}
	for _, st := range t.Stages() {
		scope := tenancy.Scope{Unit: u, Stage: st}
		env := u.LandingZone.ID + "/" + st.Name
		c := counts[env]
		s := adminarea.AdminUnitStage{Stage: st.Name, Cluster: env, Prefix: scope.Prefix(), CountError: c.err}
		if c.err == "" {
			s.Topics, s.Connectors, s.Subjects = c.owned(scope, c.topics), c.owned(scope, c.connectors), c.owned(scope, c.subjects)
		}
		out.Stages = append(out.Stages, s)
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// unitCounts are one environment's resource names, counted per unit.
type unitCounts struct {
	topics, connectors, subjects []string
	err                          string
}

// owned counts the names in a unit's scope (prefixes of a zone's units
// never overlap: the tenancy refuses it).
func (unitCounts) owned(scope tenancy.Scope, names []string) int {
	n := 0
	for _, name := range names {
		if scope.Owns(name) {
			n++
		}
	}
	return n
}

// count lists each environment of the zones once, concurrently.
func (a *Admin) count(ctx context.Context, t *tenancy.Tenancy, zones []*tenancy.LandingZone) map[string]unitCounts {
	out := map[string]unitCounts{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, z := range zones {
		for _, st := range t.Stages() {
			env, err := a.guard.Environments().Get(z.ID, st.Name)
			if err != nil {
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				c := listNames(ctx, env, zonePrefix(z))
				mu.Lock()
				out[env.Name()] = c
				mu.Unlock()
			}()
		}
	}
	wg.Wait()
	return out
}

// zonePrefix starts every name of the zone's units ("{lz}-" on a shared
// zone, "{bu}-" on a dedicated one, whose unit is the zone).
func zonePrefix(z *tenancy.LandingZone) string { return z.ID + "-" }

// listNames reads an environment's topics, connectors and subjects.
func listNames(ctx context.Context, env *platform.Environment, prefix string) unitCounts {
	var c unitCounts
	var problems []string
	if topics, err := env.Topics.ListTopics(ctx); err != nil {
		problems = append(problems, "cluster: "+portal.FirstMessage(err))
	} else {
		for _, t := range topics {
			c.topics = append(c.topics, t.Name)
		}
	}
	if conns, err := env.Connectors.ListConnectors(ctx); err != nil && !portal.Is(err, portal.NotFound) {
		problems = append(problems, "connect: "+portal.FirstMessage(err))
	} else {
		for _, k := range conns {
			c.connectors = append(c.connectors, k.Name)
		}
	}
	if subjects, err := env.Schemas.ListSchemas(ctx, prefix, true); err != nil && !portal.Is(err, portal.NotFound) {
		problems = append(problems, "schema registry: "+portal.FirstMessage(err))
	} else {
		for _, s := range subjects {
			c.subjects = append(c.subjects, s.Subject)
		}
	}
	c.err = strings.Join(problems, "; ")
	return c
}

// checkGroups validates a unit's groups: trimmed, unique, not empty, and
// at least one group in some role.
func checkGroups(v *portal.Validation, g adminarea.UnitGroups) adminarea.UnitGroups {
	clean := func(field string, in []string) []string {
		out := []string{}
		for i, x := range in {
			x = strings.TrimSpace(x)
			switch {
			case x == "":
				v.Add(portal.Invalid(field, "group %d is empty", i+1))
			case len(x) > 256:
				v.Add(portal.Invalid(field, "group %d is longer than 256 characters", i+1))
			case !slices.ContainsFunc(out, func(y string) bool { return strings.EqualFold(x, y) }):
				out = append(out, x)
			}
		}
		return out
	}
	g = adminarea.UnitGroups{Admin: clean("groups.admin", g.Admin), Developer: clean("groups.developer", g.Developer), Viewer: clean("groups.viewer", g.Viewer)}
	if len(g.Admin)+len(g.Developer)+len(g.Viewer) == 0 {
		v.Add(portal.Invalid("groups", "give at least one group to one role (admin, developer or viewer), or nobody could use the unit"))
	}
	return g
}

// maxUnitID bounds a unit's id, which starts every name of the unit's
// resources (a topic's full name has at most 249 characters).
const maxUnitID = 32

// reservedUnitIDs are first path segments of the portal's own pages and
// endpoints, which a unit's pages (/{bu}/{stage}/...) must not shadow.
var reservedUnitIDs = []string{"admin", "api", "api-docs", "auth", "context", "dev", "healthz", "me", "metrics", "readyz", "signed-out", "static"}

// Onboard adds a unit to a shared landing zone; it is in force on this
// replica at once and on the others as soon as they hear of it.
func (a *Admin) Onboard(ctx context.Context, o adminarea.Onboarding) (adminarea.AdminUnit, error) {
	target := auditTarget{zone: o.LandingZone, unit: o.ID, resource: o.ID}
	p, t, err := a.enterWrite(ctx, access.ManageTenancy, portal.ActBusinessUnitOnboard, target)
	if err != nil {
		return adminarea.AdminUnit{}, err
	}
	var v portal.Validation
	id := strings.TrimSpace(o.ID)
	switch {
	case id == "":
		v.Add(portal.Missing("id"))
	case len(id) > maxUnitID:
		v.Add(portal.Invalid("id", "a business unit id is at most %d characters (it starts the name of every resource of the unit); %q is %d", maxUnitID, portal.Clip(id, 64), len(id)))
	case tenancy.IdentifierProblem(id) != "" || id != strings.ToLower(id):
		v.Add(portal.Invalid("id", "a business unit id is lower-case letters, digits and inner dashes (%q is not)", o.ID))
	case slices.Contains(reservedUnitIDs, id):
		v.Add(portal.Invalid("id", "%q is reserved: the portal's own pages use it", id))
	}
	var zone *tenancy.LandingZone
	if o.LandingZone == "" {
		v.Add(portal.Missing("landing_zone"))
	} else if z, ok := t.LandingZone(o.LandingZone); !ok {
		v.Add(portal.Invalid("landing_zone", "landing zone %q is not configured", o.LandingZone))
	} else if z.Dedicated {
		v.Add(portal.Invalid("landing_zone", "landing zone %q is dedicated to one unit; onboard into a shared landing zone", o.LandingZone))
	} else {
		zone = z
	}
	groups := checkGroups(&v, o.Groups)
	if err := v.Err(); err != nil {
		a.record(ctx, p, portal.ActBusinessUnitOnboard, target, err)
		return adminarea.AdminUnit{}, err
	}
	if _, taken := t.Unit(id); taken {
		err := portal.New(portal.AlreadyExists, "business unit %q exists already", id)
		a.record(ctx, p, portal.ActBusinessUnitOnboard, target, err)
		return adminarea.AdminUnit{}, err
	}
	// The naming convention is the tenant boundary: refuse a unit whose
	// prefix would overlap another's before storing it.
	next := t.Spec()
	for i := range next.LandingZones {
		if next.LandingZones[i].ID == zone.ID {
			next.LandingZones[i].Units = append(next.LandingZones[i].Units, tenancy.UnitSpec{ID: id, Source: tenancy.FromPortal,
				AdminGroups: groups.Admin, DeveloperGroups: groups.Developer, ViewerGroups: groups.Viewer})
		}
	}
	if _, err := tenancy.New(next); err != nil {
		err := portal.Invalid("id", "%v", err)
		a.record(ctx, p, portal.ActBusinessUnitOnboard, target, err)
		return adminarea.AdminUnit{}, err
	}
	now := a.guard.Now()
	rec := store.UnitRecord{ID: id, LandingZone: zone.ID, Admin: groups.Admin, Developer: groups.Developer, Viewer: groups.Viewer,
		CreatedBy: p.Actor(), Created: now, UpdatedBy: p.Actor(), Updated: now}
	if err := a.write(ctx, p, portal.ActBusinessUnitOnboard, target, func(ctx context.Context) ([]trail.Change, error) {
		if err := a.o.Store.CreateUnitRecord(ctx, rec); err != nil {
			return nil, storeErr(err, "business unit "+id)
		}
		return groupChanges(adminarea.UnitGroups{}, groups), nil
	}); err != nil {
		return adminarea.AdminUnit{}, err
	}
	a.o.Sync.Announce(ctx, "units")
	return a.Unit(ctx, id)
}

// groupChanges are the before and after of a unit's groups per role.
func groupChanges(before, after adminarea.UnitGroups) []trail.Change {
	var out []trail.Change
	for _, r := range []struct {
		field string
		b, a  []string
	}{{"groups.admin", before.Admin, after.Admin}, {"groups.developer", before.Developer, after.Developer}, {"groups.viewer", before.Viewer, after.Viewer}} {
		b, af := strings.Join(r.b, ", "), strings.Join(r.a, ", ")
		if b != af {
			out = append(out, trail.Change{Field: r.field, Before: b, After: af})
		}
	}
	return out
}

// UpdateGroups replaces an onboarded unit's groups.
func (a *Admin) UpdateGroups(ctx context.Context, id string, g adminarea.UnitGroups) (adminarea.AdminUnit, error) {
	target := auditTarget{unit: id, resource: id}
	if u, ok := a.guard.Tenancy().Unit(id); ok {
		target.zone = u.LandingZone.ID
	}
	p, t, err := a.enterWrite(ctx, access.ManageTenancy, portal.ActBusinessUnitUpdate, target)
	if err != nil {
		return adminarea.AdminUnit{}, err
	}
	u, ok := t.Unit(id)
	if !ok {
		return adminarea.AdminUnit{}, unitMissing(id)
	}
	if u.Source != tenancy.FromPortal {
		err := portal.New(portal.Conflict, "business unit %q is defined in the configuration file; change its groups there", id)
		a.record(ctx, p, portal.ActBusinessUnitUpdate, target, err)
		return adminarea.AdminUnit{}, err
	}
	var v portal.Validation
	groups := checkGroups(&v, g)
	if err := v.Err(); err != nil {
		a.record(ctx, p, portal.ActBusinessUnitUpdate, target, err)
		return adminarea.AdminUnit{}, err
	}
	before := adminarea.UnitGroups{Admin: u.AdminGroups, Developer: u.DeveloperGroups, Viewer: u.ViewerGroups}
	rec := store.UnitRecord{ID: id, Admin: groups.Admin, Developer: groups.Developer, Viewer: groups.Viewer, UpdatedBy: p.Actor(), Updated: a.guard.Now()}
	if err := a.write(ctx, p, portal.ActBusinessUnitUpdate, target, func(ctx context.Context) ([]trail.Change, error) {
		if err := a.o.Store.UpdateUnitRecord(ctx, rec); err != nil {
			return nil, storeErr(err, "business unit "+id)
		}
		return groupChanges(before, groups), nil
	}); err != nil {
		return adminarea.AdminUnit{}, err
	}
	a.o.Sync.Announce(ctx, "units")
	return a.Unit(ctx, id)
}

// Offboard removes an onboarded unit: it disappears from every selector
// and role at once. Nothing upstream is deleted; what still carries the
// unit's names is listed for the platform team to clean up.
func (a *Admin) Offboard(ctx context.Context, id string) (adminarea.Offboarding, error) {
	target := auditTarget{unit: id, resource: id}
	if u, ok := a.guard.Tenancy().Unit(id); ok {
		target.zone = u.LandingZone.ID
	}
	p, t, err := a.enterWrite(ctx, access.ManageTenancy, portal.ActBusinessUnitOffboard, target)
	if err != nil {
		return adminarea.Offboarding{}, err
	}
	u, ok := t.Unit(id)
	if !ok {
		return adminarea.Offboarding{}, unitMissing(id)
	}
	if u.Source != tenancy.FromPortal {
		err := portal.New(portal.Conflict, "business unit %q is defined in the configuration file; remove it there", id)
		a.record(ctx, p, portal.ActBusinessUnitOffboard, target, err)
		return adminarea.Offboarding{}, err
	}
	out := a.leftovers(ctx, t, u)
	if err := a.write(ctx, p, portal.ActBusinessUnitOffboard, target, func(ctx context.Context) ([]trail.Change, error) {
		if err := a.o.Store.DeleteUnitRecord(ctx, id); err != nil {
			return nil, storeErr(err, "business unit "+id)
		}
		before := adminarea.UnitGroups{Admin: u.AdminGroups, Developer: u.DeveloperGroups, Viewer: u.ViewerGroups}
		return groupChanges(before, adminarea.UnitGroups{}), nil
	}); err != nil {
		return adminarea.Offboarding{}, err
	}
	a.o.Sync.Announce(ctx, "units")
	return out, nil
}

// leftovers lists what carries a unit's names in each stage.
func (a *Admin) leftovers(ctx context.Context, t *tenancy.Tenancy, u *tenancy.BusinessUnit) adminarea.Offboarding {
	out := adminarea.Offboarding{Unit: u.ID, Left: []adminarea.LeftResource{}, Incomplete: []string{}}
	counts := a.count(ctx, t, []*tenancy.LandingZone{u.LandingZone})
	for _, st := range t.Stages() {
		scope := tenancy.Scope{Unit: u, Stage: st}
		env := u.LandingZone.ID + "/" + st.Name
		c, ok := counts[env]
		if !ok {
			continue
		}
		if c.err != "" {
			out.Incomplete = append(out.Incomplete, env+": "+c.err)
		}
		for kind, names := range map[string][]string{"topic": c.topics, "connector": c.connectors, "subject": c.subjects} {
			for _, n := range names {
				if scope.Owns(n) {
					out.Left = append(out.Left, adminarea.LeftResource{Stage: st.Name, Kind: kind, Name: n})
				}
			}
		}
		if e, err := a.guard.Environments().Get(u.LandingZone.ID, st.Name); err == nil {
			if accounts, err := e.IAM.ListServiceAccounts(ctx); err != nil {
				out.Incomplete = append(out.Incomplete, env+": iam: "+portal.FirstMessage(err))
			} else {
				for _, sa := range accounts {
					if strings.HasPrefix(sa.DisplayName, scope.ServiceAccountPrefix()) {
						out.Left = append(out.Left, adminarea.LeftResource{Stage: st.Name, Kind: "service_account", Name: sa.DisplayName})
					}
				}
			}
		}
	}
	slices.SortFunc(out.Left, func(x, y adminarea.LeftResource) int {
		return strings.Compare(x.Stage+x.Kind+x.Name, y.Stage+y.Kind+y.Name)
	})
	return out
}
