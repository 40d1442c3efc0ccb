package auditfile

import (
	"encoding/csv"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
)

// TestCSVNeutralisesFormulas: cells a spreadsheet would run as formulas
// start with an apostrophe in the export; others are as they were.
func TestCSVNeutralisesFormulas(t *testing.T) {
	rec := httptest.NewRecorder()
	_, err := Audit(rec, "csv", func(emit func(trail.AuditEvent) error) error {
		return emit(trail.AuditEvent{ID: 1, Time: time.Unix(0, 0), Actor: "@carol", Action: portal.ActTopicCreate,
			Resource: `=HYPERLINK("http://evil.example","x")`, Outcome: "INVALID_PARAMETER", Detail: "+1", SourceIP: "-2",
			RequestID: "\tcmd", Changes: []trail.Change{{Field: "f", After: "v"}}})
	})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(strings.NewReader(rec.Body.String())).ReadAll()
	if err != nil || len(rows) != 2 {
		t.Fatalf("%v %q", err, rec.Body.String())
	}
	row := map[string]string{}
	for i, h := range rows[0] {
		row[h] = rows[1][i]
	}
	for col, want := range map[string]string{"actor": "'@carol", "resource": `'=HYPERLINK("http://evil.example","x")`, "detail": "'+1",
		"source_ip": "'-2", "request_id": "'\tcmd", "action": "topic.create", "changes": "f:  -> v"} {
		if row[col] != want {
			t.Errorf("%s: %q, want %q", col, row[col], want)
		}
	}
}
