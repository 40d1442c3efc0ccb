package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/api"
)

// adminSamples hold a request that would succeed for a platform admin, for
// every admin route, so that the only reason for a refusal is the policy.
// A new admin route without one fails TestAdminRoutesRefuseEveryoneElse.
var adminSamples = map[string]struct{ path, body string }{
	"GET /api/v1/admin":                                {"/api/v1/admin", ""},
	"GET /api/v1/admin/business-units":                 {"/api/v1/admin/business-units", ""},
	"POST /api/v1/admin/business-units":                {"/api/v1/admin/business-units", `{"id":"billing","landing_zone":"edh-shared","groups":{"developer":["sg-x"]}}`},
	"GET /api/v1/admin/business-unit/:id":              {"/api/v1/admin/business-unit/scada", ""},
	"PUT /api/v1/admin/business-unit/:id":              {"/api/v1/admin/business-unit/scada", `{"groups":{"viewer":["sg-x"]}}`},
	"DELETE /api/v1/admin/business-unit/:id":           {"/api/v1/admin/business-unit/scada", ""},
	"GET /api/v1/admin/read-only":                      {"/api/v1/admin/read-only", ""},
	"PUT /api/v1/admin/read-only/:landing_zone/:stage": {"/api/v1/admin/read-only/edh-shared/qas", `{"read_only":true,"reason":"freeze"}`},
	"GET /api/v1/admin/audit":                          {"/api/v1/admin/audit", ""},
	"GET /api/v1/admin/audit/export":                   {"/api/v1/admin/audit/export?format=json", ""},
	"GET /api/v1/admin/upstreams":                      {"/api/v1/admin/upstreams", ""},
	"GET /api/v1/admin/costs/:landing_zone":            {"/api/v1/admin/costs/edh-shared", ""},
	"GET /api/v1/admin/config":                         {"/api/v1/admin/config", ""},
	"GET /api/v1/admin/sessions":                       {"/api/v1/admin/sessions", ""},
	"DELETE /api/v1/admin/session/:id":                 {"/api/v1/admin/session/nope", ""},
	"POST /api/v1/admin/access-preview":                {"/api/v1/admin/access-preview", `{"groups":["sg-scada-developers"]}`},
	"GET /api/v1/admin/policies":                       {"/api/v1/admin/policies", ""},
	"POST /api/v1/admin/policies":                      {"/api/v1/admin/policies", `{"id":"sample-new","landing_zone":"edh-shared","kind":"Topic","expression":"true","message":"m","action":"report"}`},
	"POST /api/v1/admin/policies/test":                 {"/api/v1/admin/policies/test", `{"policy":{"landing_zone":"edh-shared","kind":"Topic","expression":"resource.partitions <= 12","message":"m"},"business_unit":"scada","stage":"dev","resource":{"partitions":3}}`},
	"GET /api/v1/admin/policy/:id":                     {"/api/v1/admin/policy/seeded", ""},
	"PUT /api/v1/admin/policy/:id":                     {"/api/v1/admin/policy/seeded", seededPolicy},
	"DELETE /api/v1/admin/policy/:id":                  {"/api/v1/admin/policy/seeded", ""},
	"GET /api/v1/admin/policy/:id/report":              {"/api/v1/admin/policy/seeded/report", ""},
	"GET /api/v1/admin/budgets":                        {"/api/v1/admin/budgets", ""},
	"PUT /api/v1/admin/budget/:bu/:stage":              {"/api/v1/admin/budget/scada/dev", `{"limits":{"partitions":500}}`},
	"GET /api/v1/admin/webhooks":                       {"/api/v1/admin/webhooks", ""},
	"POST /api/v1/admin/webhooks":                      {"/api/v1/admin/webhooks", `{"landing_zone":"edh-shared","url":"https://hooks.example.test/portal"}`},
	"DELETE /api/v1/admin/webhook/:id":                 {"/api/v1/admin/webhook/{webhook}", ""},
	"GET /api/v1/admin/webhook/:id/deliveries":         {"/api/v1/admin/webhook/{webhook}/deliveries", ""},
}

