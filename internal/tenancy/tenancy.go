// Package tenancy describes who the tenants are: landing zones, business
// units and stages, and the scope {business unit, stage} that every request
// works in.
package tenancy

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Stage is a deployment stage such as dev, qas or run.
type Stage struct {
	Name string
	// ReadOnly stages refuse writes from Developers; Admins bypass it.
	ReadOnly bool
	// DataAccess says who may read records: DataOff, DataDevelopers or
	// DataViewers.
	DataAccess string
	// Produce says who may write records by hand: ProduceOff,
	// ProduceDevelopers or ProduceAdmins.
	Produce string
	// APIKeyMaxAge bounds the life of the stage's API keys; 0 for none.
	APIKeyMaxAge time.Duration
	// Changes is how Developers change the stage (ChangesDirect,
	// ChangesRequest; "": request while read-only, else direct), and
	// FourEyes makes every role go through a change request.
	Changes  string
	FourEyes bool
	// Masking says whether record reads mask the fields their schema
	// tags as sensitive: MaskingOff or MaskingTags.
	Masking string
	// Unclassified says what masking does with a record it cannot
	// classify (a value not in the Schema Registry's wire format):
	// UnclassifiedMask ("" too) or UnclassifiedRefuse.
	Unclassified string
	// Reason and Until come from a read-only switch of the landing zone
	// (a change freeze): why, and when it ends by itself (zero: never).
	Reason string
	Until  time.Time
}

// How Developers change a stage.
const (
	ChangesDirect  = "direct"
	ChangesRequest = "request"
)

// ByRequest tells whether Developers change the stage through change
// requests.
func (s Stage) ByRequest() bool {
	return s.Changes == ChangesRequest || s.Changes == "" && s.ReadOnly
}

// Levels of data access.
const (
	DataOff        = "off"
	DataDevelopers = "developers"
	DataViewers    = "viewers"
)

// Whether a stage masks tagged fields of the records it shows.
const (
	MaskingOff  = "off"
	MaskingTags = "tags"
	// UnclassifiedMask masks such a value whole (its encoding and the
	// class of its length kept); UnclassifiedRefuse refuses a read that
	// meets one.
	UnclassifiedMask   = "mask"
	UnclassifiedRefuse = "refuse"
)

// Levels of producing records by hand.
const (
	ProduceOff        = "off"
	ProduceDevelopers = "developers"
	ProduceAdmins     = "admins"
)

// Switch turns one landing zone's stage read-only or writable, overriding
// the stage's configured default until it ends.
type Switch struct {
	ReadOnly bool
	Reason   string
	// Until ends the switch by itself; zero never does.
	Until time.Time
	SetBy string
	SetAt time.Time
}

// Active reports whether the switch applies at now.
func (s Switch) Active(now time.Time) bool { return s.Until.IsZero() || now.Before(s.Until) }

// LandingZone is a set of clusters (one per stage) shared by several
// business units, or the dedicated clusters of a single business unit.
type LandingZone struct {
	ID string
	// Dedicated landing zones belong to one business unit whose id equals
	// the landing zone id; names there carry no landing-zone part.
	Dedicated bool
	// MainBU is the platform team's business unit on a shared landing zone.
	MainBU string
	// SuperAdminGroups grant Super Admin in every business unit of the zone.
	SuperAdminGroups []string
	// BusinessUnits lists the ids of the zone's business units, sorted.
	BusinessUnits []string

	switches map[string]Switch
}

// Switch returns the read-only switch set on a stage of the zone.
func (z *LandingZone) Switch(stage string) (Switch, bool) {
	s, ok := z.switches[stage]
	return s, ok
}

// Sources of business units.
const (
	FromConfiguration = "configuration"
	FromPortal        = "portal"
)

// BusinessUnit is a tenant.
type BusinessUnit struct {
	ID              string
	LandingZone     *LandingZone
	AdminGroups     []string
	DeveloperGroups []string
	ViewerGroups    []string
	// Source is FromConfiguration (the file) or FromPortal (onboarded in
	// the admin area, kept in the database).
	Source string
}

// IsMain reports whether the unit is the main unit of a shared landing zone.
func (b *BusinessUnit) IsMain() bool {
	return !b.LandingZone.Dedicated && b.LandingZone.MainBU == b.ID
}

// Tenancy is the validated, immutable set of landing zones, business units
// and stages of one deployment.
type Tenancy struct {
	spec   Spec
	stages []Stage
	zones  []*LandingZone
	units  map[string]*BusinessUnit
	order  []string
	org    orgPrefixes
}

