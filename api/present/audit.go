package present

import (
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/wire"
)

// AuditPage is a page of the trail.
func AuditPage(page portal.Page[trail.AuditEvent]) wire.AuditPage {
	out := wire.AuditPage{Items: make([]wire.AuditEvent, len(page.Items)), NextPageToken: page.NextPageToken}
	for i, e := range page.Items {
		out.Items[i] = AuditEvent(e)
	}
	return out
}

// AuditEvent is one event of the trail, as the JSON export writes it.
func AuditEvent(e trail.AuditEvent) wire.AuditEvent {
	out := wire.AuditEvent{ID: e.ID, Time: e.Time.Format(time.RFC3339Nano), Actor: e.Actor, ActorRole: e.ActorRole, Groups: e.Groups,
		Service: e.Service, SourceIP: e.SourceIP, UserAgent: e.UserAgent, Door: e.Door, RequestID: e.RequestID, LandingZone: e.LandingZone,
		BU: e.BU, Stage: e.Stage, Action: e.Action.String(), Resource: e.Resource, Outcome: e.Outcome, Detail: e.Detail}
	for _, c := range e.Changes {
		out.Changes = append(out.Changes, wire.AuditChange(c))
	}
	return out
}