// seededPolicy is the policy the admin walk finds in place.
const seededPolicy = `{"landing_zone":"edh-shared","kind":"Topic","expression":"resource.partitions <= 48","message":"at most 48","action":"report"}`

// zoneReads are what a landing zone's Super Admins may do.
var zoneReads = map[string]bool{"GET /api/v1/admin": true, "GET /api/v1/admin/audit": true,
	"GET /api/v1/admin/audit/export": true, "GET /api/v1/admin/upstreams": true, "GET /api/v1/admin/costs/:landing_zone": true,
	"GET /api/v1/admin/policies": true, "POST /api/v1/admin/policies/test": true, "GET /api/v1/admin/policy/:id": true,
	"GET /api/v1/admin/policy/:id/report": true, "GET /api/v1/admin/budgets": true}

// TestAdminRoutesRefuseEveryoneElse walks the admin routes: a Developer,
// a Viewer, an unit Admin and someone without a role get 404 NOT_FOUND on
// each (the area does not reveal itself); a landing zone's Super Admin
// gets the zone reads and 404 on the rest; nothing changes.
func TestAdminRoutesRefuseEveryoneElse(t *testing.T) {
	s := newServer(t, nil)
	if r := s.do(http.MethodPut, "/api/v1/admin/policy/seeded", "frank", seededPolicy); r.status != http.StatusCreated {
		t.Fatalf("seeding a policy: %d %s", r.status, r.raw)
	}
	hook := s.do(http.MethodPost, "/api/v1/admin/webhooks", "frank", `{"landing_zone":"edh-shared","url":"https://hooks.example.test/seeded"}`)
	if hook.status != http.StatusCreated {
		t.Fatalf("seeding a webhook: %d %s", hook.status, hook.raw)
	}
	var seeded struct {
		ID string `json:"id"`
	}
	_ = json.Unmarshal([]byte(hook.raw), &seeded)
	at := func(path string) string { return strings.ReplaceAll(path, "{webhook}", seeded.ID) }
	before := s.w.Snapshot(t)
	e := s.h.(*echo.Echo)
	walked := 0
	for _, rt := range e.Routes() {
		if rt.Method == http.MethodHead || !strings.HasPrefix(rt.Path, api.Base+"/admin") {
			continue
		}
		key := rt.Method + " " + rt.Path
		sample, ok := adminSamples[key]
		if !ok {
			t.Errorf("%s has no sample in adminSamples: add one", key)
			continue
		}
		walked++
		for _, user := range []string{"carol", "dave", "bob", "erin", "alice"} {
			r := s.do(rt.Method, at(sample.path), user, sample.body)
			if user == "alice" && zoneReads[key] {
				if r.status != http.StatusOK {
					t.Errorf("%s as alice: %d %s", key, r.status, r.raw)
				}
				continue
			}
			if r.status != http.StatusNotFound || r.errorTypes() != "NOT_FOUND" || !strings.Contains(r.raw, `"message":"not found"`) {
				t.Errorf("%s as %s: %d %s, want 404 not found", key, user, r.status, r.raw)
			}
		}
	}
	if walked != len(adminSamples) {
		t.Errorf("walked %d admin routes, %d samples", walked, len(adminSamples))
	}
	if after := s.w.Snapshot(t); after != before {
		t.Errorf("refused admin calls changed something:\nbefore\n%s\nafter\n%s", before, after)
	}
	// The samples are valid: frank's calls succeed (the deletes last).
	for key, sample := range adminSamples {
		if strings.HasPrefix(key, "DELETE") || strings.HasPrefix(key, "PUT /api/v1/admin/business-unit") {
			continue
		}
		if r := s.do(strings.Fields(key)[0], at(sample.path), "frank", sample.body); r.status >= 300 {
			t.Errorf("%s as frank: %d %s", key, r.status, r.raw)
		}
	}
}
