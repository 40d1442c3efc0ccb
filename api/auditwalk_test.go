package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/api"
	"github.com/edh-platform/rms-portal/internal/servicetest"
)

// walkCall is one write of the walk: who calls which path with what.
type walkCall struct {
	user, path, body, ifMatch string
	// also is how many audit events the write leaves besides its own:
	// an approved change request applies its plan (one event per item).
	also int
}

// TestEveryWriteLeavesOneAuditEvent walks the route table again, now as
// callers who may: every state-changing route succeeds and leaves exactly
// one audit event, its own action's, with the outcome ok (an apply: its
// own and one per item; an approved change request: its approval and its
// apply's). Each route gets a world of its own, so that a delete
// never takes what the next route needs.
func TestEveryWriteLeavesOneAuditEvent(t *testing.T) {
	walked := 0
	for _, rt := range newServer(t, nil).h.(*echo.Echo).Routes() {
		key := rt.Method + " " + rt.Path
		body, ok := writeBodies[key]
		if rt.Method == http.MethodGet || rt.Method == http.MethodHead || !ok || reads[key] || !strings.HasPrefix(rt.Path, api.Base+"/:bu/:stage/") {
			continue
		}
		walked++
		t.Run(strings.NewReplacer("/api/v1/:bu/:stage/", "", "/", "_", ":", "").Replace(key), func(t *testing.T) {
			t.Parallel()
			s := newServer(t, nil)
			c := s.prepare(t, rt.Method, rt.Path, body)
			before := len(s.w.AuditEvents(t))
			var r reply
			if c.ifMatch != "" {
				r = s.send(c.path, c.user, "application/json", c.body, c.ifMatch)
			} else {
				r = s.do(rt.Method, c.path, c.user, c.body)
			}
			if r.status >= 300 {
				t.Fatalf("%s %s as %s: %d %s", rt.Method, c.path, c.user, r.status, r.raw)
			}
			if r.status == http.StatusAccepted && r.header.Get("Location") != "" {
				// A job: its events are in the trail when it is done.
				if j := s.do("GET", r.header.Get("Location")+"?wait=20s", c.user, ""); j.body["state"] != "done" {
					t.Fatalf("the job: %d %s", j.status, j.raw)
				}
			}
			s.w.CheckDone(t, before, 1+c.also)
		})
	}
	if walked < 40 {
		t.Errorf("walked only %d write routes", walked)
	}
}

// prepare seeds what the route acts on and names its caller: bob, the
// scada Admin, in dev, unless the route is about another's request.
func (s *server) prepare(t *testing.T, method, route, body string) walkCall {
	t.Helper()
	sd := s.w.Seed(t, "scada", "dev")
	crm := s.w.Seed(t, "crm", "dev")
	key := method + " " + route
	id := sd.PoolID
	switch {
	case strings.Contains(route, "/service-account/"):
		id = sd.AccountID
	case strings.Contains(route, "/api-key/"):
		id = sd.KeyID
	case strings.Contains(route, "/consumer-group/"):
		id = sd.Group
	case strings.Contains(route, "/alert-channel/"):
		r := s.do("POST", "/api/v1/scada/dev/alert-channel", "bob", writeBodies["POST /api/v1/:bu/:stage/alert-channel"])
		id = s.created(t, r, "id")
	case strings.Contains(route, "/grant/"):
		id = s.grantFor(t, route, sd, crm)
	}
	name := sd.Topic
	switch {
	case strings.Contains(route, "/connector/"):
		name = sd.Connector
	case strings.Contains(route, "/alert-rule/"):
		name = "walk-rule"
		if method != http.MethodPut {
			s.must(t, "PUT", "/api/v1/scada/dev/alert-rule/walk-rule", "bob", writeBodies["PUT /api/v1/:bu/:stage/alert-rule/:name"])
		}
	}
	c := walkCall{user: "bob", body: body}
	stage := "dev"
	switch {
	case strings.HasSuffix(key, "/change-requests"):
		c.user, stage = "carol", "run"
	case strings.Contains(route, "/change-request/"):
		stage = "run"
		r := s.do("POST", "/api/v1/scada/run/change-requests?reason=walk", "carol", planBody)
		id = s.created(t, r, "id")
		if strings.HasSuffix(route, "/withdraw") {
			c.user = "carol"
		}
		if strings.HasSuffix(route, "/approve") {
			c.also = 2 // the apply of its plan, and the plan's topic
		}
	case strings.HasSuffix(key, "/grants"):
		c.body = strings.NewReplacer(`"owner": "crm", "topic": "orders"`, `"owner": "crm", "topic": "existing"`, "sa-x", sd.AccountID).Replace(body)
	case strings.HasSuffix(key, "/apply"):
		p := s.do("POST", "/api/v1/scada/dev/plan", "bob", body)
		c.ifMatch, c.also = p.header.Get("ETag"), 1 // the item's event beside the apply's
	}
	c.path = strings.NewReplacer(":bu", "scada", ":stage", stage, ":name", name, ":subject", sd.Subject,
		":version", "1", ":id", id).Replace(route)
	if strings.HasSuffix(key, "/change-requests") {
		c.path += "?reason=walk"
	}
	if key == "DELETE /api/v1/:bu/:stage/topic/:name" {
		c.path += "?confirm=existing&reason=walk" // it has readers and a connector
	}
	if strings.Contains(route, "/service-account/") && method == http.MethodDelete {
		c.path += "?delete_api_keys=true"
	}
	if strings.HasSuffix(route, "/grant/:id/withdraw") {
		c.user = "bob"
	}
	return c
}

// grantFor makes the grant a decision route acts on: crm asks for scada's
// topic (bob decides; to revoke, bob approved it first), or, to withdraw,
// scada asks for crm's (bob withdraws his own).
func (s *server) grantFor(t *testing.T, route string, sd, crm servicetest.Seeded) string {
	t.Helper()
	if strings.HasSuffix(route, "/withdraw") {
		r := s.do("POST", "/api/v1/scada/dev/grants", "bob",
			fmt.Sprintf(`{"owner": "crm", "topic": "existing", "access": "read", "principal": %q, "reason": "walk"}`, sd.AccountID))
		return s.created(t, r, "id")
	}
	r := s.do("POST", "/api/v1/crm/dev/grants", "alice",
		fmt.Sprintf(`{"owner": "scada", "topic": "existing", "access": "read", "principal": %q, "reason": "walk"}`, crm.AccountID))
	id := s.created(t, r, "id")
	if strings.HasSuffix(route, "/revoke") {
		s.must(t, "POST", "/api/v1/scada/dev/grant/"+id+"/approve", "bob", "")
	}
	return id
}

// created is a field of a successful answer.
func (s *server) created(t *testing.T, r reply, field string) string {
	t.Helper()
	v, _ := r.body[field].(string)
	if r.status >= 300 || v == "" {
		t.Fatalf("setting up: %d %s", r.status, r.raw)
	}
	return v
}

// must makes a change the walk needs first.
func (s *server) must(t *testing.T, method, path, user, body string) {
	t.Helper()
	if r := s.do(method, path, user, body); r.status >= 300 {
		t.Fatalf("setting up %s %s: %d %s", method, path, r.status, r.raw)
	}
}
