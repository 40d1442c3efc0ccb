// Package auditfile writes the audit trail as files (CSV, JSON), for both
// front doors: the API's export and the admin page's download links.
package auditfile

import (
	"encoding/csv"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
)

// Formats are the export formats.
var Formats = []string{"csv", "json"}

// header names the columns of a CSV export.
var header = []string{"id", "time", "actor", "actor_role", "service", "landing_zone", "business_unit", "stage",
	"action", "resource", "outcome", "detail", "changes", "source_ip", "request_id", "door"}

// Audit streams the events run gives as a download in format (csv or
// json). The status is sent with the first event, so that an error
// before it (a refusal) is returned for the door to render as usual; an
// error after it cuts the download short and is returned too, with
// started true.
func Audit(w http.ResponseWriter, format string, run func(emit func(trail.AuditEvent) error) error) (started bool, err error) {
	if format != "csv" && format != "json" {
		return false, portal.Invalid("format", "must be csv or json, not %q", format)
	}
	name := "audit-" + time.Now().UTC().Format("20060102T150405Z") + "." + format
	start := func() {
		if started {
			return
		}
		ct := "text/csv; charset=utf-8"
		if format == "json" {
			ct = "application/json"
		}
		w.Header().Set("Content-Type", ct)
		w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
		// The trail names people and what they did: no cache keeps it.
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusOK)
		started = true
	}
	if format == "csv" {
		cw := csv.NewWriter(w)
		err = run(func(e trail.AuditEvent) error {
			if !started {
				start()
				_ = cw.Write(header)
			}
			var changes []string
			for _, ch := range e.Changes {
				changes = append(changes, ch.Field+": "+ch.Before+" -> "+ch.After)
			}
			row := []string{strconv.FormatInt(e.ID, 10), e.Time.UTC().Format(time.RFC3339Nano), e.Actor, e.ActorRole,
				strconv.FormatBool(e.Service), e.LandingZone, e.BU, e.Stage, e.Action.String(), e.Resource, e.Outcome, e.Detail,
				strings.Join(changes, "; "), e.SourceIP, e.RequestID, e.Door}
			for i := range row {
				row[i] = CSVCell(row[i])
			}
			return cw.Write(row)
		})
		if err == nil && !started {
			start()
			_ = cw.Write(header)
		}
		cw.Flush()
		return started, err
	}
	enc := json.NewEncoder(w)
	n := 0
	err = run(func(e trail.AuditEvent) error {
		start()
		sep := ",\n"
		if n == 0 {
			sep = "[\n"
		}
		n++
		if _, err := w.Write([]byte(sep)); err != nil {
			return err
		}
		return enc.Encode(e)
	})
	if err == nil {
		start()
		if n == 0 {
			_, _ = w.Write([]byte("["))
		}
		_, _ = w.Write([]byte("]\n"))
	}
	return started, err
}

// CSVCell keeps a spreadsheet from reading a cell as a formula: a value
// that starts with =, +, -, @, a tab or a carriage return gets a leading
// apostrophe, as OWASP's CSV injection advice says. Names and messages in
// the trail come from callers, and a trail is opened by auditors.
func CSVCell(v string) string {
	if v != "" && strings.ContainsRune("=+-@\t\r", rune(v[0])) {
		return "'" + v
	}
	return v
}
