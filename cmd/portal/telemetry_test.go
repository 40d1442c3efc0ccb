package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.yaml.in/yaml/v3"

	"github.com/edh-platform/rms-portal/internal/config"
	"github.com/edh-platform/rms-portal/internal/version"
)

// scrape reads /metrics (at url) into metric families.
func scrape(t testing.TB, url string, header ...string) map[string]*dto.MetricFamily {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d", url, resp.StatusCode)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return fams
}

// series finds the metric of a family with exactly these labels (a subset
// match); nil when absent.
func series(fams map[string]*dto.MetricFamily, name string, labels map[string]string) *dto.Metric {
	f := fams[name]
	if f == nil {
		return nil
	}
next:
	for _, m := range f.GetMetric() {
		have := map[string]string{}
		for _, l := range m.GetLabel() {
			have[l.GetName()] = l.GetValue()
		}
		for k, v := range labels {
			if have[k] != v {
				continue next
			}
		}
		return m
	}
	return nil
}

// count is a histogram's sample count, or a counter's or gauge's value;
// 0 when the series is absent.
func count(fams map[string]*dto.MetricFamily, name string, labels map[string]string) float64 {
	m := series(fams, name, labels)
	switch {
	case m == nil:
		return 0
	case m.Histogram != nil:
		return float64(m.Histogram.GetSampleCount())
	case m.Counter != nil:
		return m.Counter.GetValue()
	case m.Gauge != nil:
		return m.Gauge.GetValue()
	}
	return 0
}

// TestMetricsAfterRequests drives a fresh portal and checks what /metrics
// says about it: request latency by route template and status, upstream
// calls by operation and outcome, cache lookups, audit events, build
// information, sessions, jobs, Go and process series, and no label
// carrying a topic or user name.
func TestMetricsAfterRequests(t *testing.T) {
	tp := startPortal(t, nil)
	before := scrape(t, tp.url+"/metrics")

	for range 2 {
		if r := tp.call("GET", "/api/v1/version", "", nil); r.status != http.StatusOK {
			t.Fatalf("version: %d", r.status)
		}
	}
	for range 3 {
		if r := tp.call("GET", "/api/v1/scada/dev/topics", "dave", nil); r.status != http.StatusOK {
			t.Fatalf("list: %d %s", r.status, r.body)
		}
	}
	wantError(t, tp.call("GET", "/api/v1/no-such-unit/dev/topics", "dave", nil), http.StatusNotFound, "NOT_FOUND:bu")
	topic := "metrics-probe-" + suffix()
	tp.removeAfter("/api/v1/scada/dev/topic/" + topic)
	if r := tp.call("POST", "/api/v1/scada/dev/topic", "bob", map[string]any{"name": topic}); r.status != http.StatusCreated {
		t.Fatalf("create: %d %s", r.status, r.body)
	}
	after := scrape(t, tp.url+"/metrics")

	delta := func(name string, labels map[string]string) float64 {
		return count(after, name, labels) - count(before, name, labels)
	}
	const req = "rms_http_request_duration_seconds"
	for _, c := range []struct {
		route, method, status string
		want                  float64
	}{
		{"/api/v1/version", "GET", "200", 2},
		{"/api/v1/:bu/:stage/topics", "GET", "200", 3},
		{"/api/v1/:bu/:stage/topics", "GET", "404", 1},
		{"/api/v1/:bu/:stage/topic", "POST", "201", 1},
	} {
		if got := delta(req, map[string]string{"route": c.route, "method": c.method, "status": c.status}); got != c.want {
			t.Errorf("%s %s %s: %v requests counted, want %v", c.method, c.route, c.status, got, c.want)
		}
	}
	if m := series(after, req, map[string]string{"route": "/api/v1/:bu/:stage/topics", "status": "200"}); m == nil || len(m.Histogram.GetBucket()) < 10 {
		t.Errorf("the list route has no latency histogram: %v", m)
	}

	const up = "rms_upstream_call_duration_seconds"
	if got := delta(up, map[string]string{"upstream": "cluster", "operation": "create_topic", "outcome": "ok"}); got != 1 {
		t.Errorf("create_topic calls: %v, want 1", got)
	}
	// Three lists: the list is kept warm in the background (and the
	// create patched it), so they are cache hits; a miss is only possible
	// for a list that came before the first background fetch.
	hits := delta("rms_cache_requests_total", map[string]string{"cache": "topics", "result": "hit"})
	misses := delta("rms_cache_requests_total", map[string]string{"cache": "topics", "result": "miss"})
	if hits+misses < 3 || hits < 2 {
		t.Errorf("cache hits %v, misses %v", hits, misses)
	}
	if got := delta("rms_audit_events_total", map[string]string{"outcome": "ok"}); got < 1 {
		t.Errorf("audit events written: %v", got)
	}

	v := version.Get()
	if m := series(after, "rms_build_info", map[string]string{"version": v.Version, "commit": v.Commit}); m == nil || m.Gauge.GetValue() != 1 {
		t.Errorf("build info: %v", after["rms_build_info"])
	}
	for _, name := range []string{"rms_sessions_active", "rms_bulk_jobs", "rms_upstream_circuit_state",
		"go_goroutines", "go_memstats_alloc_bytes", "process_cpu_seconds_total", "process_resident_memory_bytes"} {
		if after[name] == nil {
			t.Errorf("no %s series", name)
		}
	}
	if got := count(after, "rms_upstream_circuit_state", map[string]string{"upstream": "cluster", "name": "edh-shared/dev"}); got != 0 {
		t.Errorf("cluster circuit state %v, want 0 (closed)", got)
	}

	// No label value is a topic, a user or a raw path.
	for name, f := range after {
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if v := l.GetValue(); strings.Contains(v, "metrics-probe") || strings.Contains(v, "dave") || strings.Contains(v, "bob") || strings.Contains(v, "no-such-unit") {
					t.Errorf("%s{%s=%q} carries a request's value", name, l.GetName(), v)
				}
			}
		}
	}
}