// Spec describes a tenancy before validation.
type Spec struct {
	Stages       []Stage
	LandingZones []ZoneSpec
	// Switches are read-only switches by landing zone and stage.
	Switches map[string]map[string]Switch
}

// ZoneSpec describes one landing zone before validation.
type ZoneSpec struct {
	ID               string
	Dedicated        bool
	MainBU           string
	SuperAdminGroups []string
	Units            []UnitSpec
}

// UnitSpec describes one business unit before validation.
type UnitSpec struct {
	ID              string
	AdminGroups     []string
	DeveloperGroups []string
	ViewerGroups    []string
	// Source is FromConfiguration when empty.
	Source string
}

// New validates spec and builds the tenancy. Errors name the offending
// landing zone, unit or stage.
func New(spec Spec) (*Tenancy, error) {
	t := &Tenancy{spec: spec.clone(), units: map[string]*BusinessUnit{}}
	if len(spec.Stages) == 0 {
		return nil, fmt.Errorf("stages: at least one stage is required")
	}
	for _, s := range spec.Stages {
		if err := checkID(s.Name); err != nil {
			return nil, fmt.Errorf("stage %q: %w", s.Name, err)
		}
		if _, dup := t.Stage(s.Name); dup {
			return nil, fmt.Errorf("stage %q is defined twice", s.Name)
		}
		t.stages = append(t.stages, s)
	}
	if len(spec.LandingZones) == 0 {
		return nil, fmt.Errorf("landing_zones: at least one landing zone is required")
	}
	seenZones := map[string]bool{}
	for _, zs := range spec.LandingZones {
		if err := checkID(zs.ID); err != nil {
			return nil, fmt.Errorf("landing zone %q: %w", zs.ID, err)
		}
		if seenZones[zs.ID] {
			return nil, fmt.Errorf("landing zone %q is defined twice", zs.ID)
		}
		seenZones[zs.ID] = true
		z := &LandingZone{ID: zs.ID, Dedicated: zs.Dedicated, MainBU: zs.MainBU, SuperAdminGroups: zs.SuperAdminGroups,
			switches: map[string]Switch{}}
		for stage, sw := range spec.Switches[zs.ID] {
			if _, ok := t.Stage(stage); !ok {
				return nil, fmt.Errorf("landing zone %q: a read-only switch names stage %q, which does not exist", zs.ID, stage)
			}
			z.switches[stage] = sw
		}
		if err := t.addUnits(z, zs); err != nil {
			return nil, err
		}
		t.zones = append(t.zones, z)
	}
	slices.Sort(t.order)
	return t, t.checkPrefixes()
}

func (t *Tenancy) addUnits(z *LandingZone, zs ZoneSpec) error {
	if len(zs.Units) == 0 {
		return fmt.Errorf("landing zone %q: at least one business unit is required", zs.ID)
	}
	if zs.Dedicated {
		if len(zs.Units) != 1 || zs.Units[0].ID != zs.ID {
			return fmt.Errorf("landing zone %q is dedicated: it must hold exactly one business unit with the same id", zs.ID)
		}
		if zs.MainBU != "" {
			return fmt.Errorf("landing zone %q is dedicated: main_bu does not apply", zs.ID)
		}
	}
	for _, us := range zs.Units {
		if err := checkID(us.ID); err != nil {
			return fmt.Errorf("landing zone %q, business unit %q: %w", zs.ID, us.ID, err)
		}
		if _, dup := t.units[us.ID]; dup {
			return fmt.Errorf("business unit %q is defined twice", us.ID)
		}
		source := us.Source
		if source == "" {
			source = FromConfiguration
		}
		t.units[us.ID] = &BusinessUnit{
			ID: us.ID, LandingZone: z, Source: source,
			AdminGroups: us.AdminGroups, DeveloperGroups: us.DeveloperGroups, ViewerGroups: us.ViewerGroups,
		}
		t.order = append(t.order, us.ID)
		z.BusinessUnits = append(z.BusinessUnits, us.ID)
	}
	slices.Sort(z.BusinessUnits)
	if !zs.Dedicated {
		if zs.MainBU == "" {
			return fmt.Errorf("landing zone %q: main_bu is required for a shared landing zone", zs.ID)
		}
		if u, ok := t.units[zs.MainBU]; !ok || u.LandingZone != z {
			return fmt.Errorf("landing zone %q: main_bu %q is not one of its business units", zs.ID, zs.MainBU)
		}
	}
	return nil
}

