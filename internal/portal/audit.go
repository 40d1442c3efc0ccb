package portal

import (
	"context"
	"time"
)

// Change is one setting's value before and after an update; secrets are
// masked.
type Change struct {
	Field  string
	Before string
	After  string
}

// AuditEvent is one write attempt, allowed or refused.
type AuditEvent struct {
	ID        int64
	Time      time.Time
	Actor     string
	ActorRole string
	Groups    []string
	Service   bool
	SourceIP  string
	UserAgent string
	RequestID string
	// LandingZone is the unit's (or the switched stage's) landing zone.
	LandingZone string
	BU          string
	Stage       string
	Action      string
	Resource    string
	// Outcome is "ok", "unknown" (a write whose effect could not be
	// checked) or the error kind that stopped it.
	Outcome string
	Detail  string
	Changes []Change
}

// AuditQuery selects events; empty fields match everything.
type AuditQuery struct {
	// LandingZone, BU and Stage narrow the admin area's cross-unit trail;
	// a unit's own trail is always its unit and stage.
	LandingZone string
	BU          string
	Stage       string
	Actor       string
	Action      string
	Resource    string
	Outcome     string
	Since       time.Time
	Until       time.Time
	// PageSize is 100 by default, 1000 at most; PageToken continues.
	PageSize  int
	PageToken string
}

// AuditService reads the audit trail.
type AuditService interface {
	// List returns a unit's events in a stage, newest first. Admins and
	// Super Admins of the unit may read them (InsufficientRole for
	// others). Errors: InvalidParameter (page_token, page_size, range).
	List(ctx context.Context, scope Scope, q AuditQuery) (Page[AuditEvent], error)
	// Refused records a write that a front door refused before any service
	// could (no valid token, a forged form), so that it leaves a trace too.
	// The caller is the principal in ctx, if any.
	Refused(ctx context.Context, scope Scope, action, resource string, err error)
}
