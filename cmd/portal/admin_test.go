package main

import (
	"encoding/csv"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/edh-platform/rms-portal/internal/config"
)

// adminRoutes are every admin route with a body that would be valid.
var adminRoutes = []struct{ method, path, body string }{
	{"GET", "/api/v1/admin", ""},
	{"GET", "/api/v1/admin/business-units", ""},
	{"POST", "/api/v1/admin/business-units", `{"id":"x","landing_zone":"edh-shared","groups":{"viewer":["g"]}}`},
	{"GET", "/api/v1/admin/business-unit/scada", ""},
	{"PUT", "/api/v1/admin/business-unit/scada", `{"groups":{"viewer":["g"]}}`},
	{"DELETE", "/api/v1/admin/business-unit/scada", ""},
	{"GET", "/api/v1/admin/read-only", ""},
	{"PUT", "/api/v1/admin/read-only/edh-shared/qas", `{"read_only":true,"reason":"r"}`},
	{"GET", "/api/v1/admin/audit", ""},
	{"GET", "/api/v1/admin/audit/export?format=csv", ""},
	{"GET", "/api/v1/admin/upstreams", ""},
	{"GET", "/api/v1/admin/config", ""},
	{"GET", "/api/v1/admin/sessions", ""},
	{"DELETE", "/api/v1/admin/session/abc", ""},
	{"POST", "/api/v1/admin/access-preview", `{"groups":["g"]}`},
}

// TestAdminAreaHidden: carol (Developer) and erin (no role) get 404 on
// every admin route, with the same record as for a path that does not
// exist; alice (Super Admin of edh-shared) reads the trail and health but
// nothing else; nothing changed.
func TestAdminAreaHidden(t *testing.T) {
	tp := sharedPortal(t)
	for _, user := range []string{"carol", "erin", "dave"} {
		for _, r := range adminRoutes {
			var body any
			if r.body != "" {
				body = r.body
			}
			got := tp.call(r.method, r.path, user, body)
			rec := wantError(t, got, http.StatusNotFound, "NOT_FOUND")
			if msg := rec["errors"].([]any)[0].(map[string]any)["message"]; msg != "not found" {
				t.Errorf("%s %s %s: message %q reveals the area", user, r.method, r.path, msg)
			}
		}
	}
	allowed := map[string]bool{"/api/v1/admin": true, "/api/v1/admin/audit": true, "/api/v1/admin/audit/export?format=csv": true, "/api/v1/admin/upstreams": true}
	for _, r := range adminRoutes {
		var body any
		if r.body != "" {
			body = r.body
		}
		got := tp.call(r.method, r.path, "alice", body)
		if allowed[r.path] && r.method == "GET" {
			if got.status != http.StatusOK {
				t.Errorf("alice %s %s: %d %s", r.method, r.path, got.status, got.body)
			}
			continue
		}
		wantError(t, got, http.StatusNotFound, "NOT_FOUND")
	}
	if u := tp.call("GET", "/api/v1/me", "carol", nil).json(t); len(u["business_units"].([]any)) != 2 {
		t.Errorf("carol's units changed: %v", u["business_units"])
	}
}

