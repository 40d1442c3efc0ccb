package gate

import (
	"context"

	"github.com/edh-platform/rms-portal/internal/audit"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
)

// The trail is the guard's alone: services record through these, never
// through the recorder, so that every event of the trail passes the one
// place that completes it (its replica, door and request) and counts it.

// Unknown is the outcome of a write whose effect is not known yet.
const Unknown = audit.Unknown

// Trace is an event of the trail that may be amended while what it
// traces goes on (a tail of a topic's records).
type Trace = audit.Attempt

// RecordEvent records a settled event that no call of a person makes:
// the portal's own (an alert fired, a grant about to expire, an
// auto-restart given up; actor portal) or a refusal that names its
// principal itself (the admin area's).
func (g *Guard) RecordEvent(ctx context.Context, e trail.AuditEvent) { g.audit.Record(ctx, e) }

// Traced records a call's read worth a trace, settled, as a Trace its
// caller amends while the read goes on.
func (g *Guard) Traced(ctx context.Context, c *Call, event portal.Action, resource string, changes []trail.Change) *Trace {
	e := c.Event(event, resource)
	e.Outcome, e.Changes = "ok", changes
	return g.audit.Note(ctx, e)
}

// RefusedAnonymous counts a refusal of a caller that could not be
// authenticated in its source's event of the minute, so that a flood of
// bad tokens cannot flood the trail.
func (g *Guard) RefusedAnonymous(ctx context.Context, e trail.AuditEvent) {
	g.audit.RefusedAnonymous(ctx, e)
}
