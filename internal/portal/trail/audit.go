// Package trail is the contract of the audit trail: its events, their
// changes, and queries over them.
package trail

import (
	"context"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// Change is one setting's value before and after an update; secrets are
// masked.
type Change struct {
	Field  string `json:"field"`
	Before string `json:"before,omitempty"`
	After  string `json:"after,omitempty"`
}

// AuditEvent is one write attempt, allowed or refused: what the services
// record, the store keeps, and the API and the exports write (as JSON in
// this shape).
type AuditEvent struct {
	ID        int64     `json:"id"`
	Time      time.Time `json:"time"`
	Actor     string    `json:"actor"`
	ActorRole string    `json:"actor_role"`
	Groups    []string  `json:"groups"`
	Service   bool      `json:"service"`
	SourceIP  string    `json:"source_ip"`
	UserAgent string    `json:"user_agent"`
	RequestID string    `json:"request_id"`
	// LandingZone is the unit's (or the switched stage's) landing zone.
	LandingZone string        `json:"landing_zone,omitempty"`
	BU          string        `json:"business_unit"`
	Stage       string        `json:"stage"`
	Action      portal.Action `json:"action"`
	Resource    string        `json:"resource"`
	// Outcome is "ok", "unknown" (a write whose effect is not known: under
	// way, timed out, or not recorded) or the error kind that stopped it.
	Outcome string   `json:"outcome"`
	Detail  string   `json:"detail,omitempty"`
	Changes []Change `json:"changes,omitempty"`
	// Door is the front door the write came through (portal, api, mcp;
	// "" for the portal's own work).
	Door string `json:"door,omitempty"`
	// Replica is the process that recorded it: an attempt it left unknown
	// is settled as soon as it is known stopped. Never shown.
	Replica string `json:"-"`
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
	List(ctx context.Context, scope portal.Scope, q AuditQuery) (portal.Page[AuditEvent], error)
	// Refused records a write that a front door refused before any service
	// could (no valid token, a forged form), so that it leaves a trace too.
	// The caller is the principal in ctx, if any.
	Refused(ctx context.Context, scope portal.Scope, action portal.Action, resource string, err error)
}

// SystemActor names the portal in the audit trail, for what it does by
// itself (deleting expired keys, restarting failed connectors, alerts).
const SystemActor = "portal"
