// Package adminarea is the contract of the platform admin area: onboarded
// units, read-only stages, the audit trail across zones, upstream health,
// configuration, sessions and the access preview.
package adminarea

import (
	"context"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
)

// AdminArea is what the caller may see of the admin area: platform admins
// everything, a landing zone's Super Admins the audit trail and health of
// their zones.
type AdminArea struct {
	Platform bool
	// Zones are the landing zones whose trail and health the caller reads.
	Zones []string
}

// UnitGroups are the identity-provider groups that grant each role in a
// business unit.
type UnitGroups struct {
	Admin     []string
	Developer []string
	Viewer    []string
}

// AdminUnit is a business unit as the platform team manages it.
type AdminUnit struct {
	ID          string
	LandingZone string
	Dedicated   bool
	Main        bool
	// Source is "configuration" (the file: shown, not changed here) or
	// "portal" (onboarded in the admin area, kept in the database).
	Source    string
	Groups    UnitGroups
	Stages    []AdminUnitStage
	CreatedBy string
	Created   time.Time
	UpdatedBy string
	Updated   time.Time
}

// AdminUnitStage is a unit's cluster in one stage and what it holds there.
type AdminUnitStage struct {
	Stage string
	// Cluster names the stage's cluster (landing zone/stage).
	Cluster string
	// Prefix is the unit's naming prefix there.
	Prefix     string
	Topics     int
	Connectors int
	Subjects   int
	// CountError says why counts are missing (an upstream did not answer).
	CountError string
}

// Onboarding is a new business unit.
type Onboarding struct {
	ID          string
	LandingZone string
	Groups      UnitGroups
}

// Offboarding is what offboarding a unit left upstream, for the platform
// team to clean up: the portal never deletes a tenant's resources.
type Offboarding struct {
	Unit string
	Left []LeftResource
	// Incomplete names the upstreams that could not be listed.
	Incomplete []string
}

// LeftResource is a resource that still carries an offboarded unit's name.
type LeftResource struct {
	Stage string
	// Kind is topic, connector, subject or service_account.
	Kind string
	Name string
}

// ReadOnlyState is one landing zone's stage: configured default, switch,
// and what applies now.
type ReadOnlyState struct {
	LandingZone string
	Stage       string
	// ReadOnly is what applies now.
	ReadOnly bool
	// Configured is the stage's default from the configuration file.
	Configured bool
	// Switched is true while a switch overrides the default.
	Switched bool
	Reason   string
	Until    time.Time
	SetBy    string
	SetAt    time.Time
}

// ReadOnlyChange sets a switch; a zero Until never ends.
type ReadOnlyChange struct {
	ReadOnly bool
	Reason   string
	Until    time.Time
}

// UpstreamStatus is one upstream's health.
type UpstreamStatus struct {
	Kind        string
	Name        string
	LandingZone string
	// State is ok, failing or unknown; Circuit closed, open or half-open.
	State     string
	Circuit   string
	Since     time.Time
	LatencyMS float64
	LastError string
	LastErrAt time.Time
	LastOK    time.Time
	Calls     int64
}

// AdminService is the platform admin area. Every method answers NotFound
// to callers who may not see it, so that the area does not reveal itself.
type AdminService interface {
	// Area says what the caller may see; NotFound for everyone else.
	Area(ctx context.Context) (AdminArea, error)
	// Units lists landing zones' units with groups, clusters and counts.
	Units(ctx context.Context) ([]AdminUnit, error)
	Unit(ctx context.Context, id string) (AdminUnit, error)
	// Onboard adds a unit to a shared landing zone. Errors: Validation
	// (id, landing_zone, groups), Conflict (the id is taken).
	Onboard(ctx context.Context, o Onboarding) (AdminUnit, error)
	// UpdateGroups replaces an onboarded unit's groups. Errors: Conflict
	// for units of the configuration file.
	UpdateGroups(ctx context.Context, id string, g UnitGroups) (AdminUnit, error)
	// Offboard removes an onboarded unit and lists what it left upstream.
	Offboard(ctx context.Context, id string) (Offboarding, error)
	// ReadOnly lists every landing zone's stages.
	ReadOnly(ctx context.Context) ([]ReadOnlyState, error)
	// SetReadOnly switches one zone's stage.
	SetReadOnly(ctx context.Context, zone, stage string, c ReadOnlyChange) (ReadOnlyState, error)
	// Audit reads the trail across units (a zone's Super Admins: their
	// zones only).
	Audit(ctx context.Context, q trail.AuditQuery) (portal.Page[trail.AuditEvent], error)
	// ExportAudit gives every event matching q (up to MaxExport) to emit,
	// newest first.
	ExportAudit(ctx context.Context, q trail.AuditQuery, emit func(trail.AuditEvent) error) error
	// Upstreams reports the upstreams' health (a zone's Super Admins:
	// their zones' clusters and registries).
	Upstreams(ctx context.Context) ([]UpstreamStatus, error)
	// Config is the configuration in force, secrets redacted.
	Config(ctx context.Context) (EffectiveConfig, error)
	// Sessions lists a user's live browser sessions (everyone's for "").
	Sessions(ctx context.Context, user string) ([]portal.SessionInfo, error)
	// EndSession signs a session out. Errors: NotFound.
	EndSession(ctx context.Context, id string) error
	// PreviewAccess explains the access a set of groups would give.
	PreviewAccess(ctx context.Context, q portal.AccessQuery) (portal.AccessReport, error)
}

// MaxExport bounds an audit export.
const MaxExport = 100000

// EffectiveConfig is the configuration in force, as the admin area shows
// it.
type EffectiveConfig struct {
	// YAML is the file after environment overrides and defaults, with the
	// admin area's business units and switches, secrets redacted.
	YAML string
	// Ignored lists the keys of the file this release does not know
	// ("path (line N)"), which it ignores.
	Ignored []string
}
