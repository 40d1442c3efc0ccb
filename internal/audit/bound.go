package audit

import (
	"strconv"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
)

// Bounds of what a caller can put into one event: names, messages and
// changes come from requests, and a trail (or a log) must not grow by a
// megabyte because somebody sent one.
const (
	// MaxText bounds each text of an event (resource, detail, a change's
	// field, before and after).
	MaxText = 512
	// MaxShort bounds the actor, role, action and scope fields.
	MaxShort = 128
	// MaxChanges bounds the changes of one event.
	MaxChanges = 200
)

// Cut shortens s to at most n bytes, saying how much was left out
// (portal.Clip).
func Cut(s string, n int) string { return portal.Clip(s, n) }

// Bound cuts what a caller supplied in an event to the bounds above.
func Bound(e trail.AuditEvent) trail.AuditEvent {
	e.Actor, e.ActorRole, e.Action = Cut(e.Actor, MaxShort), Cut(e.ActorRole, MaxShort), portal.ActionNamed(Cut(e.Action.String(), MaxShort))
	e.BU, e.Stage, e.LandingZone = Cut(e.BU, MaxShort), Cut(e.Stage, MaxShort), Cut(e.LandingZone, MaxShort)
	e.Resource, e.Detail, e.UserAgent = Cut(e.Resource, MaxText), Cut(e.Detail, MaxText), Cut(e.UserAgent, MaxText)
	if len(e.Groups) > MaxChanges {
		e.Groups = e.Groups[:MaxChanges]
	}
	if e.Groups != nil {
		groups := make([]string, len(e.Groups))
		for i, g := range e.Groups {
			groups[i] = Cut(g, MaxShort)
		}
		e.Groups = groups
	}
	if len(e.Changes) > 0 {
		n := min(len(e.Changes), MaxChanges)
		changes := make([]trail.Change, n, n+1)
		for i, c := range e.Changes[:n] {
			changes[i] = trail.Change{Field: Cut(c.Field, MaxText), Before: Cut(c.Before, MaxText), After: Cut(c.After, MaxText)}
		}
		if len(e.Changes) > n {
			changes = append(changes, trail.Change{Field: "…", After: strconv.Itoa(len(e.Changes)-n) + " more changes cut"})
		}
		e.Changes = changes
	}
	return e
}
