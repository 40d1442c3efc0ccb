package portal

import (
	"context"
	"time"
)

// Stage is a deployment stage as callers see it.
type Stage struct {
	Name     string
	ReadOnly bool
}

// UnitRole is a business unit where the caller has a role.
type UnitRole struct {
	ID          string
	LandingZone string
	Dedicated   bool
	// Main is the platform team's unit of a shared landing zone.
	Main bool
	Role Role
	// Groups are the caller's groups that gave the role.
	Groups []string
	// ReadOnlyStages are the stages read-only for the unit now: by
	// configuration or by a read-only switch of its landing zone.
	ReadOnlyStages []string
}

// Caller is the signed-in principal with its business units and the stages.
type Caller struct {
	Principal *Principal
	// Units are the business units where the caller has a role, sorted by id.
	Units  []UnitRole
	Stages []Stage
	// Admin: the caller may open the admin area (platform admins, and a
	// landing zone's Super Admins for its trail and health).
	Admin bool
}

// Outlook is what the caller may do in one context (business unit and
// stage), for pages to show, disable or hide controls. It is never the
// enforcement: every operation checks again.
type Outlook struct {
	Scope
	LandingZone string
	Dedicated   bool
	ReadOnly    bool
	// ReadOnlyReason says why and until when, when a read-only switch of
	// the landing zone made the stage read-only ("" otherwise).
	ReadOnlyReason string
	Role           Role
	// Prefix is the unit's naming prefix in the stage; AccountPrefix
	// starts its service accounts' names ("sa-{lz}-{bu}-{stage}-usr-").
	Prefix        string
	AccountPrefix string
	// CanWrite: topics, connectors and schemas may be changed; Bypass:
	// only because the role may write in a read-only stage.
	CanWrite bool
	Bypass   bool
	// WriteBlockedByStage: the role could write, but not in this stage.
	WriteBlockedByStage bool
	// CanManage: service accounts and identity pools may be changed.
	CanManage bool
	// WholeCluster: a Super Admin viewing the main unit sees the whole
	// cluster, including resources outside the naming convention.
	WholeCluster bool
	// KeyMaxAge is the stage's longest API key life (0: none);
	// HasRegistry says whether it has a Schema Registry to make keys for.
	KeyMaxAge   time.Duration
	HasRegistry bool
	// ReadRecords: the stage's data_access lets the role read records.
	ReadRecords bool
	// Produce: the stage's produce switch lets the role write records;
	// ProduceRefusal says why not when it does not.
	Produce        bool
	ProduceRefusal string
	// AskGrants: the role may ask another unit for access to its topics.
	AskGrants bool
	// FileRequests: the role may file change requests (in any stage).
	FileRequests bool
}

// Layout is everything a page's frame needs, from one call: the caller,
// and the context the page is in (nil for pages without one) or the
// context to offer by default.
type Layout struct {
	Caller  Caller
	Context *Outlook
	// Default is the first context the caller may use, for pages without
	// one of their own; nil when the caller has none.
	Default *Outlook
}

// CallerService tells callers who they are and where they may work.
type CallerService interface {
	// Me describes the caller. Errors: Unauthenticated.
	Me(ctx context.Context) (Caller, error)
	// Layout describes the caller and, when bu is given, its standing in
	// bu/stage. Errors: NotFound (no such unit or stage, or no role there).
	Layout(ctx context.Context, scope Scope) (Layout, error)
	// Outlooks are the caller's standing in every context where it has a
	// role: each unit of its own in each stage (a door that offers only
	// what the caller may do reads them). Errors: Unauthenticated.
	Outlooks(ctx context.Context) ([]Outlook, error)
	// Access explains the caller's access: per unit the role and the
	// groups that gave it, the groups that match nothing, and a groups
	// overage.
	Access(ctx context.Context) (AccessReport, error)
	// Sessions lists the caller's own live browser sessions, newest
	// first. Errors: Unauthenticated.
	Sessions(ctx context.Context) ([]SessionInfo, error)
	// EndSession signs out one of the caller's own sessions; another's is
	// not found. Errors: NotFound.
	EndSession(ctx context.Context, id string) error
}

// SessionInfo is one browser session, without its secrets.
type SessionInfo struct {
	ID        string
	Subject   string
	Username  string
	UserAgent string
	IP        string
	Created   time.Time
	LastSeen  time.Time
	Expires   time.Time
}

// AccessQuery is what to explain: a list of groups, or a token's claims
// (JSON object) from which the configured groups claim is read.
type AccessQuery struct {
	Groups []string
	Claims map[string]any
}

// UnitAccess is the role a set of groups gives in one unit, and why.
type UnitAccess struct {
	Unit        string
	LandingZone string
	Role        Role
	Groups      []string
}

// AccessReport explains access: per unit the role and the groups that gave
// it; the groups that match no unit; and a groups overage.
type AccessReport struct {
	PlatformAdmin bool
	Groups        []string
	Units         []UnitAccess
	// Unmatched are the groups that give no role anywhere.
	Unmatched []string
	// Overage: the token said the groups did not fit into it, so the list
	// is incomplete (Entra ID's _claim_names); Explanation says what to do.
	Overage     bool
	Explanation string
	// Grants are the access the principal's units hold on other units'
	// topics through grants, each explained in a line.
	Grants []GrantAccess
}

// GrantAccess is access a unit holds through a grant: "read on
// edh-shared-scada-dev-orders through grant gr-12 until 2026-12-24".
type GrantAccess struct {
	Unit, Stage, Grant, Access, Topic, Principal string
	Expires                                      time.Time
	Line                                         string
}