// TestAdminJourneyThroughAPI is the walk-through on one replica:
// frank onboards billing; carol's groups give her Developer there at once
// and she creates a topic in it; frank switches edh-shared/qas read-only
// with a reason and carol's create there is refused naming it; the trail
// shows both changes with their diffs, alice reads it for edh-shared;
// frank offboards billing and is told what it left upstream.
func TestAdminJourneyThroughAPI(t *testing.T) {
	t.Parallel()
	tp := startPortal(t, nil)
	onboard := map[string]any{"id": "billing", "landing_zone": "edh-shared",
		"groups": map[string]any{"developer": []string{"sg-scada-developers"}, "viewer": []string{"sg-crm-viewers"}}}

	// Bad input changes nothing and says what is wrong with each field.
	wantError(t, tp.call("POST", "/api/v1/admin/business-units", "frank", map[string]any{"id": "Bad Id!", "landing_zone": "nowhere", "groups": map[string]any{}}),
		http.StatusBadRequest, "INVALID_PARAMETER:id", "INVALID_PARAMETER:landing_zone", "INVALID_PARAMETER:groups")
	wantError(t, tp.call("POST", "/api/v1/admin/business-units", "frank", map[string]any{"id": "scada", "landing_zone": "edh-shared", "groups": map[string]any{"viewer": []string{"g"}}}),
		http.StatusConflict, "ALREADY_EXISTS")
	wantError(t, tp.call("POST", "/api/v1/admin/business-units", "frank", map[string]any{"id": "extra", "landing_zone": "sales", "groups": map[string]any{"viewer": []string{"g"}}}),
		http.StatusBadRequest, "INVALID_PARAMETER:landing_zone")

	r := tp.call("POST", "/api/v1/admin/business-units", "frank", onboard)
	if r.status != http.StatusCreated || r.header.Get("Location") != "/api/v1/admin/business-unit/billing" {
		t.Fatalf("onboard: %d %s", r.status, r.body)
	}
	if u := r.json(t); u["source"] != "portal" || u["landing_zone"] != "edh-shared" || len(u["stages"].([]any)) != 3 {
		t.Errorf("onboarded unit %v", u)
	}
	wantError(t, tp.call("POST", "/api/v1/admin/business-units", "frank", onboard), http.StatusConflict, "ALREADY_EXISTS")

	me := tp.call("GET", "/api/v1/me", "carol", nil).json(t)
	var billing map[string]any
	for _, u := range me["business_units"].([]any) {
		if u.(map[string]any)["id"] == "billing" {
			billing = u.(map[string]any)
		}
	}
	if billing == nil || billing["role"] != "developer" {
		t.Fatalf("carol's units: %v", me["business_units"])
	}
	sfx := suffix()
	tp.removeAfter("/api/v1/billing/dev/topic/edh-shared-billing-dev-ledger-" + sfx)
	r = tp.call("POST", "/api/v1/billing/dev/topic", "carol", map[string]any{"name": "ledger-" + sfx})
	if r.status != http.StatusCreated || r.json(t)["name"] != "edh-shared-billing-dev-ledger-"+sfx {
		t.Fatalf("carol's create in billing: %d %s", r.status, r.body)
	}
	if got := tp.call("GET", "/api/v1/admin/business-unit/billing", "frank", nil).json(t); got["stages"].([]any)[0].(map[string]any)["topics"] != 1.0 {
		t.Errorf("billing's counts: %v", got["stages"])
	}

	// A read-only switch with a reason.
	wantError(t, tp.call("PUT", "/api/v1/admin/read-only/edh-shared/qas", "frank", map[string]any{"read_only": true}),
		http.StatusBadRequest, "INVALID_PARAMETER:reason")
	r = tp.call("PUT", "/api/v1/admin/read-only/edh-shared/qas", "frank", map[string]any{"read_only": true, "reason": "Quarterly release freeze"})
	if r.status != http.StatusOK || r.json(t)["read_only"] != true {
		t.Fatalf("switch: %d %s", r.status, r.body)
	}
	rec := wantError(t, tp.call("POST", "/api/v1/scada/qas/topic", "carol", map[string]any{"name": "frozen-" + sfx}), http.StatusForbidden, "READ_ONLY_ENVIRONMENT")
	if msg := rec["errors"].([]any)[0].(map[string]any)["message"].(string); !strings.Contains(msg, "Quarterly release freeze") {
		t.Errorf("the refusal does not name the reason: %q", msg)
	}
	// The other landing zone's qas is untouched.
	states := tp.call("GET", "/api/v1/admin/read-only", "frank", nil).json(t)["items"].([]any)
	for _, s := range states {
		m := s.(map[string]any)
		if m["stage"] == "qas" && (m["landing_zone"] == "edh-shared") != (m["read_only"] == true) {
			t.Errorf("read-only state %v", m)
		}
	}

	// The trail holds both changes with their diffs.
	trail := tp.call("GET", "/api/v1/admin/audit", "frank", nil).json(t)["items"].([]any)
	var onboarded, switched map[string]any
	for _, e := range trail {
		m := e.(map[string]any)
		switch m["action"] {
		case "business_unit.onboard":
			if m["outcome"] == "ok" {
				onboarded = m
			}
		case "read_only.set":
			if m["outcome"] == "ok" {
				switched = m
			}
		}
	}
	if onboarded == nil || !strings.Contains(string(mustJSON(onboarded["changes"])), "sg-scada-developers") {
		t.Errorf("onboarding in the trail: %v", onboarded)
	}
	if switched == nil || !strings.Contains(string(mustJSON(switched["changes"])), `"after":"Quarterly release freeze"`) {
		t.Errorf("switch in the trail: %v", switched)
	}
	// alice reads edh-shared's trail; sales' is not hers.
	if got := tp.call("GET", "/api/v1/admin/audit?action=read_only.set", "alice", nil); got.status != 200 || len(got.json(t)["items"].([]any)) == 0 {
		t.Errorf("alice's trail: %d %s", got.status, got.body)
	}
	wantError(t, tp.call("GET", "/api/v1/admin/audit?landing_zone=sales", "alice", nil), http.StatusNotFound, "NOT_FOUND")
	wantError(t, tp.call("POST", "/api/v1/admin/business-units", "alice", onboard), http.StatusNotFound, "NOT_FOUND")

	// Export as CSV and JSON, filtered.
	csvOut := tp.call("GET", "/api/v1/admin/audit/export?format=csv&action=read_only.set", "frank", nil)
	rows, err := csv.NewReader(strings.NewReader(string(csvOut.body))).ReadAll()
	if err != nil || csvOut.status != 200 || len(rows) < 2 || rows[0][0] != "id" || !slices.Contains(rows[1], "read_only.set") {
		t.Errorf("CSV export: %d %v %q", csvOut.status, err, csvOut.body)
	}
	var events []map[string]any
	jsonOut := tp.call("GET", "/api/v1/admin/audit/export?format=json&business_unit=billing", "frank", nil)
	if err := json.Unmarshal(jsonOut.body, &events); err != nil || len(events) == 0 {
		t.Errorf("JSON export: %v %s", err, jsonOut.body)
	}

	// Thaw, then offboard: billing disappears, its topic is listed.
	tp.call("PUT", "/api/v1/admin/read-only/edh-shared/qas", "frank", map[string]any{"read_only": false, "reason": "Freeze over"})
	wantError(t, tp.call("DELETE", "/api/v1/admin/business-unit/scada", "frank", nil), http.StatusConflict, "CONFLICT")
	r = tp.call("DELETE", "/api/v1/admin/business-unit/billing", "frank", nil)
	if r.status != http.StatusOK || !strings.Contains(string(r.body), "edh-shared-billing-dev-ledger-"+sfx) {
		t.Fatalf("offboard: %d %s", r.status, r.body)
	}
	if got := tp.call("GET", "/api/v1/billing/dev/topics", "carol", nil); got.status != http.StatusNotFound {
		t.Errorf("billing after offboarding: %d", got.status)
	}
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// TestAdminConfigRedactsSecrets: the configuration in force holds no
// secret value, in the API or on the page, whatever key carries it.
func TestAdminConfigRedactsSecrets(t *testing.T) {
	t.Parallel()
	secrets := []string{"session-key-" + suffix() + "-0123456789abcdef0123456789", "metrics-pw-" + suffix(), "metrics-token-" + suffix(),
		"cloud-secret-" + suffix(), "oidc-secret-" + suffix()}
	tp := startPortal(t, func(c *config.Config) {
		c.Session.Keys = []string{secrets[0]}
		c.Metrics.Password, c.Metrics.BearerToken, c.Metrics.Username = secrets[1], secrets[2], "prom"
		c.ConfluentCloud.APISecret = secrets[3]
		c.DevIDP.Clients = append(c.DevIDP.Clients, config.DevClient{ID: "ci", Secret: secrets[4], ClientCredentials: true})
		c.Unknown = []string{"change_requests (line 3)"} // a key of a later release
	})
	r := tp.call("GET", "/api/v1/admin/config", "frank", nil)
	if r.status != 200 || !strings.Contains(string(r.body), `"platform_admin_group":"platform-admins"`) || !strings.Contains(string(r.body), "[redacted]") {
		t.Fatalf("config: %d %.300s", r.status, r.body)
	}
	w := tp.webClient(t)
	w.signIn("frank")
	page := w.get("/admin/config")
	for _, s := range secrets {
		if strings.Contains(string(r.body), s) || strings.Contains(page.body, s) {
			t.Errorf("secret %q appears", s)
		}
	}
	if page.status != 200 || !strings.Contains(page.body, "platform_admin_group") {
		t.Errorf("config page: %d", page.status)
	}
	if !strings.Contains(page.body, `id="ignored-keys"`) || !strings.Contains(page.body, "change_requests (line 3)") ||
		!strings.Contains(string(r.body), `"ignored_keys":["change_requests (line 3)"]`) {
		t.Error("the keys the portal ignores are not shown")
	}
}

// TestAccessPreviewAndMyAccess: a platform admin previews what groups (or
// a token's claims) would give; a groups overage is said plainly; every
// caller reads their own access in /api/v1/me.
func TestAccessPreviewAndMyAccess(t *testing.T) {
	tp := sharedPortal(t)
	r := tp.call("POST", "/api/v1/admin/access-preview", "frank", map[string]any{"groups": []string{"SG-SCADA-DEVELOPERS", "sg-nothing"}})
	if r.status != 200 {
		t.Fatalf("preview: %d %s", r.status, r.body)
	}
	got := r.json(t)
	units := got["business_units"].([]any)
	if len(units) != 1 || units[0].(map[string]any)["id"] != "scada" || units[0].(map[string]any)["role"] != "developer" {
		t.Errorf("preview units %v", units)
	}
	if un := got["unmatched_groups"].([]any); len(un) != 1 || un[0] != "sg-nothing" {
		t.Errorf("unmatched %v", un)
	}
	r = tp.call("POST", "/api/v1/admin/access-preview", "frank", map[string]any{"claims": map[string]any{
		"sub": "x", "_claim_names": map[string]any{"groups": "src1"}, "_claim_sources": map[string]any{"src1": map[string]any{"endpoint": "https://graph"}}}})
	if got := r.json(t); r.status != 200 || got["groups_overage"] != true || !strings.Contains(got["explanation"].(string), "overage") {
		t.Errorf("overage preview: %d %s", r.status, r.body)
	}
	wantError(t, tp.call("POST", "/api/v1/admin/access-preview", "frank", map[string]any{}), http.StatusBadRequest, "INVALID_PARAMETER:groups")

	me := tp.call("GET", "/api/v1/me", "erin", nil).json(t)
	if me["groups_overage"] != false || !strings.Contains(me["access"].(map[string]any)["explanation"].(string), "no groups") {
		t.Errorf("erin's access: %v", me["access"])
	}
}

// TestEndASession: frank lists carol's web sessions and ends one; her
// browser is signed out at once; the trail records it.
func TestEndASession(t *testing.T) {
	t.Parallel()
	tp := startPortal(t, nil)
	carol := tp.webClient(t)
	carol.signIn("carol")
	list := tp.call("GET", "/api/v1/admin/sessions?user=carol", "frank", nil)
	items := list.json(t)["items"].([]any)
	if list.status != 200 || len(items) != 1 {
		t.Fatalf("carol's sessions: %d %s", list.status, list.body)
	}
	s := items[0].(map[string]any)
	if s["username"] != "carol" || s["user_agent"] == "" {
		t.Errorf("session %v", s)
	}
	for field := range s {
		if strings.Contains(field, "token") || strings.Contains(field, "secret") {
			t.Errorf("a session shows its %s: %v", field, s)
		}
	}
	if r := tp.call("DELETE", "/api/v1/admin/session/"+s["id"].(string), "frank", nil); r.status != http.StatusNoContent {
		t.Fatalf("end: %d %s", r.status, r.body)
	}
	if r := carol.get("/scada/dev/topics"); !strings.Contains(r.body, `id="sign-in"`) {
		t.Errorf("carol is still signed in: %d %.300s", r.status, r.body)
	}
	wantError(t, tp.call("DELETE", "/api/v1/admin/session/"+s["id"].(string), "frank", nil), http.StatusNotFound, "NOT_FOUND")
	trail := tp.call("GET", "/api/v1/admin/audit?action=session.end&outcome=ok", "frank", nil).json(t)["items"].([]any)
	if len(trail) != 1 || trail[0].(map[string]any)["resource"] != "session of carol" {
		t.Errorf("trail %v", trail)
	}
}
