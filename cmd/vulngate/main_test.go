package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// findings is govulncheck's JSON for three vulnerabilities: one called,
// one called but accepted, one whose package is only imported.
const findings = `{"osv":{"id":"GO-1","summary":"called"}}
{"osv":{"id":"GO-2","summary":"accepted"}}
{"osv":{"id":"GO-3","summary":"imported only"}}
{"finding":{"osv":"GO-1","fixed_version":"v1.2.0","trace":[{"module":"example.com/a","version":"v1.1.0","function":"Parse"},{"module":"x","function":"main"}]}}
{"finding":{"osv":"GO-2","trace":[{"module":"example.com/b","version":"v2.0.0","function":"Do"}]}}
{"finding":{"osv":"GO-3","fixed_version":"v3.1.0","trace":[{"module":"example.com/c","version":"v3.0.0","package":"example.com/c"}]}}
`

func TestGate(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	in := write("findings.json", findings)
	var out bytes.Buffer
	err := run(write("accepted", "# why\nGO-2 no fix; we bound its input\nGO-9 fixed long ago\n"), in, &out)
	if err == nil || !strings.Contains(err.Error(), "1 reachable vulnerabilities not accepted: GO-1") {
		t.Fatalf("a called vulnerability passed: %v\n%s", err, &out)
	}
	for _, want := range []string{"REACHABLE GO-1 example.com/a@v1.1.0 (fixed in v1.2.0): called", "accepted  GO-2", "because: no fix; we bound its input", "no longer found: GO-9"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, &out)
		}
	}
	if strings.Contains(out.String(), "GO-3") {
		t.Errorf("an imported-only vulnerability is reported:\n%s", &out)
	}
	out.Reset()
	if err := run(write("accepted2", "GO-1 a reason\nGO-2 another\n"), in, &out); err != nil {
		t.Errorf("every reached one accepted: %v", err)
	}
	if err := run(write("accepted3", "GO-1\n"), in, &out); err == nil || !strings.Contains(err.Error(), "no reason") {
		t.Errorf("an acceptance without a reason: %v", err)
	}
}
