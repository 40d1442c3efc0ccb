package main

import (
	"net/http"
	"strings"
	"testing"
)

// TestSchemaJourney: register an Avro schema, evolve it compatibly, have an
// incompatible change refused with a reason, list with and without
// latest_only.
func TestSchemaJourney(t *testing.T) {
	tp := sharedPortal(t)
	t.Parallel()
	base := "/api/v1/scada/qas"
	topic := "valves-" + suffix()
	subject := topic + "-value"
	tp.t.Cleanup(func() { tp.removeSubject(base, subject) })
	v1 := `{"type":"record","name":"Valve","namespace":"scada","fields":[{"name":"id","type":"string"}]}`
	r := tp.call("POST", base+"/schema", "carol", map[string]any{"topic": topic, "subject_type": "value", "schema_type": "AVRO", "schema": v1})
	if r.status != http.StatusCreated {
		t.Fatalf("create: %d %s", r.status, r.body)
	}
	s := r.json(t)
	if s["subject"] != "edh-shared-scada-qas-"+subject || s["version"] != 1.0 || s["schema_type"] != "AVRO" ||
		r.header.Get("Location") != base+"/schema/edh-shared-scada-qas-"+subject+"/1" {
		t.Fatalf("created %v at %s", s, r.header.Get("Location"))
	}
	wantError(t, tp.call("POST", base+"/schema", "carol", map[string]any{"topic": topic, "subject_type": "value", "schema_type": "AVRO", "schema": v1}),
		http.StatusConflict, "ALREADY_EXISTS")

	v2 := `{"type":"record","name":"Valve","namespace":"scada","fields":[{"name":"id","type":"string"},{"name":"open","type":"boolean","default":false}]}`
	check := tp.call("POST", base+"/schema/"+subject+"/compatibility", "dave", map[string]any{"schema": v2}).json(t)
	if check["compatible"] != true || check["compatibility_level"] != "BACKWARD" {
		t.Errorf("check v2: %v", check)
	}
	r = tp.call("PUT", base+"/schema/"+subject, "carol", map[string]any{"schema": v2})
	if r.status != 200 || r.json(t)["version"] != 2.0 {
		t.Fatalf("v2: %d %s", r.status, r.body)
	}
	v3 := `{"type":"record","name":"Valve","namespace":"scada","fields":[{"name":"id","type":"string"},{"name":"open","type":"boolean","default":false},{"name":"site","type":"string"}]}`
	rec := wantError(t, tp.call("PUT", base+"/schema/"+subject, "carol", map[string]any{"schema": v3}), http.StatusConflict, "INCOMPATIBLE_SCHEMA:schema")
	if msg := rec["errors"].([]any)[0].(map[string]any)["message"].(string); !strings.Contains(msg, "field site was added without a default") {
		t.Errorf("reason: %s", msg)
	}
	bad := tp.call("PUT", base+"/schema/"+subject, "carol", map[string]any{"schema": `{"type":"record","name":"Valve","fields":[{"name":"id","type":"strng"}]}`})
	wantError(t, bad, http.StatusBadRequest, "INVALID_PARAMETER:schema")
	wantError(t, tp.call("POST", base+"/schema", "carol", map[string]any{"topic": "v", "subject_type": "value", "schema_type": "PROTOBUF", "schema": "syntax = \"proto3\";"}),
		http.StatusBadRequest, "INVALID_PARAMETER:schema_type")

	latest := tp.call("GET", base+"/schemas?latest_only=true&search="+topic, "dave", nil).json(t)
	all := tp.call("GET", base+"/schemas?search="+topic, "dave", nil).json(t)
	if items := latest["items"].([]any); len(items) != 1 || items[0].(map[string]any)["version"] != 2.0 {
		t.Errorf("latest only: %v", items)
	}
	if items := all["items"].([]any); len(items) != 2 {
		t.Errorf("all versions: %v", items)
	}
	got := tp.call("GET", base+"/schema/"+subject+"/latest", "dave", nil).json(t)
	if got["version"] != 2.0 || !strings.Contains(got["schema"].(string), "open") {
		t.Errorf("latest: %v", got)
	}
	versions := tp.call("GET", base+"/schema/"+subject+"/versions", "dave", nil).json(t)
	if len(versions["items"].([]any)) != 2 {
		t.Errorf("versions %v", versions)
	}
	wantError(t, tp.call("DELETE", base+"/schema/"+subject+"/2?permanent=true", "carol", nil), http.StatusBadRequest, "INVALID_PARAMETER:permanent")
	if r := tp.call("DELETE", base+"/schema/"+subject+"/2", "carol", nil); r.status != 204 {
		t.Errorf("soft delete: %d %s", r.status, r.body)
	}
	if r := tp.call("DELETE", base+"/schema/"+subject+"/2?permanent=true", "carol", nil); r.status != 204 {
		t.Errorf("hard delete: %d %s", r.status, r.body)
	}
	wantError(t, tp.call("GET", base+"/schema/"+subject+"/2", "dave", nil), http.StatusNotFound, "NOT_FOUND:version")
	wantError(t, tp.call("GET", "/api/v1/crm/qas/schema/edh-shared-scada-qas-"+subject+"/1", "carol", nil), http.StatusNotFound, "NOT_FOUND")
}

func TestSeededSchemasAndConnectors(t *testing.T) {
	tp := sharedPortal(t)
	t.Parallel()
	for bu, want := range map[string]string{"scada": "edh-shared-scada-dev-sensor-readings-value", "crm": "edh-shared-crm-dev-orders-value", "sales": "sales-dev-leads-value"} {
		l := tp.call("GET", "/api/v1/"+bu+"/dev/schemas", "frank", nil).json(t)
		items := l["items"].([]any)
		if len(items) != 2 || items[0].(map[string]any)["subject"] != want {
			t.Errorf("%s schemas: %v", bu, items)
		}
		c := tp.call("GET", "/api/v1/"+bu+"/dev/connectors", "frank", nil).json(t)
		if len(c["items"].([]any)) != 1 {
			t.Errorf("%s connectors: %v", bu, c)
		}
	}
}
