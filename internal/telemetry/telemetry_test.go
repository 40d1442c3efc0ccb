package telemetry

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
	dto "github.com/prometheus/client_model/go"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/edh-platform/rms-portal/internal/upstream"
)

func newEcho(t *Telemetry) *echo.Echo {
	e := echo.New()
	e.Use(t.Middleware)
	e.GET("/api/v1/:bu/topics", func(c echo.Context) error { return c.JSON(http.StatusOK, map[string]string{"ok": "yes"}) })
	e.GET("/fail", func(c echo.Context) error { return errors.New("boom") })
	return e
}

func gather(t *testing.T, m *Metrics, name string) []*dto.Metric {
	t.Helper()
	fams, err := m.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fams {
		if f.GetName() == name {
			return f.GetMetric()
		}
	}
	return nil
}

func labels(m *dto.Metric) map[string]string {
	l := map[string]string{}
	for _, p := range m.GetLabel() {
		l[p.GetName()] = p.GetValue()
	}
	return l
}

// TestMiddlewareRecordsTemplatesAndSpans: requests are counted by route
// template (never the path), errors by their rendered status, unknown
// paths as "unmatched", and each request has a server span named by its
// route whose status marks a 5xx.
func TestMiddlewareRecordsTemplatesAndSpans(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	tel, err := New(context.Background(), nil, tp)
	if err != nil {
		t.Fatal(err)
	}
	e := newEcho(tel)
	for _, p := range []string{"/api/v1/scada/topics", "/api/v1/crm/topics", "/fail", "/nowhere/secret-topic"} {
		e.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", p, nil))
	}
	got := map[string]uint64{}
	for _, m := range gather(t, tel.Metrics, "rms_http_request_duration_seconds") {
		l := labels(m)
		got[l["route"]+" "+l["status"]] = m.GetHistogram().GetSampleCount()
	}
	want := map[string]uint64{"/api/v1/:bu/topics 200": 2, "/fail 500": 1, "unmatched 404": 1}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %d, want %d (all: %v)", k, got[k], v, got)
		}
	}
	if len(got) != len(want) {
		t.Errorf("series %v, want only %v", got, want)
	}
	spans := exp.GetSpans()
	if len(spans) != 4 || spans[0].Name != "GET /api/v1/:bu/topics" {
		t.Fatalf("spans %v", spans)
	}
	if spans[2].Status.Code.String() != "Error" {
		t.Errorf("the 500's span status is %v", spans[2].Status)
	}
}

// TestUpstreamObserver: calls are timed by upstream, operation and
// outcome, refusals are not errors on the span, and circuit states map to
// 0, 1 and 2.
func TestUpstreamObserver(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tel, err := New(context.Background(), nil, sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp)))
	if err != nil {
		t.Fatal(err)
	}
	_, done := tel.Start(context.Background(), upstream.Cluster, "edh-shared/dev", "create_topic")
	done(upstream.OK, nil)
	_, done = tel.Start(context.Background(), upstream.Cluster, "edh-shared/dev", "create_topic")
	done(upstream.Refused, errors.New("exists"))
	_, done = tel.Start(context.Background(), upstream.IAM, "cloud", "GET service-accounts")
	done(upstream.Timeout, errors.New("deadline"))
	counts := map[string]uint64{}
	for _, m := range gather(t, tel.Metrics, "rms_upstream_call_duration_seconds") {
		l := labels(m)
		counts[l["upstream"]+" "+l["operation"]+" "+l["outcome"]] = m.GetHistogram().GetSampleCount()
	}
	if counts["cluster create_topic ok"] != 1 || counts["cluster create_topic refused"] != 1 || counts["iam GET service-accounts timeout"] != 1 {
		t.Errorf("counts %v", counts)
	}
	for _, s := range exp.GetSpans() {
		if failed := s.Status.Code.String() == "Error"; failed != strings.HasPrefix(s.Name, "upstream iam") {
			t.Errorf("span %s status %v", s.Name, s.Status)
		}
	}
	tel.Circuit(upstream.Cluster, "edh-shared/dev", "open")
	tel.Circuit(upstream.IAM, "cloud", "half-open")
	states := map[string]float64{}
	for _, m := range gather(t, tel.Metrics, "rms_upstream_circuit_state") {
		states[labels(m)["upstream"]] = m.GetGauge().GetValue()
	}
	if states[upstream.Cluster] != 2 || states[upstream.IAM] != 1 {
		t.Errorf("circuit states %v", states)
	}
}

// BenchmarkMiddleware is the cost per request of metrics and tracing
// around a trivial handler: "bare" has neither, "metrics" is the default
// (traces off), "traced" records a span per request and exports it in
// batches to an exporter that drops it.
func BenchmarkMiddleware(b *testing.B) {
	bare := echo.New()
	bare.GET("/api/v1/:bu/topics", func(c echo.Context) error { return c.JSON(http.StatusOK, map[string]string{"ok": "yes"}) })
	metrics, _ := New(context.Background(), nil, nil)
	provider := sdktrace.NewTracerProvider(sdktrace.WithBatcher(tracetest.NewNoopExporter()))
	b.Cleanup(func() { _ = provider.Shutdown(context.Background()) })
	traced, _ := New(context.Background(), nil, provider)
	for _, c := range []struct {
		name string
		e    *echo.Echo
	}{{"bare", bare}, {"metrics", newEcho(metrics)}, {"traced", newEcho(traced)}} {
		b.Run(c.name, func(b *testing.B) {
			req := httptest.NewRequest("GET", "/api/v1/scada/topics", nil)
			b.ReportAllocs()
			for b.Loop() {
				c.e.ServeHTTP(httptest.NewRecorder(), req)
			}
		})
	}
}

// TestInventedMethodsAddNoSeries: anonymous requests with made-up methods
// share one "other" series instead of one each.
func TestInventedMethodsAddNoSeries(t *testing.T) {
	tel, err := New(context.Background(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	e := newEcho(tel)
	for i := range 300 {
		req := httptest.NewRequest("X"+strings.Repeat("Y", i%50)+string(rune('A'+i%26)), "/nowhere", nil)
		e.ServeHTTP(httptest.NewRecorder(), req)
	}
	e.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/api/v1/scada/topics", nil))
	methods := map[string]bool{}
	for _, m := range gather(t, tel.Metrics, "rms_http_request_duration_seconds") {
		for _, l := range m.GetLabel() {
			if l.GetName() == "method" {
				methods[l.GetValue()] = true
			}
		}
	}
	if len(methods) != 2 || !methods["other"] || !methods["GET"] {
		t.Errorf("method labels: %v", methods)
	}
}
