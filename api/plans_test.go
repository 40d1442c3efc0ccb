package api_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

const yamlDoc = `apiVersion: portal/v1
kind: Topic
metadata:
  name: api-orders
spec:
  partitions: 2
  config:
    retention.ms: 86400000
---
apiVersion: portal/v1
kind: Schema
metadata:
  name: api-orders-value
spec:
  schema: |
    {"type": "record", "name": "Order", "fields": [{"name": "id", "type": "string"}]}
`

// send posts a document with a media type and optional If-Match.
func (s *server) send(path, user, contentType, body, ifMatch string) reply {
	s.t.Helper()
	req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Authorization", "Bearer "+user)
	if ifMatch != "" {
		req.Header.Set("If-Match", ifMatch)
	}
	rec := httptest.NewRecorder()
	s.h.ServeHTTP(rec, req)
	r := reply{status: rec.Code, header: rec.Header(), raw: rec.Body.String()}
	_ = json.Unmarshal(rec.Body.Bytes(), &r.body)
	return r
}

func actions(r reply) string {
	var out []string
	changes, _ := r.body["changes"].([]any)
	for _, c := range changes {
		m := c.(map[string]any)
		s := m["action"].(string) + " " + m["name"].(string)
		if o, ok := m["outcome"].(string); ok {
			s += " " + o
		}
		out = append(out, s)
	}
	return strings.Join(out, ", ")
}

func TestPlanAndApplyThroughTheAPI(t *testing.T) {
	s := newServer(t, nil)
	const base = "/api/v1/scada/dev/"
	plan := s.send(base+"plan", "carol", "application/yaml", yamlDoc, "")
	if plan.status != 200 || actions(plan) != "create edh-shared-scada-dev-api-orders, create edh-shared-scada-dev-api-orders-value" {
		t.Fatalf("plan: %d %s", plan.status, plan.raw)
	}
	fp, _ := plan.body["fingerprint"].(string)
	if plan.header.Get("ETag") != `"`+fp+`"` || len(fp) != 64 {
		t.Errorf("fingerprint %q, ETag %q", fp, plan.header.Get("ETag"))
	}
	diff := plan.body["changes"].([]any)[0].(map[string]any)["diff"].(map[string]any)
	if d := diff["config.retention.ms"].(map[string]any); d["before"] != nil || d["after"] != "86400000" {
		t.Errorf("diff %v", diff)
	}

	if r := s.send(base+"apply", "dave", "application/yaml", yamlDoc, fp); r.status != 403 || r.errorTypes() != "INSUFFICIENT_ROLE:items[0] INSUFFICIENT_ROLE:items[1]" {
		t.Errorf("a viewer applies: %d %s", r.status, r.raw)
	}
	if r := s.send(base+"apply", "carol", "application/yaml", yamlDoc, ""); r.status != 400 || r.errorTypes() != "MISSING_PARAMETER:If-Match" {
		t.Errorf("apply without If-Match: %d %s", r.status, r.raw)
	}
	applied := s.send(base+"apply", "carol", "application/yaml", yamlDoc, `"`+fp+`"`)
	if applied.status != 200 || actions(applied) != "create edh-shared-scada-dev-api-orders applied, create edh-shared-scada-dev-api-orders-value applied" {
		t.Fatalf("apply: %d %s", applied.status, applied.raw)
	}
	if r := s.do("GET", base+"topic/api-orders", "carol", ""); r.status != 200 || r.body["partitions_count"] != 2.0 {
		t.Errorf("the topic after apply: %d %s", r.status, r.raw)
	}

	// Again, as JSON: nothing to do; the old fingerprint is stale.
	jsonDoc := `{"items": [
	  {"apiVersion": "portal/v1", "kind": "Topic", "metadata": {"name": "api-orders"}, "spec": {"partitions": 2, "config": {"retention.ms": "86400000"}}},
	  {"apiVersion": "portal/v1", "kind": "Schema", "metadata": {"name": "api-orders-value"}, "spec": {"schema": "{\"type\":\"record\",\"name\":\"Order\",\"fields\":[{\"name\":\"id\",\"type\":\"string\"}]}"}}]}`
	again := s.send(base+"plan", "carol", "application/json", jsonDoc, "")
	if again.status != 200 || actions(again) != "unchanged edh-shared-scada-dev-api-orders, unchanged edh-shared-scada-dev-api-orders-value" {
		t.Fatalf("second plan: %d %s", again.status, again.raw)
	}
	before := s.w.Snapshot(t)
	if r := s.send(base+"apply", "carol", "application/json", jsonDoc, fp); r.status != 409 || r.errorTypes() != "CONFLICT" {
		t.Errorf("a stale plan: %d %s", r.status, r.raw)
	}
	if r := s.send(base+"apply", "carol", "application/json", jsonDoc, again.body["fingerprint"].(string)); r.status != 200 || s.w.Snapshot(t) != before {
		t.Errorf("applying an unchanged plan: %d %s", r.status, r.raw)
	}
}