// checkPrefixes refuses tenancies where one scope's name prefix starts
// another's: the naming convention is the tenant boundary, so such an
// overlap would let one unit see another's resources. Topics only meet
// the scopes of their own cluster, but service accounts and identity pools
// live at the organisation level, so every zone's units in every stage are
// compared, for both shapes of prefix.
func (t *Tenancy) checkPrefixes() error {
	var scopes []Scope
	for _, z := range t.zones {
		for _, id := range z.BusinessUnits {
			for _, st := range t.stages {
				scopes = append(scopes, Scope{Unit: t.units[id], Stage: st})
			}
		}
	}
	for _, k := range []OrgKind{OrgPool, OrgAccount} {
		for _, a := range scopes {
			for _, b := range scopes {
				if !a.Same(b) && strings.HasPrefix(b.OrgPrefix(k), a.OrgPrefix(k)) {
					return fmt.Errorf("business units %q and %q overlap: names prefixed %q include every name prefixed %q", a.Unit.ID, b.Unit.ID, a.OrgPrefix(k), b.OrgPrefix(k))
				}
			}
		}
	}
	return nil
}

func checkID(id string) error {
	if id == "" {
		return fmt.Errorf("id is required")
	}
	if !isIdentifier(id) {
		return fmt.Errorf("id must be lower-case letters, digits and inner dashes")
	}
	return nil
}

// StageIn returns a stage as it applies in a landing zone at now: the
// zone's active read-only switch, if any, overrides the configured default.
func (t *Tenancy) StageIn(z *LandingZone, name string, now time.Time) (Stage, bool) {
	st, ok := t.Stage(name)
	if !ok || z == nil {
		return st, ok
	}
	if sw, has := z.switches[name]; has && sw.Active(now) {
		st.ReadOnly, st.Reason, st.Until = sw.ReadOnly, sw.Reason, sw.Until
	}
	return st, true
}

// Spec returns the spec the tenancy was built from, to build the next one.
func (t *Tenancy) Spec() Spec { return t.spec.clone() }

func (s Spec) clone() Spec {
	c := Spec{Stages: slices.Clone(s.Stages), Switches: map[string]map[string]Switch{}}
	for _, z := range s.LandingZones {
		z.SuperAdminGroups = slices.Clone(z.SuperAdminGroups)
		units := make([]UnitSpec, len(z.Units))
		for i, u := range z.Units {
			u.AdminGroups, u.DeveloperGroups, u.ViewerGroups = slices.Clone(u.AdminGroups), slices.Clone(u.DeveloperGroups), slices.Clone(u.ViewerGroups)
			units[i] = u
		}
		z.Units = units
		c.LandingZones = append(c.LandingZones, z)
	}
	for zone, m := range s.Switches {
		c.Switches[zone] = map[string]Switch{}
		for st, sw := range m {
			c.Switches[zone][st] = sw
		}
	}
	return c
}

// LandingZone returns the landing zone with the given id.
func (t *Tenancy) LandingZone(id string) (*LandingZone, bool) {
	for _, z := range t.zones {
		if z.ID == id {
			return z, true
		}
	}
	return nil, false
}

// Stages returns the stages in configuration order.
func (t *Tenancy) Stages() []Stage { return slices.Clone(t.stages) }

// Stage returns the stage with the given name.
func (t *Tenancy) Stage(name string) (Stage, bool) {
	for _, s := range t.stages {
		if s.Name == name {
			return s, true
		}
	}
	return Stage{}, false
}

// StageNames returns the stage names in configuration order.
func (t *Tenancy) StageNames() []string {
	names := make([]string, len(t.stages))
	for i, s := range t.stages {
		names[i] = s.Name
	}
	return names
}

// LandingZones returns the landing zones in configuration order.
func (t *Tenancy) LandingZones() []*LandingZone { return slices.Clone(t.zones) }

// Unit returns the business unit with the given id.
func (t *Tenancy) Unit(id string) (*BusinessUnit, bool) {
	u, ok := t.units[id]
	return u, ok
}

// Units returns every business unit, sorted by id.
func (t *Tenancy) Units() []*BusinessUnit {
	us := make([]*BusinessUnit, len(t.order))
	for i, id := range t.order {
		us[i] = t.units[id]
	}
	return us
}
