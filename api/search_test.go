package api_test

import (
	"net/http"
	"testing"
)

// TestSearch: the unit's resources named like q, each with its kind and
// the key its path takes; no q is a field error; another unit's member
// is refused.
func TestSearch(t *testing.T) {
	s := newServer(t, nil)
	if r := s.do("POST", "/api/v1/scada/dev/topic", "carol", `{"name": "findable-orders"}`); r.status != http.StatusCreated {
		t.Fatalf("create: %d %s", r.status, r.raw)
	}
	r := s.do("GET", "/api/v1/scada/dev/search?q=FINDABLE", "dave", "")
	items, _ := r.body["items"].([]any)
	if r.status != 200 || len(items) != 1 {
		t.Fatalf("search: %d %s", r.status, r.raw)
	}
	if hit := items[0].(map[string]any); hit["kind"] != "topic" || hit["key"] != "edh-shared-scada-dev-findable-orders" {
		t.Errorf("hit: %v", hit)
	}
	if u, ok := r.body["unavailable"].([]any); !ok || len(u) != 0 {
		t.Errorf("unavailable: %s", r.raw)
	}
	if r := s.do("GET", "/api/v1/scada/dev/search", "dave", ""); r.status != 400 || r.errorTypes() != "MISSING_PARAMETER:q" {
		t.Errorf("no q: %d %s", r.status, r.raw)
	}
}
