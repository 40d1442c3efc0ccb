package telemetry

import (
	"context"
	"net/http"
	"os"
	"time"

	"github.com/labstack/echo/v4"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.26.0"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/edh-platform/rms-portal/internal/upstream"
	"github.com/edh-platform/rms-portal/internal/version"
)

// Telemetry is the metrics and the tracer of the process.
type Telemetry struct {
	Metrics  *Metrics
	Provider trace.TracerProvider
	tracer   trace.Tracer
	prop     propagation.TextMapPropagator
	shutdown func(context.Context) error
	tracing  bool
	// upstreams carries calls to upstreams when no other transport is
	// given (UpstreamTransport).
	upstreams *http.Transport
}

var _ upstream.Observer = (*Telemetry)(nil)

// New sets up metrics, and traces when the standard OpenTelemetry
// variables ask for them (OTEL_EXPORTER_OTLP_ENDPOINT or
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, with the exporter's other OTEL_*
// settings); tp, when given, replaces the provider (tests).
func New(ctx context.Context, g Gauges, tp trace.TracerProvider) (*Telemetry, error) {
	t := &Telemetry{Metrics: NewMetrics(g), prop: propagation.TraceContext{}, shutdown: func(context.Context) error { return nil },
		upstreams: UpstreamTransport()}
	switch {
	case tp != nil:
		t.Provider, t.tracing = tp, true
	case os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != "":
		exp, err := otlptracegrpc.New(ctx)
		if err != nil {
			return nil, err
		}
		res := resource.NewWithAttributes(semconv.SchemaURL, semconv.ServiceName("rms-portal"),
			semconv.ServiceVersion(version.Get().Version))
		sdk := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
		t.Provider, t.shutdown, t.tracing = sdk, sdk.Shutdown, true
	default:
		t.Provider = noop.NewTracerProvider()
	}
	t.tracer = t.Provider.Tracer("github.com/edh-platform/rms-portal")
	return t, nil
}

// Tracing reports whether spans are recorded (exported or kept by a test).
func (t *Telemetry) Tracing() bool { return t.tracing }

// Tracer is the portal's tracer, for the store's spans.
func (t *Telemetry) Tracer() trace.Tracer { return t.tracer }

// Shutdown flushes the spans not yet exported.
func (t *Telemetry) Shutdown(ctx context.Context) error { return t.shutdown(ctx) }

// Middleware opens a span per request (continuing the caller's trace from
// traceparent) named by the route template, and records the request's
// latency by route, method and status.
func (t *Telemetry) Middleware(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		start := time.Now()
		route := c.Path()
		ctx := t.prop.Extract(req.Context(), propagation.HeaderCarrier(req.Header))
		ctx, span := t.tracer.Start(ctx, req.Method+" "+route, trace.WithSpanKind(trace.SpanKindServer),
			trace.WithAttributes(attribute.String("http.route", route), attribute.String("http.request.method", req.Method)))
		defer span.End()
		c.SetRequest(req.WithContext(ctx))
		err := next(c)
		if err != nil {
			c.Error(err) // render now, so that the status is known
		}
		status := c.Response().Status
		span.SetAttributes(attribute.Int("http.response.status_code", status))
		if status >= 500 {
			span.SetStatus(codes.Error, http.StatusText(status))
		}
		t.Metrics.Request(route, req.Method, status, time.Since(start))
		return nil
	}
}

// Start opens a child span for an upstream call and times it
// (upstream.Observer).
func (t *Telemetry) Start(ctx context.Context, kind, name, op string) (context.Context, func(string, error)) {
	start := time.Now()
	ctx, span := t.tracer.Start(ctx, "upstream "+kind+" "+op, trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(attribute.String("rms.upstream", kind), attribute.String("rms.upstream.name", name),
			attribute.String("rms.operation", op)))
	return ctx, func(outcome string, err error) {
		t.Metrics.upstream.WithLabelValues(kind, name, op, outcome).Observe(time.Since(start).Seconds())
		span.SetAttributes(attribute.String("rms.outcome", outcome))
		if err != nil && outcome != upstream.Refused {
			span.RecordError(err)
			span.SetStatus(codes.Error, outcome)
		}
		span.End()
	}
}

// Circuit records a circuit's state (upstream.Observer).
func (t *Telemetry) Circuit(kind, name, state string) {
	v := map[string]float64{"closed": 0, "half-open": 1, "open": 2}[state]
	t.Metrics.circuit.WithLabelValues(kind, name).Set(v)
}

// Transport propagates the trace (W3C traceparent) on outgoing requests
// and opens a client span for each.
func (t *Telemetry) Transport(base http.RoundTripper) http.RoundTripper {
	if base == nil {
		base = t.upstreams
	}
	return otelhttp.NewTransport(base, otelhttp.WithTracerProvider(t.Provider), otelhttp.WithPropagators(t.prop))
}

// UpstreamTransport is the transport of calls to upstreams (Confluent
// Cloud's APIs, the schema registry, the identity provider). Go's default
// keeps 2 idle connections a host: past 2 calls at once (each unit's
// share of an upstream is 4), every call closed its connection when it
// ended and the next one opened another, with a TLS handshake against
// Confluent Cloud, so one unit's calls at once made every unit's calls
// slower. It keeps up to 64 a host.
func UpstreamTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 64
	t.MaxIdleConns = 256
	return t
}

// Span opens a span for a piece of the portal's own work (a database call).
func (t *Telemetry) Span(ctx context.Context, name string) (context.Context, func()) {
	ctx, span := t.tracer.Start(ctx, name)
	return ctx, func() { span.End() }
}
