package main

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

func items(t *testing.T, r response) []map[string]any {
	t.Helper()
	if r.status != http.StatusOK {
		t.Fatalf("list: %d %s", r.status, r.body)
	}
	var out []map[string]any
	for _, it := range r.json(t)["items"].([]any) {
		out = append(out, it.(map[string]any))
	}
	return out
}

func names(list []map[string]any) []string {
	var out []string
	for _, it := range list {
		out = append(out, it["name"].(string))
	}
	return out
}

// TestServiceAccountsAPI: the seeded account is listed; bob bulk-creates
// five accounts of which one exists already and reads each result; the
// same request again creates nothing; an invalid item stops the whole
// batch; carol is refused.
func TestServiceAccountsAPI(t *testing.T) {
	t.Parallel()
	tp := startPortal(t, nil)
	base := "/api/v1/scada/dev"
	seeded := items(t, tp.call("GET", base+"/service-accounts", "dave", nil))
	if got := names(seeded); len(got) != 1 || got[0] != "sa-edh-shared-scada-dev-usr-demo-app-producer" {
		t.Fatalf("seeded accounts %v", got)
	}
	if _, has := seeded[0]["role_bindings"]; has {
		t.Error("the list carries role bindings")
	}

	batch := map[string]any{"items": []map[string]string{
		{"name": "billing", "type": "producer", "description": "Billing writer"},
		{"name": "billing", "type": "consumer"},
		{"name": "Demo_App", "type": "producer"},
		{"name": "stream_join", "type": "stream-processor"},
		{"name": "grafana", "type": "metrics"},
	}}
	r := tp.call("POST", base+"/service-accounts/bulk", "bob", batch)
	if r.status != http.StatusAccepted || r.json(t)["state"] != "running" {
		t.Fatalf("bulk: %d %s", r.status, r.body)
	}
	r = tp.call("GET", r.header.Get("Location")+"?wait=30s", "bob", nil)
	if r.status != http.StatusOK || r.json(t)["state"] != "done" {
		t.Fatalf("bulk job: %d %s", r.status, r.body)
	}
	results := r.json(t)["results"].([]any)
	wantStatus := []float64{201, 201, 409, 201, 201}
	wantBindings := []int{7, 4, 0, 9, 1}
	for i, x := range results {
		res := x.(map[string]any)
		if res["index"] != float64(i) || res["status"] != wantStatus[i] {
			t.Errorf("result %d: %v", i, res)
			continue
		}
		if i == 2 {
			e := res["error"].(map[string]any)
			if e["type"] != "ALREADY_EXISTS" || !strings.Contains(e["message"].(string), "sa-edh-shared-scada-dev-usr-demo-app-producer") {
				t.Errorf("conflict %v", e)
			}
			if _, has := res["item"]; has {
				t.Error("a failed item carries a record")
			}
			continue
		}
		item := res["item"].(map[string]any)
		if id, _ := item["id"].(string); !strings.HasPrefix(id, "sa-") {
			t.Errorf("id %v", item["id"])
		}
		if bs := item["role_bindings"].([]any); len(bs) != wantBindings[i] {
			t.Errorf("item %d has %d bindings, want %d", i, len(bs), wantBindings[i])
		}
	}
	first := results[0].(map[string]any)["item"].(map[string]any)
	if first["name"] != "sa-edh-shared-scada-dev-usr-billing-producer" || first["type"] != "producer" || first["description"] != "Billing writer" {
		t.Errorf("first item %v", first)
	}
	// The producer template, scoped to the unit's prefix.
	var bindings []string
	for _, b := range first["role_bindings"].([]any) {
		m := b.(map[string]any)
		bindings = append(bindings, fmt.Sprintf("%v %v %v", m["role"], m["resource"], m["pattern"]))
		if m["crn"] == "" {
			t.Errorf("binding without crn: %v", m)
		}
	}
	want := "Operator cluster <nil>, DeveloperRead topic edh-shared-scada-dev-*, DeveloperWrite topic edh-shared-scada-dev-*, " +
		"DeveloperRead group edh-shared-scada-dev-*, " +
		"DeveloperRead transactional-id edh-shared-scada-dev-*, DeveloperWrite transactional-id edh-shared-scada-dev-*, " +
		"DeveloperRead subject edh-shared-scada-dev-*"
	if got := strings.Join(bindings, ", "); got != want {
		t.Errorf("bindings\n got %s\nwant %s", got, want)
	}
	got := tp.call("GET", base+"/service-account/"+first["id"].(string), "dave", nil)
	if got.status != 200 || len(got.json(t)["role_bindings"].([]any)) != 7 {
		t.Errorf("get: %d %s", got.status, got.body)
	}

	// Repeating the request creates nothing twice.
	r = tp.call("POST", base+"/service-accounts/bulk", "bob", batch)
	r = tp.call("GET", r.header.Get("Location")+"?wait=30s", "bob", nil)
	for i, x := range r.json(t)["results"].([]any) {
		if x.(map[string]any)["status"] != float64(409) {
			t.Errorf("repeat %d: %v", i, x)
		}
	}
	if n := len(items(t, tp.call("GET", base+"/service-accounts", "bob", nil))); n != 5 {
		t.Errorf("%d accounts after the repeat, want 5", n)
	}

	// One bad item: nothing is created, and each problem names its item.
	bad := map[string]any{"items": []map[string]string{
		{"name": "fine", "type": "consumer"},
		{"name": "", "type": "consumer"},
		{"name": "typo", "type": "reader"},
	}}
	wantError(t, tp.call("POST", base+"/service-accounts/bulk", "bob", bad), http.StatusBadRequest,
		"MISSING_PARAMETER:items[1].name", "INVALID_PARAMETER:items[2].type")
	if n := len(items(t, tp.call("GET", base+"/service-accounts?search=fine", "bob", nil))); n != 0 {
		t.Error("a rejected batch created an account")
	}
	wantError(t, tp.call("POST", base+"/service-accounts/bulk", "bob", map[string]any{"items": []any{}}), http.StatusBadRequest,
		"MISSING_PARAMETER:items")

	// Developers and Viewers read but do not create.
	wantError(t, tp.call("POST", base+"/service-accounts/bulk", "carol", batch), http.StatusForbidden, "INSUFFICIENT_ROLE")
	wantError(t, tp.call("POST", base+"/service-account", "dave", map[string]string{"name": "x", "type": "consumer"}),
		http.StatusForbidden, "INSUFFICIENT_ROLE")
	// Another unit's account is not found, not forbidden.
	wantError(t, tp.call("GET", "/api/v1/crm/dev/service-account/"+first["id"].(string), "alice", nil), http.StatusNotFound, "NOT_FOUND")

	r = tp.call("POST", base+"/service-account", "bob", map[string]string{"name": "ledger", "type": "consumer"})
	if r.status != http.StatusCreated || r.header.Get("Location") != base+"/service-account/"+r.json(t)["id"].(string) {
		t.Errorf("create: %d %s %s", r.status, r.header.Get("Location"), r.body)
	}
	wantError(t, tp.call("POST", base+"/service-account", "bob", map[string]string{"name": "ledger", "type": "consumer"}),
		http.StatusConflict, "ALREADY_EXISTS")
}

