package main

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/edh-platform/rms-portal/internal/config"
)

// TestChangeRequestJourney is the check: carol requests a
// partition increase in scada/run (a direct write is a 403); dave cannot
// approve, nor carol her own; bob approves and the change is made and
// audited as approved by bob on carol's request; a second request made
// stale by a direct change is refused at approval.
func TestChangeRequestJourney(t *testing.T) {
	tp := sharedPortal(t)
	sfx := suffix()
	name := "orders-" + sfx
	full := "edh-shared-scada-run-" + name
	if r := tp.call("POST", "/api/v1/scada/run/topic", "bob", map[string]any{"name": name, "partitions_count": 2}); r.status != http.StatusCreated {
		t.Fatalf("bob's create in run: %d %s", r.status, r.body)
	}
	defer tp.call("DELETE", "/api/v1/scada/run/topic/"+name, "bob", nil)
	wantError(t, tp.call("PATCH", "/api/v1/scada/run/topic/"+name, "carol", map[string]any{"partitions_count": 4}), http.StatusForbidden, "READ_ONLY_ENVIRONMENT")

	doc := func(partitions int) string {
		return fmt.Sprintf(`{"items": [{"apiVersion": "portal/v1", "kind": "Topic", "metadata": {"name": %q}, "spec": {"partitions": %d}}]}`, name, partitions)
	}
	path := "/api/v1/scada/run/change-requests?reason=" + url.QueryEscape("peak season")
	wantError(t, tp.call("POST", path, "dave", doc(4)), http.StatusForbidden, "INSUFFICIENT_ROLE")
	wantError(t, tp.call("POST", "/api/v1/scada/run/change-requests", "carol", doc(4)), http.StatusBadRequest, "MISSING_PARAMETER:reason")
	r := tp.call("POST", path, "carol", doc(4))
	if r.status != http.StatusCreated {
		t.Fatalf("carol's request: %d %s", r.status, r.body)
	}
	req := r.json(t)
	id := req["id"].(string)
	if req["state"] != "open" || !strings.Contains(string(r.body), `"partitions":{"before":"2","after":"4"}`) {
		t.Fatalf("the request does not show its diff: %s", r.body)
	}
	if r := tp.call("GET", "/api/v1/scada/run/change-requests?state=open", "dave", nil); !strings.Contains(string(r.body), id) {
		t.Errorf("dave does not see the open request: %s", r.body)
	}
	wantError(t, tp.call("POST", "/api/v1/scada/run/change-request/"+id+"/approve", "dave", nil), http.StatusForbidden, "INSUFFICIENT_ROLE")
	r = tp.call("POST", "/api/v1/scada/run/change-request/"+id+"/approve", "carol", nil)
	wantError(t, r, http.StatusForbidden, "INSUFFICIENT_ROLE")
	if !strings.Contains(string(r.body), "your own change request") {
		t.Errorf("carol's refusal: %s", r.body)
	}
	// bob sees it waiting on his home page.
	web := tp.webClient(t)
	web.signIn("bob")
	if home := web.get("/"); !strings.Contains(home.body, id) {
		t.Errorf("bob's home does not show the request waiting for him")
	}
	r = tp.call("POST", "/api/v1/scada/run/change-request/"+id+"/approve", "bob", map[string]any{"comment": "go"})
	if r.status != http.StatusOK || r.json(t)["state"] != "applied" {
		t.Fatalf("bob's approval: %d %s", r.status, r.body)
	}
	if got := tp.call("GET", "/api/v1/scada/run/topic/"+name, "carol", nil).json(t)["partitions_count"]; got != float64(4) {
		t.Errorf("the topic has %v partitions after the approval", got)
	}
	trail := tp.call("GET", "/api/v1/scada/run/audit?action=topic.partitions&resource="+full, "bob", nil)
	if !strings.Contains(string(trail.body), `"actor":"bob"`) || !strings.Contains(string(trail.body), "approved by bob on change request "+id+" of carol") {
		t.Errorf("the change's audit event: %s", trail.body)
	}
	wantError(t, tp.call("POST", "/api/v1/scada/run/change-request/"+id+"/approve", "bob", nil), http.StatusConflict, "CONFLICT")

	// A second request, made stale by a direct change, is refused.
	r = tp.call("POST", path, "carol", doc(6))
	if r.status != http.StatusCreated {
		t.Fatalf("the second request: %d %s", r.status, r.body)
	}
	second := r.json(t)["id"].(string)
	if r := tp.call("PATCH", "/api/v1/scada/run/topic/"+name, "bob", map[string]any{"partitions_count": 5}); r.status != http.StatusOK {
		t.Fatalf("bob's direct change: %d %s", r.status, r.body)
	}
	r = tp.call("POST", "/api/v1/scada/run/change-request/"+second+"/approve", "bob", nil)
	wantError(t, r, http.StatusConflict, "CONFLICT")
	if !strings.Contains(string(r.body), "stale") {
		t.Errorf("the stale refusal: %s", r.body)
	}
	if got := tp.call("GET", "/api/v1/scada/run/change-request/"+second, "carol", nil).json(t)["state"]; got != "stale" {
		t.Errorf("the second request is %v", got)
	}

	// Rejected and withdrawn requests change nothing.
	third := tp.call("POST", path, "carol", doc(8)).json(t)["id"].(string)
	wantError(t, tp.call("POST", "/api/v1/scada/run/change-request/"+third+"/withdraw", "bob", nil), http.StatusForbidden, "INSUFFICIENT_ROLE")
	// bob reviews the third on its page: the diff, then a rejection.
	page := web.get("/scada/run/change-request/" + third)
	if page.status != http.StatusOK || !strings.Contains(page.body, "Approve and apply") || !strings.Contains(page.body, "partitions: 5 → 8") {
		t.Fatalf("the request's page: %d %.600s", page.status, page.body)
	}
	if r := web.post("/scada/run/change-request/"+third+"/reject", url.Values{"comment": {"not now"}}); r.status != http.StatusOK || !strings.Contains(r.body, `data-state="rejected"`) {
		t.Fatalf("bob's rejection on the page: %d %s", r.status, r.body)
	}
	if got := tp.call("GET", "/api/v1/scada/run/change-request/"+third, "carol", nil).json(t); got["state"] != "rejected" || got["comment"] != "not now" {
		t.Errorf("the third request: %v", got)
	}
	// carol files the fourth on the page: pasted, then shown with its diff.
	cweb := tp.webClient(t)
	cweb.signIn("carol")
	cweb.get("/scada/run/change-requests/new")
	filed := cweb.post("/scada/run/change-requests", url.Values{"document": {doc(8)}, "reason": {"black friday"}})
	m := regexp.MustCompile(`data-state="open"`).FindString(filed.body)
	if filed.status != http.StatusOK || m == "" || !strings.Contains(filed.body, "partitions: 5 → 8") || !strings.Contains(filed.body, "black friday") {
		t.Fatalf("the page's request: %d %.600s", filed.status, filed.body)
	}
	fourth := strings.TrimPrefix(filed.url[strings.LastIndex(filed.url, "/"):], "/")
	if r := tp.call("POST", "/api/v1/scada/run/change-request/"+fourth+"/withdraw", "carol", nil); r.status != http.StatusOK || r.json(t)["state"] != "withdrawn" {
		t.Fatalf("carol's withdrawal: %d %s", r.status, r.body)
	}
	if got := tp.call("GET", "/api/v1/scada/run/topic/"+name, "carol", nil).json(t)["partitions_count"]; got != float64(5) {
		t.Errorf("the topic has %v partitions after a rejection and a withdrawal", got)
	}
	// Another unit's requests are not found.
	wantError(t, tp.call("GET", "/api/v1/crm/run/change-request/"+id, "alice", nil), http.StatusNotFound, "NOT_FOUND")
}

