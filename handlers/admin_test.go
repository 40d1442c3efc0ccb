package handlers_test

import (
	"maps"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// adminPages hold a request of every admin page that would succeed for a
// platform admin (forms with a valid submission).
var adminPages = map[string]struct {
	path string
	form url.Values
}{
	"GET /admin":                                 {"/admin", nil},
	"GET /admin/business-units":                  {"/admin/business-units", nil},
	"POST /admin/business-units":                 {"/admin/business-units", url.Values{"id": {"billing"}, "landing_zone": {"edh-shared"}, "groups.developer": {"sg-a\nsg-b"}}},
	"GET /admin/business-unit/:id":               {"/admin/business-unit/scada", nil},
	"POST /admin/business-unit/:id":              {"/admin/business-unit/billing", url.Values{"groups.viewer": {"sg-c"}}},
	"GET /admin/business-unit/:id/offboard":      {"/admin/business-unit/billing/offboard", nil},
	"POST /admin/business-unit/:id/offboard":     {"/admin/business-unit/billing/offboard", url.Values{"confirm": {"billing"}}},
	"GET /admin/read-only":                       {"/admin/read-only", nil},
	"POST /admin/read-only/:landing_zone/:stage": {"/admin/read-only/edh-shared/qas", url.Values{"read_only": {"true"}, "reason": {"freeze"}}},
	"GET /admin/audit":                           {"/admin/audit", nil},
	"GET /admin/audit/export":                    {"/admin/audit/export?format=csv", nil},
	"GET /admin/upstreams":                       {"/admin/upstreams", nil},
	"GET /admin/costs":                           {"/admin/costs?zone=edh-shared", nil},
	"GET /admin/config":                          {"/admin/config", nil},
	"GET /admin/sessions":                        {"/admin/sessions", nil},
	"POST /admin/session/:id/end":                {"/admin/session/nope/end", url.Values{}},
	"GET /admin/access":                          {"/admin/access", nil},
	"POST /admin/access":                         {"/admin/access", url.Values{"groups": {"sg-scada-developers"}}},
	"GET /admin/policies":                        {"/admin/policies", nil},
	"GET /admin/policies/new":                    {"/admin/policies/new", nil},
	"POST /admin/policies":                       {"/admin/policies", policyForm("dev-partitions", "report")},
	"POST /admin/policies/test": {"/admin/policies/test", func() url.Values {
		f := policyForm("dev-partitions", "enforce")
		f.Set("test_business_unit", "scada")
		f.Set("test_stage", "dev")
		f.Set("test_resource", `{"partitions": 24}`)
		return f
	}()},
	"GET /admin/policy/:id":           {"/admin/policy/dev-partitions", nil},
	"POST /admin/policy/:id":          {"/admin/policy/dev-partitions", policyForm("dev-partitions", "enforce")},
	"GET /admin/policy/:id/report":    {"/admin/policy/dev-partitions/report", nil},
	"POST /admin/policy/:id/delete":   {"/admin/policy/dev-partitions/delete", url.Values{}},
	"GET /admin/budgets":              {"/admin/budgets", nil},
	"POST /admin/budgets/:bu/:stage":  {"/admin/budgets/scada/dev", url.Values{"partitions": {"500"}, "topics": {""}}},
	"GET /admin/webhooks":             {"/admin/webhooks", nil},
	"POST /admin/webhooks":            {"/admin/webhooks", url.Values{"landing_zone": {"edh-shared"}, "url": {"https://hooks.example.test/x"}}},
	"GET /admin/webhooks/:id":         {"/admin/webhooks/nope", nil},
	"POST /admin/webhooks/:id/delete": {"/admin/webhooks/nope/delete", url.Values{}},
}

// policyForm is the policy editor filled in.
func policyForm(id, action string) url.Values {
	return url.Values{"id": {id}, "landing_zone": {"edh-shared"}, "kind": {"Topic"}, "stages": {"dev"}, "operations": {"create", "update"},
		"expression": {"resource.partitions <= 12"}, "message": {"at most 12, not ${resource.partitions}"}, "field": {"partitions_count"}, "action": {action}}
}

var zonePages = map[string]bool{"GET /admin": true, "GET /admin/audit": true, "GET /admin/audit/export": true, "GET /admin/upstreams": true,
	"GET /admin/costs": true, "GET /admin/policies": true, "GET /admin/budgets": true, "POST /admin/policies/test": true}

// TestAdminPagesHidden walks the admin pages: everyone but platform admins
// gets the 404 page (a zone's Super Admin gets the zone pages); nothing
// changes; then frank uses each page.
func TestAdminPagesHidden(t *testing.T) {
	s := newSite(t)
	before := s.w.Snapshot(t)
	walked := 0
	for _, rt := range s.e.Routes() {
		if rt.Method == http.MethodHead || !strings.HasPrefix(rt.Path, "/admin") {
			continue
		}
		key := rt.Method + " " + rt.Path
		sample, ok := adminPages[key]
		if !ok {
			t.Errorf("%s has no sample in adminPages", key)
			continue
		}
		walked++
		for _, user := range []string{"carol", "dave", "bob", "erin", "alice"} {
			var form url.Values
			if sample.form != nil {
				form = url.Values{}
				for k, v := range sample.form {
					form[k] = v
				}
			}
			r := s.do(rt.Method, sample.path, user, form)
			if user == "alice" && zonePages[key] {
				if r.status >= 400 {
					t.Errorf("%s as alice: %d", key, r.status)
				}
				continue
			}
			if r.status != http.StatusNotFound {
				t.Errorf("%s as %s: %d, want 404", key, user, r.status)
			}
		}
	}
	if walked != len(adminPages) {
		t.Errorf("walked %d admin pages, %d samples", walked, len(adminPages))
	}
	if after := s.w.Snapshot(t); after != before {
		t.Errorf("refused admin pages changed something:\nbefore\n%s\nafter\n%s", before, after)
	}

	// frank, in order: onboard, edit, see, offboard, switch, read.
	for _, key := range []string{"GET /admin/business-units", "POST /admin/business-units", "GET /admin/business-unit/:id",
		"POST /admin/business-unit/:id", "GET /admin/business-unit/:id/offboard", "POST /admin/business-unit/:id/offboard",
		"GET /admin/read-only", "POST /admin/read-only/:landing_zone/:stage", "GET /admin/audit", "GET /admin/audit/export",
		"GET /admin/upstreams", "GET /admin/costs", "GET /admin/config", "GET /admin/sessions", "GET /admin/access", "POST /admin/access",
		"GET /admin/policies/new", "POST /admin/policies", "GET /admin/policies", "GET /admin/policy/:id", "POST /admin/policy/:id",
		"GET /admin/policy/:id/report", "POST /admin/policies/test", "GET /admin/budgets", "POST /admin/budgets/:bu/:stage",
		"POST /admin/policy/:id/delete", "GET /admin/webhooks", "POST /admin/webhooks"} {
		sample := adminPages[key]
		// A copy: do adds the caller's CSRF token to the form it is given,
		// and the samples outlive this run (go test -count=2).
		var form url.Values
		if sample.form != nil {
			form = maps.Clone(sample.form)
		}
		r := s.do(strings.Fields(key)[0], sample.path, "frank", form)
		if r.status >= 400 {
			t.Errorf("%s as frank: %d %.300s", key, r.status, r.body)
		}
	}
	if !strings.Contains(s.do("GET", "/admin/audit?action=business_unit.onboard", "frank", nil).body, "sg-a, sg-b") {
		t.Error("the audit page does not show the onboarding's groups")
	}
}

// TestOnboardingFormShowsErrors: a bad submission keeps what was typed and
// names each field's problem.
func TestOnboardingFormShowsErrors(t *testing.T) {
	s := newSite(t)
	r := s.do("POST", "/admin/business-units", "frank", url.Values{"id": {"Bad Id"}, "landing_zone": {"edh-shared"}, "groups.viewer": {""}})
	if r.status != http.StatusUnprocessableEntity || !strings.Contains(r.body, `value="Bad Id"`) ||
		!strings.Contains(r.body, `data-field="id"`) || !strings.Contains(r.body, `data-field="groups"`) {
		t.Errorf("refused onboarding: %d %.2000s", r.status, r.body)
	}
}