// TestIdentityPoolsAPI: create a pool, change its filter, be refused a
// filter that does not parse, test a filter against sample claims, and
// delete the pool.
func TestIdentityPoolsAPI(t *testing.T) {
	t.Parallel()
	tp := startPortal(t, nil)
	base := "/api/v1/scada/dev"
	seeded := items(t, tp.call("GET", base+"/identity-pools", "carol", nil))
	if got := names(seeded); len(got) != 1 || got[0] != "edh-shared-scada-dev-ci-consumer" {
		t.Fatalf("seeded pools %v", got)
	}

	create := map[string]string{"name": "github_actions", "type": "producer", "description": "GitHub deploys",
		"filter": `claims.iss == "https://token.actions.githubusercontent.com" && claims.repository_owner == "edh"`}
	wantError(t, tp.call("POST", base+"/identity-pool", "carol", create), http.StatusForbidden, "INSUFFICIENT_ROLE")
	r := tp.call("POST", base+"/identity-pool", "bob", create)
	if r.status != http.StatusCreated {
		t.Fatalf("create: %d %s", r.status, r.body)
	}
	p := r.json(t)
	path := r.header.Get("Location")
	if id, _ := p["id"].(string); !strings.HasPrefix(id, "pool-") || path != base+"/identity-pool/"+id {
		t.Errorf("id %v at %s", p["id"], path)
	}
	if p["name"] != "edh-shared-scada-dev-github-actions-producer" || p["identity_claim"] != "claims.sub" || len(p["role_bindings"].([]any)) != 7 {
		t.Errorf("created %v", p)
	}
	wantError(t, tp.call("POST", base+"/identity-pool", "bob", create), http.StatusConflict, "ALREADY_EXISTS")

	newFilter := `claims.iss == "https://token.actions.githubusercontent.com" && claims.ref == "refs/heads/main"`
	r = tp.call("PATCH", path, "bob", map[string]string{"filter": newFilter})
	if r.status != 200 || r.json(t)["filter"] != newFilter {
		t.Errorf("patch: %d %s", r.status, r.body)
	}
	rec := wantError(t, tp.call("PATCH", path, "bob", map[string]string{"filter": `claims.ref == "refs/heads/main`}),
		http.StatusBadRequest, "INVALID_PARAMETER:filter")
	msg := rec["errors"].([]any)[0].(map[string]any)["message"].(string)
	if !strings.Contains(msg, "at 1:15") || !strings.Contains(msg, "Syntax error") {
		t.Errorf("the message does not point at the problem: %s", msg)
	}
	wantError(t, tp.call("PATCH", path, "bob", map[string]string{"filter": `claims.sub`}), http.StatusBadRequest, "INVALID_PARAMETER:filter")
	wantError(t, tp.call("PATCH", path, "bob", map[string]string{}), http.StatusBadRequest, "MISSING_PARAMETER:filter")
	wantError(t, tp.call("PATCH", path, "dave", map[string]string{"filter": newFilter}), http.StatusForbidden, "INSUFFICIENT_ROLE")
	if got := tp.call("GET", path, "dave", nil).json(t); got["filter"] != newFilter {
		t.Errorf("a refused change altered the filter: %v", got["filter"])
	}
	wantError(t, tp.call("POST", base+"/identity-pool", "bob", map[string]string{"name": "x", "type": "consumer", "filter": "claims.sub =="}),
		http.StatusBadRequest, "INVALID_PARAMETER:filter")

	test := func(claims map[string]any) map[string]any {
		r := tp.call("POST", base+"/identity-pools/test-filter", "dave", map[string]any{"filter": newFilter, "claims": claims})
		if r.status != 200 {
			t.Fatalf("test-filter: %d %s", r.status, r.body)
		}
		return r.json(t)
	}
	if got := test(map[string]any{"iss": "https://token.actions.githubusercontent.com", "ref": "refs/heads/main"}); got["matches"] != true {
		t.Errorf("matching claims: %v", got)
	}
	if got := test(map[string]any{"iss": "https://token.actions.githubusercontent.com", "ref": "refs/heads/feature"}); got["matches"] != false {
		t.Errorf("other branch: %v", got)
	}
	if got := test(map[string]any{"iss": "https://token.actions.githubusercontent.com"}); got["matches"] != false || !strings.Contains(got["reason"].(string), "ref") {
		t.Errorf("missing claim: %v", got)
	}
	wantError(t, tp.call("POST", base+"/identity-pools/test-filter", "dave", map[string]any{"filter": "claims.(", "claims": map[string]any{}}),
		http.StatusBadRequest, "INVALID_PARAMETER:filter")

	wantError(t, tp.call("DELETE", path, "carol", nil), http.StatusForbidden, "INSUFFICIENT_ROLE")
	if r := tp.call("DELETE", path, "bob", nil); r.status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", r.status, r.body)
	}
	wantError(t, tp.call("GET", path, "bob", nil), http.StatusNotFound, "NOT_FOUND")
}
