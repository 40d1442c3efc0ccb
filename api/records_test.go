package api_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestProduceRecords: the API writes text, JSON and schema values, answers
// each record's partition and offset, and refuses a bad record (with its
// field) or a value of the wrong JSON type without writing anything.
func TestProduceRecords(t *testing.T) {
	s := newServer(t, nil)
	sd := s.w.Seed(t, "scada", "dev")
	path := "/api/v1/scada/dev/topic/" + sd.Topic + "/records"
	r := s.do(http.MethodPost, path, "carol", `{"records": [
		{"key": "k1", "value": "hello", "headers": [{"key": "source", "value": "api-test"}]},
		{"value": null, "partition": 0}]}`)
	records, _ := r.body["records"].([]any)
	if r.status != http.StatusOK || r.body["written"] != float64(2) || len(records) != 2 || records[0].(map[string]any)["offset"] == nil {
		t.Fatalf("text: %d %s", r.status, r.raw)
	}
	r = s.do(http.MethodPost, path, "carol", `{"value_format": "schema", "version": "latest", "records": [{"value": {"a": "x"}}]}`)
	if r.status != http.StatusOK || r.body["schema_id"] == nil || r.body["written"] != float64(1) {
		t.Errorf("schema: %d %s", r.status, r.raw)
	}
	before := s.w.Snapshot(t)
	for body, want := range map[string]string{
		`{"records": [{"value": {"a": 1}}]}`:                                                     "INVALID_PARAMETER:records[0].value",
		`{"value_format": "schema", "records": [{"value": {"a": 1}}]}`:                           "INVALID_PARAMETER:records[0].value.a",
		`{"value_format": "json", "records": [{"value": "x"}, {"value": null, "partition": 9}]}`: "INVALID_PARAMETER:records[1].partition",
		`{"records": [{"valeu": "x"}]}`:                                                          "INVALID_PARAMETER:records[0].valeu",
		`{"records": [{"key": "k"}]}`:                                                            "MISSING_PARAMETER:records[0].value",
		`{"records": []}`:                                                                        "MISSING_PARAMETER:records",
	} {
		r := s.do(http.MethodPost, path, "carol", body)
		if r.status != http.StatusBadRequest || r.errorTypes() != want {
			t.Errorf("%s: %d %s, want 400 %s", body, r.status, r.errorTypes(), want)
		}
	}
	if r := s.do(http.MethodPost, path, "dave", `{"records": [{"value": "x"}]}`); r.status != http.StatusForbidden {
		t.Errorf("a Viewer: %d", r.status)
	}
	if after := s.w.Snapshot(t); after != before {
		t.Error("refused produces changed upstream")
	}
	if strings.Contains(r.raw, "hello") {
		t.Error("an answer repeats data")
	}
}