// TestMetricsProtectedAndOnTheirOwnPort: a configured bearer token or basic
// credential guards /metrics (a user's token does not open it), and
// metrics.listen moves the endpoint off the main port; metrics.profiling
// serves Go's profiles there, behind the same credentials, never on the
// main port.
func TestMetricsProtectedAndOnTheirOwnPort(t *testing.T) {
	tp := startPortal(t, func(c *config.Config) {
		c.Metrics = config.Metrics{Listen: "127.0.0.1:0", BearerToken: "scrape-" + suffix(), Username: "prom", Password: "pw-" + suffix(), Profiling: true}
	})
	if r := tp.call("GET", "/metrics", "", nil); r.status != http.StatusNotFound {
		t.Errorf("/metrics on the main port: %d, want 404", r.status)
	}
	addr := tp.app.metricsAddr()
	if addr == "" {
		t.Fatal("the metrics port is not listening")
	}
	url := "http://" + addr + "/metrics"
	m := tp.app.cfg.Metrics
	for _, c := range []struct {
		name   string
		header []string
		want   int
	}{
		{"no credential", nil, http.StatusUnauthorized},
		{"a user's token", []string{"Authorization", "Bearer " + tp.token("dave")}, http.StatusUnauthorized},
		{"wrong password", []string{"Authorization", basic(m.Username, "nope")}, http.StatusUnauthorized},
		{"bearer", []string{"Authorization", "Bearer " + m.BearerToken}, http.StatusOK},
		{"basic", []string{"Authorization", basic(m.Username, m.Password)}, http.StatusOK},
		{"profile, no credential", []string{"path", "/debug/pprof/heap"}, http.StatusUnauthorized},
		{"profile, a user's token", []string{"path", "/debug/pprof/heap", "Authorization", "Bearer " + tp.token("dave")}, http.StatusUnauthorized},
		{"profile", []string{"path", "/debug/pprof/heap", "Authorization", "Bearer " + m.BearerToken}, http.StatusOK},
	} {
		target := url
		if len(c.header) > 1 && c.header[0] == "path" {
			target, c.header = "http://"+addr+c.header[1], c.header[2:]
		}
		req, _ := http.NewRequest("GET", target, nil)
		for i := 0; i+1 < len(c.header); i += 2 {
			req.Header.Set(c.header[i], c.header[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.want {
			t.Errorf("%s: %d, want %d", c.name, resp.StatusCode, c.want)
		}
	}
	fams := scrape(t, url, "Authorization", "Bearer "+m.BearerToken)
	if fams["rms_build_info"] == nil {
		t.Error("the metrics port serves no build info")
	}
	if r := tp.call("GET", "/debug/pprof/heap", "", nil); r.status != http.StatusNotFound {
		t.Errorf("a profile on the main port: %d, want 404", r.status)
	}
}

func basic(user, password string) string {
	req, _ := http.NewRequest("GET", "/", nil)
	req.SetBasicAuth(user, password)
	return req.Header.Get("Authorization")
}

// TestVersionWithoutAToken: the version endpoint needs no token and says
// the same as the build and the page footer.
func TestVersionWithoutAToken(t *testing.T) {
	tp := sharedPortal(t)
	r := tp.call("GET", "/api/v1/version", "", nil)
	if r.status != http.StatusOK {
		t.Fatalf("version: %d %s", r.status, r.body)
	}
	got := r.json(t)
	v := version.Get()
	if got["version"] != v.Version || got["commit"] != v.Commit || got["go_version"] != v.GoVersion {
		t.Errorf("version %v, want %+v", got, v)
	}
	w := tp.webClient(t)
	w.signIn("dave")
	page := w.get("/")
	if !strings.Contains(page.body, `id="version"`) || !strings.Contains(page.body, v.Version) {
		t.Errorf("the footer does not show version %s", v.Version)
	}
}

// TestTraceOfOneAPICall checks the span tree of one API call: the
// request's span continues the caller's trace (traceparent), an upstream
// span for the IAM call sits below it, the outgoing HTTP request carries
// traceparent (the Cloud stand-in's own server span is its child), and
// the audit write has its database span.
func TestTraceOfOneAPICall(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	provider := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	t.Cleanup(func() { _ = provider.Shutdown(t.Context()) })
	tp := startPortalWith(t, nil, hooks{tracerProvider: provider})

	const traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
	name := "trace-" + suffix()
	r := tp.call("POST", "/api/v1/scada/dev/service-account", "bob", map[string]string{"name": name, "type": "producer"},
		"traceparent", "00-"+traceID+"-00f067aa0ba902b7-01")
	if r.status != http.StatusCreated {
		t.Fatalf("create: %d %s", r.status, r.body)
	}

	spans := exp.GetSpans()
	byID := map[string]tracetest.SpanStub{}
	var root *tracetest.SpanStub
	for i, s := range spans {
		if s.SpanContext.TraceID().String() != traceID {
			continue
		}
		byID[s.SpanContext.SpanID().String()] = s
		if s.Name == "POST /api/v1/:bu/:stage/service-account" {
			root = &spans[i]
		}
	}
	if root == nil {
		t.Fatalf("no request span in the caller's trace; spans: %v", spanNames(spans))
	}
	if root.Parent.SpanID().String() != "00f067aa0ba902b7" {
		t.Errorf("the request span's parent is %s, not the caller's span", root.Parent.SpanID())
	}
	// path walks from a span up to the request's span.
	path := func(s tracetest.SpanStub) []string {
		var names []string
		for {
			names = append(names, s.Name)
			p, ok := byID[s.Parent.SpanID().String()]
			if !ok || s.SpanContext.SpanID() == root.SpanContext.SpanID() {
				return names
			}
			s = p
		}
	}
	var upstreamCall, outgoing, standIn, dbWrite bool
	for _, s := range byID {
		chain := strings.Join(path(s), " < ")
		switch {
		case strings.HasPrefix(s.Name, "upstream iam POST service-accounts") && strings.HasSuffix(chain, root.Name):
			upstreamCall = true
		case strings.HasPrefix(s.Name, "GET /dev/cloud") || strings.HasPrefix(s.Name, "POST /dev/cloud"):
			// The stand-in's server span is below the portal's HTTP client
			// span, below the upstream span, below the request.
			if strings.Contains(chain, "upstream iam") && strings.HasSuffix(chain, root.Name) {
				standIn = true
			}
		case strings.HasPrefix(s.Name, "HTTP ") && strings.Contains(chain, "upstream iam"):
			outgoing = true
		case strings.HasPrefix(s.Name, "db ") && strings.HasSuffix(chain, root.Name):
			dbWrite = true
		}
	}
	if !upstreamCall || !outgoing || !standIn || !dbWrite {
		var b bytes.Buffer
		for _, s := range byID {
			b.WriteString(strings.Join(path(s), " < ") + "\n")
		}
		t.Errorf("upstream span %v, outgoing HTTP span %v, traceparent reached the stand-in %v, database span %v; tree:\n%s",
			upstreamCall, outgoing, standIn, dbWrite, b.String())
	}
}

func spanNames(spans tracetest.SpanStubs) []string {
	var n []string
	for _, s := range spans {
		n = append(n, s.Name)
	}
	return n
}

// metricRef finds series names in PromQL; label matchers follow in braces.
var (
	metricRef    = regexp.MustCompile(`\b((?:rms|go|process)_[a-zA-Z0-9_]+)(\{[^}]*\})?`)
	byClause     = regexp.MustCompile(`\bby\s*\(([^)]*)\)`)
	labelMatcher = regexp.MustCompile(`([a-zA-Z_][a-zA-Z0-9_]*)\s*(?:=~|!~|!=|=)\s*"`)
)

// TestAlertsAndDashboardUseExportedSeries checks every expression of the
// alert rules and the Grafana dashboard against a scrape: each series name
// (less a histogram's _bucket, _count or _sum) is exported, and each label
// it matches on exists on that series.
func TestAlertsAndDashboardUseExportedSeries(t *testing.T) {
	tp := sharedPortal(t)
	tp.call("GET", "/api/v1/version", "", nil)
	tp.call("GET", "/api/v1/scada/dev/topics", "dave", nil)
	fams := scrape(t, tp.url+"/metrics")

	var exprs []string
	var rules struct {
		Groups []struct {
			Rules []struct{ Alert, Expr string }
		}
	}
	data, err := os.ReadFile("../../deploy/helm/portal/files/alerts.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, &rules); err != nil {
		t.Fatal(err)
	}
	for _, g := range rules.Groups {
		for _, r := range g.Rules {
			exprs = append(exprs, r.Expr)
		}
	}
	var dash struct {
		Panels []struct {
			Title   string
			Targets []struct{ Expr string }
		}
	}
	data, err = os.ReadFile("../../deploy/helm/portal/files/dashboard.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &dash); err != nil {
		t.Fatal(err)
	}
	for _, p := range dash.Panels {
		for _, tg := range p.Targets {
			exprs = append(exprs, tg.Expr)
		}
	}
	if len(exprs) < 15 {
		t.Fatalf("only %d expressions found", len(exprs))
	}

	// The operator's guide lists exactly the portal's own series.
	data, err = os.ReadFile("../../docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]bool{}
	for _, m := range regexp.MustCompile("`(rms_[a-z_]+)`").FindAllStringSubmatch(string(data), -1) {
		documented[m[1]] = true
		if fams[m[1]] == nil {
			t.Errorf("docs/operations.md lists %s, which is not exported", m[1])
		}
	}
	for name := range fams {
		if strings.HasPrefix(name, "rms_") && !documented[name] {
			t.Errorf("%s is exported but not in docs/operations.md", name)
		}
	}
	for _, e := range exprs {
		refs := metricRef.FindAllStringSubmatch(e, -1)
		if len(refs) == 0 {
			t.Errorf("%q uses none of the portal's series", e)
		}
		known := map[string]bool{"job": true, "instance": true, "namespace": true, "le": true}
		for _, m := range refs {
			name := m[1]
			f := fams[name]
			if f == nil {
				for _, sfx := range []string{"_bucket", "_count", "_sum"} {
					if base, ok := strings.CutSuffix(name, sfx); ok && fams[base] != nil && fams[base].GetType() == dto.MetricType_HISTOGRAM {
						f = fams[base]
					}
				}
			}
			if f == nil {
				t.Errorf("%q: %s is not exported", e, name)
				continue
			}
			labels := map[string]bool{"job": true, "instance": true, "namespace": true, "le": true}
			for _, m := range f.GetMetric() {
				for _, l := range m.GetLabel() {
					labels[l.GetName()], known[l.GetName()] = true, true
				}
			}
			for _, matcher := range labelMatcher.FindAllStringSubmatch(m[2], -1) {
				if !labels[matcher[1]] {
					t.Errorf("%q: %s has no label %s", e, name, matcher[1])
				}
			}
		}
		for _, by := range byClause.FindAllStringSubmatch(e, -1) {
			for _, l := range strings.Split(by[1], ",") {
				if l = strings.TrimSpace(l); !known[l] {
					t.Errorf("%q groups by %s, which none of its series has", e, l)
				}
			}
		}
	}
}

// TestResponsesCompressed: API answers and pages over 1 KiB are gzipped
// for clients that accept it (and plain for those that do not), small
// answers are left alone, and pages link fingerprinted static files that
// are cached as immutable and come brotli-compressed.
func TestResponsesCompressed(t *testing.T) {
	tp := sharedPortal(t)
	r := tp.call("GET", "/api-docs/openapi.json", "", nil, "Accept-Encoding", "gzip")
	if r.status != http.StatusOK || r.header.Get("Content-Encoding") != "gzip" || !strings.Contains(r.header.Get("Vary"), "Accept-Encoding") {
		t.Fatalf("openapi.json: %d, encoding %q, vary %q", r.status, r.header.Get("Content-Encoding"), r.header.Get("Vary"))
	}
	zr, err := gzip.NewReader(bytes.NewReader(r.body))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.NewDecoder(zr).Decode(&doc); err != nil || doc["paths"] == nil {
		t.Errorf("the gzipped document does not decode: %v", err)
	}
	plain := tp.call("GET", "/api-docs/openapi.json", "", nil, "Accept-Encoding", "identity")
	if plain.header.Get("Content-Encoding") != "" || plain.json(t)["paths"] == nil || len(r.body)*3 > len(plain.body) {
		t.Errorf("identity: encoding %q, %d bytes plain, %d gzipped", plain.header.Get("Content-Encoding"), len(plain.body), len(r.body))
	}
	if r := tp.call("GET", "/api/v1/version", "", nil, "Accept-Encoding", "gzip"); r.header.Get("Content-Encoding") != "" || r.json(t)["version"] == nil {
		t.Errorf("a small answer is compressed: %q", r.header.Get("Content-Encoding"))
	}

	w := tp.webClient(t)
	w.signIn("dave")
	page := w.get("/")
	css := regexp.MustCompile(`href="(/static/css/app\.css\?v=[0-9a-f]+)"`).FindStringSubmatch(page.body)
	if css == nil {
		t.Fatalf("the page links no fingerprinted stylesheet")
	}
	r = tp.call("GET", strings.ReplaceAll(css[1], "&amp;", "&"), "", nil, "Accept-Encoding", "gzip, br")
	if r.status != http.StatusOK || r.header.Get("Content-Encoding") != "br" || r.header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
		t.Errorf("stylesheet: %d, encoding %q, cache %q", r.status, r.header.Get("Content-Encoding"), r.header.Get("Cache-Control"))
	}
}