// TestFourEyes: in a stage that takes four eyes an Admin's direct write
// is refused with the way to a change request; another person's approval
// applies it.
func TestFourEyes(t *testing.T) {
	t.Parallel()
	tp := startPortal(t, func(c *config.Config) {
		for i := range c.Stages {
			if c.Stages[i].Name == "qas" {
				c.Stages[i].FourEyes = true
			}
		}
	})
	sfx := suffix()
	r := tp.call("POST", "/api/v1/scada/qas/topic", "bob", map[string]any{"name": "alone-" + sfx})
	wantError(t, r, http.StatusForbidden, "READ_ONLY_ENVIRONMENT")
	if !strings.Contains(string(r.body), "four eyes") || !strings.Contains(string(r.body), "change-requests") {
		t.Errorf("the refusal does not say the way: %s", r.body)
	}
	doc := fmt.Sprintf(`{"items": [{"apiVersion": "portal/v1", "kind": "Topic", "metadata": {"name": "together-%s"}, "spec": {"partitions": 3}}]}`, sfx)
	req := tp.call("POST", "/api/v1/scada/qas/change-requests?reason=new+feed", "bob", doc)
	if req.status != http.StatusCreated {
		t.Fatalf("bob's request: %d %s", req.status, req.body)
	}
	id := req.json(t)["id"].(string)
	wantError(t, tp.call("POST", "/api/v1/scada/qas/change-request/"+id+"/approve", "bob", nil), http.StatusForbidden, "INSUFFICIENT_ROLE")
	if r := tp.call("POST", "/api/v1/scada/qas/change-request/"+id+"/approve", "alice", nil); r.status != http.StatusOK || r.json(t)["state"] != "applied" {
		t.Fatalf("alice's approval: %d %s", r.status, r.body)
	}
	if r := tp.call("GET", "/api/v1/scada/qas/topic/together-"+sfx, "carol", nil); r.status != http.StatusOK {
		t.Errorf("the approved topic: %d %s", r.status, r.body)
	}
}
