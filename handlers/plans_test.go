package handlers_test

import (
	"strings"
	"testing"
)

func TestExportAsCodeDownloadsTheUnit(t *testing.T) {
	s := newSite(t)
	s.w.Seed(t, "scada", "dev")
	list := s.do("GET", "/scada/dev/topics", "dave", nil)
	if !strings.Contains(list.body, `id="export-code" href="/scada/dev/export" download`) {
		t.Errorf("the topic list offers no export")
	}
	p := s.do("GET", "/scada/dev/export", "dave", nil)
	if p.status != 200 || p.header.Get("Content-Disposition") != `attachment; filename="scada-dev.yaml"` ||
		!strings.Contains(p.body, "kind: Topic\nmetadata:\n  name: existing\n") || !strings.Contains(p.body, "fromEnv: SCADA_EXISTING_KAFKA_API_SECRET") {
		t.Errorf("export: %d %v\n%s", p.status, p.header, p.body)
	}
	if strings.Contains(p.body, ": SECRET\n") || strings.Contains(p.body, "value:") {
		t.Errorf("the export holds a secret:\n%s", p.body)
	}
	if p := s.do("GET", "/scada/dev/export", "erin", nil); p.status != 404 {
		t.Errorf("a user without a role in scada: %d", p.status)
	}
}
