package api

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/api/present"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
)

// TestAuditPageWritesTheExportsEvents: the trail's API pages and its JSON
// exports (which write the domain event) give an event the same shape.
func TestAuditPageWritesTheExportsEvents(t *testing.T) {
	e := trail.AuditEvent{ID: 7, Time: time.Date(2026, 11, 28, 10, 0, 0, 123456789, time.UTC), Actor: "bob", ActorRole: "admin",
		Groups: []string{"g"}, Service: true, SourceIP: "10.0.0.1", UserAgent: "ua", RequestID: "r1", LandingZone: "z", BU: "scada",
		Stage: "dev", Action: portal.ActTopicCreate, Resource: "t", Outcome: "ok", Detail: "d",
		Changes: []trail.Change{{Field: "partitions", Before: "1", After: "2"}}}
	for _, e := range []trail.AuditEvent{e, {Time: e.Time}} {
		domain, _ := json.Marshal(e)
		page, _ := json.Marshal(present.AuditEvent(e))
		if !bytes.Equal(domain, page) {
			t.Errorf("the page writes\n%s\nthe export\n%s", page, domain)
		}
	}
}
