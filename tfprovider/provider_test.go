package tfprovider

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/edh-platform/rms-portal/client"
	"github.com/edh-platform/rms-portal/internal/wire"
)

func TestSchemasCompareNormalised(t *testing.T) {
	a := `{"type": "record", "name": "Order",
	  "fields": [{"name": "id", "type": "string"}]}`
	b := `{"fields":[{"type":"string","name":"id"}],"name":"Order","type":"record"}`
	if normalSchema(a) != normalSchema(b) {
		t.Errorf("spacing and key order make another schema:\n%s\n%s", normalSchema(a), normalSchema(b))
	}
	if normalSchema(a) == normalSchema(strings.Replace(b, `"id"`, `"key"`, 1)) {
		t.Error("another field name is the same schema")
	}
	if normalSchema(`{"default": 1.10}`) == normalSchema(`{"default": 1.1}`) {
		t.Error("numbers are kept as written, not rounded through float64")
	}
	if normalSchema(" syntax = \"proto3\"; ") != `syntax = "proto3";` {
		t.Error("a text that is not JSON is kept (trimmed)")
	}
}

func TestDurationsCompareAsDurations(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{{"5m", "5m0s", true}, {"", "0s", true}, {"1h30m", "1h30m0s", true}, {"5m", "6m", false}, {"soon", "soon", true}, {"soon", "5m", false}} {
		if got := sameDuration(c.a, c.b); got != c.same {
			t.Errorf("sameDuration(%q, %q) = %v", c.a, c.b, got)
		}
	}
	for in, want := range map[string]string{"5m0s": "5m", "1h0m0s": "1h", "1h30m0s": "1h30m", "45s": "45s", "": ""} {
		if got := shortDuration(in); got != want {
			t.Errorf("shortDuration(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestRefusalsPointAtAttributes: each error of the record is a
// diagnostic at the attribute its field names (through the document's
// place, items[3].spec.partitions), else at the resource; a read-only
// stage's says how to ask.
func TestRefusalsPointAtAttributes(t *testing.T) {
	at := fieldMap(map[string]string{"partitions": "partitions", "partitions_count": "partitions"}, "config", "secrets=secret_config")
	err := &client.Error{ErrorRecord: wire.ErrorRecord{Code: 422, Errors: []wire.ErrorItem{
		{Type: "POLICY_VIOLATION", Field: "items[3].spec.partitions", Message: "at most 6"},
		{Type: "INVALID_PARAMETER", Field: "config.retention.ms", Message: "not a number"},
		{Type: "INVALID_PARAMETER", Field: "secrets.kafka.api.secret", Message: "missing"},
		{Type: "BUDGET_EXCEEDED", Field: "storage", Message: "over"},
		{Type: "READ_ONLY_ENVIRONMENT", Message: "run is read-only"},
	}}}
	var diags diag.Diagnostics
	(&base{}).refusal(&diags, "Planning", err, at)
	want := []struct {
		path string
		text string
	}{
		{path.Root("partitions").String(), "at most 6"},
		{path.Root("config").AtMapKey("retention.ms").String(), "not a number"},
		{path.Root("secret_config").AtMapKey("kafka.api.secret").String(), "missing"},
		{"", "over"},
		{"", "change_requests = true"},
	}
	if len(diags) != len(want) {
		t.Fatalf("%d diagnostics, want %d: %v", len(diags), len(want), diags)
	}
	for i, w := range want {
		d := diags[i]
		got := ""
		if p, ok := d.(diag.DiagnosticWithPath); ok {
			got = p.Path().String()
		}
		if got != w.path || !strings.Contains(d.Detail(), w.text) {
			t.Errorf("diagnostic %d at %q: %s / %s; want at %q saying %q", i, got, d.Summary(), d.Detail(), w.path, w.text)
		}
	}
	var outage diag.Diagnostics
	(&base{}).refusal(&outage, "Reading", fmt.Errorf("dial tcp: connection refused"), at)
	if len(outage) != 1 || !strings.Contains(outage[0].Detail(), "connection refused") {
		t.Errorf("an outage: %v", outage)
	}
}

// TestPlansJudgeWhatWasPlannedBefore: a unit's planned changes are
// planned together, the latest last, at most 500; another unit's apart.
func TestPlansJudgeWhatWasPlannedBefore(t *testing.T) {
	p := newPlannedDocs()
	item := func(name string, partitions int) wire.DocumentItem {
		return wire.DocumentItem{Kind: "Topic", Metadata: wire.DocumentMetadata{Name: name}, Spec: map[string]any{"partitions": partitions}}
	}
	p.with("scada", "dev", item("a", 1))
	p.with("scada", "dev", item("b", 1))
	p.with("crm", "dev", item("x", 1))
	doc, i := p.with("scada", "dev", item("a", 3))
	if i != 1 || len(doc.Items) != 2 || doc.Items[0].Metadata.Name != "b" || doc.Items[1].Spec["partitions"] != 3 {
		t.Fatalf("planned again, a change is the latest: %d %+v", i, doc.Items)
	}
	for n := range 600 {
		doc, i = p.with("scada", "dev", item(fmt.Sprint("t", n), 1))
	}
	if len(doc.Items) != maxDocument || i != maxDocument-1 || doc.Items[i].Metadata.Name != "t599" {
		t.Errorf("a long plan: %d items, the latest at %d (%s)", len(doc.Items), i, doc.Items[i].Metadata.Name)
	}
	if doc, _ := p.with("crm", "dev", item("y", 1)); len(doc.Items) != 2 {
		t.Errorf("another unit's plan holds %d items", len(doc.Items))
	}
}

// TestRateRefusalsAreWaitedOut: a 429 is asked again after its
// Retry-After, body and all; other refusals are answers.
func TestRateRefusalsAreWaitedOut(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if calls.Add(1) == 1 {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		if string(body) != `{"prune":false,"force":false,"items":[]}` {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"changes":[]}`))
	}))
	defer srv.Close()
	api := client.New(srv.URL, &http.Client{Transport: retryRate{base: http.DefaultTransport}})
	if _, _, err := api.PlanResources(context.Background(), "scada", "dev", wire.ResourceDocument{Items: []wire.DocumentItem{}}, nil); err != nil {
		t.Fatalf("after a 429: %v", err)
	}
	if n := calls.Load(); n != 2 {
		t.Errorf("%d calls, want 2", n)
	}
}