func TestDocumentErrors(t *testing.T) {
	s := newServer(t, nil)
	cases := []struct {
		contentType, body string
		status            int
		types             string
	}{
		{"text/plain", "x", 415, "UNSUPPORTED_MEDIA_TYPE"},
		{"application/yaml", "", 400, "MALFORMED_BODY"},
		{"application/yaml", "a: [", 400, "MALFORMED_BODY"},
		{"application/json", `{"items": [{"apiVersion": "v2", "kind": "Topik", "metadata": {}, "spec": {}, "extra": 1}]}`, 400,
			"INVALID_PARAMETER:items[0].apiVersion INVALID_PARAMETER:items[0].kind INVALID_PARAMETER:items[0].metadata.name INVALID_PARAMETER:items[0].extra"},
		{"application/yaml", "apiVersion: portal/v1\nkind: Topic\nmetadata: {name: x}\nspec: {partitions: many, colour: red}\n", 400,
			"INVALID_PARAMETER:items[0].spec.partitions INVALID_PARAMETER:items[0].spec.colour"},
	}
	before := s.w.Snapshot(t)
	for _, c := range cases {
		r := s.send("/api/v1/scada/dev/plan", "carol", c.contentType, c.body, "")
		if r.status != c.status || r.errorTypes() != c.types {
			t.Errorf("%s %q: %d %s, want %d %s", c.contentType, c.body, r.status, r.errorTypes(), c.status, c.types)
		}
	}
	r := s.send("/api/v1/scada/dev/plan", "carol", "application/yaml", "apiVersion: portal/v1\nkind: Topic\nmetadata: {name: x}\nspec: {partitions: many}\n", "")
	if msg := r.raw; !strings.Contains(msg, "line 4: partitions must be a whole number") {
		t.Errorf("the error does not name the line: %s", msg)
	}
	if s.w.Snapshot(t) != before {
		t.Error("a bad document changed something")
	}
}

func TestExportAndSchemas(t *testing.T) {
	s := newServer(t, nil)
	seeded := s.w.Seed(t, "scada", "dev")
	r := s.do("POST", "/api/v1/scada/dev/export", "dave", "")
	if r.status != 200 || !strings.Contains(r.raw, `"fromEnv": "SCADA_EXISTING_KAFKA_API_SECRET"`) || strings.Contains(r.raw, `"SECRET"`) || strings.Contains(r.raw, `"value"`) {
		t.Errorf("export: %d %s", r.status, r.raw)
	}
	if strings.Contains(r.raw, seeded.Topic) {
		t.Errorf("the export holds full names: %s", r.raw)
	}
	req := httptest.NewRequest("POST", "/api/v1/scada/dev/export?format=yaml", nil)
	req.Header.Set("Authorization", "Bearer dave")
	rec := httptest.NewRecorder()
	s.h.ServeHTTP(rec, req)
	if rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/yaml") || !strings.Contains(rec.Body.String(), "\n---\n") {
		t.Errorf("yaml export: %d %s", rec.Code, rec.Body.String())
	}
}
