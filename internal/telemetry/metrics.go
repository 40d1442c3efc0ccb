// Package telemetry is what operators see of the portal: Prometheus
// metrics (requests, upstream calls, caches, circuits, sessions, jobs,
// audit events, build, Go and process) and OpenTelemetry traces (a span per
// request, child spans per upstream and database call, W3C traceparent on
// outgoing requests). No label carries an unbounded value: routes are
// templates, upstreams and operations come from configuration and code,
// never a topic or user name.
package telemetry

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/edh-platform/rms-portal/internal/store"
	"github.com/edh-platform/rms-portal/internal/version"
)

// Metrics holds the portal's series.
type Metrics struct {
	Registry *prometheus.Registry

	requests *prometheus.HistogramVec
	upstream *prometheus.HistogramVec
	circuit  *prometheus.GaugeVec
	cache    *prometheus.CounterVec
	audit    *prometheus.CounterVec
	auditErr *prometheus.CounterVec
	gauges   *storeGauges
}

// Gauges are the values read from the store when Prometheus scrapes.
type Gauges interface {
	CountSessions(ctx context.Context, now time.Time) (int, error)
	CountJobs(ctx context.Context) (map[string]int, error)
	// CountExpiringKeys counts, by zone, unit and stage, the API keys
	// that expire before t.
	CountExpiringKeys(ctx context.Context, t time.Time) ([]store.KeyCount, error)
}

// NewMetrics registers every series; gauges are read from g at scrape time
// (at most every 5s).
func NewMetrics(g Gauges) *Metrics {
	r := prometheus.NewRegistry()
	m := &Metrics{Registry: r}
	m.requests = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "rms_http_request_duration_seconds", Help: "HTTP requests by route template, method and status.",
		Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
	}, []string{"route", "method", "status"})
	m.upstream = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "rms_upstream_call_duration_seconds", Help: "Calls to upstream services by upstream kind and name, operation and outcome (ok, refused, failed, timeout, circuit_open).",
		Buckets: []float64{.001, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
	}, []string{"upstream", "name", "operation", "outcome"})
	m.circuit = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "rms_upstream_circuit_state", Help: "Circuit breaker state per upstream: 0 closed, 1 half-open, 2 open.",
	}, []string{"upstream", "name"})
	m.cache = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "rms_cache_requests_total", Help: "Cache lookups by cache and result (hit, miss).",
	}, []string{"cache", "result"})
	m.audit = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "rms_audit_events_total", Help: "Audit events written, by outcome (ok, unknown, or the error type).",
	}, []string{"outcome"})
	m.auditErr = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "rms_audit_write_failures_total", Help: "Audit writes the database did not take, by phase: attempt (the change was refused), outcome (the attempt stays unknown until written), event (a refusal or read kept only in the log).",
	}, []string{"phase"})
	for _, phase := range []string{"attempt", "outcome", "event"} {
		m.auditErr.WithLabelValues(phase)
	}
	info := version.Get()
	build := prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "rms_build_info", Help: "The running build: always 1.",
	}, []string{"version", "commit", "date", "goversion"})
	build.WithLabelValues(info.Version, info.Commit, info.Date, info.GoVersion).Set(1)
	r.MustRegister(m.requests, m.upstream, m.circuit, m.cache, m.audit, m.auditErr, build,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if g != nil {
		m.gauges = &storeGauges{g: g}
		r.MustRegister(m.gauges)
	}
	return m
}

// KafkaConnects adds a cluster's connection attempts (successful or not)
// to the metrics, read from its client when scraped: a cluster that is
// down must not be retried more than a few times a second.
func (m *Metrics) KafkaConnects(cluster string, read func() uint64) {
	m.Registry.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name: "rms_kafka_connection_attempts_total", Help: "Connection attempts to a cluster's brokers, successful or not, as of the Kafka client's last statistics (every 5s).",
		ConstLabels: prometheus.Labels{"cluster": cluster},
	}, func() float64 { return float64(read()) }))
}

// Handler serves the metrics, optionally behind a bearer token or basic
// credentials.
func (m *Metrics) Handler(bearer, user, password string) http.Handler {
	return Protect(promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{}), bearer, user, password)
}

// Protect puts h behind a bearer token or basic credentials, when either
// is configured (the management port's endpoints).
func Protect(h http.Handler, bearer, user, password string) http.Handler {
	if bearer == "" && user == "" {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ok := false
		if bearer != "" && r.Header.Get("Authorization") == "Bearer "+bearer {
			ok = true
		}
		if u, p, has := r.BasicAuth(); has && user != "" && u == user && p == password {
			ok = true
		}
		if !ok {
			w.Header().Set("WWW-Authenticate", `Basic realm="metrics"`)
			http.Error(w, "the management endpoints need credentials", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// Request records one HTTP request. The method label takes the methods of
// HTTP's registry the portal meets, and "other" for anything a caller
// invents, so that no request can add series of its own.
func (m *Metrics) Request(route, method string, status int, took time.Duration) {
	if route == "" {
		route = "unmatched"
	}
	m.requests.WithLabelValues(route, knownMethod(method), strconv.Itoa(status)).Observe(took.Seconds())
}

func knownMethod(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete, http.MethodOptions:
		return m
	}
	return "other"
}

// Cache records a cache lookup.
func (m *Metrics) Cache(cache string, hit bool) {
	result := "miss"
	if hit {
		result = "hit"
	}
	m.cache.WithLabelValues(cache, result).Inc()
}

// Audit records an audit event written.
func (m *Metrics) Audit(outcome string) { m.audit.WithLabelValues(outcome).Inc() }

// AuditFailure records an audit write the database did not take.
func (m *Metrics) AuditFailure(phase string) { m.auditErr.WithLabelValues(phase).Inc() }

// storeGauges reads sessions and jobs from the store when scraped, at most
// every five seconds.
type storeGauges struct {
	g Gauges

	mu       sync.Mutex
	at       time.Time
	sessions int
	jobs     map[string]int
	expiring map[string]int
	// scopes are the zones' stages reported even with no key expiring,
	// so that an alert on the series is not blind to their absence.
	scopes []string
}

// ReportKeysFor reports zone and stage in rms_api_keys_expiring, with 0
// when none of their keys expires soon.
func (m *Metrics) ReportKeysFor(zone, stage string) {
	if m.gauges == nil {
		return
	}
	m.gauges.mu.Lock()
	defer m.gauges.mu.Unlock()
	m.gauges.scopes = append(m.gauges.scopes, zone+"/"+stage)
}

var (
	sessionsDesc = prometheus.NewDesc("rms_sessions_active", "Browser sessions alive (all replicas).", nil, nil)
	jobsDesc     = prometheus.NewDesc("rms_bulk_jobs", "Bulk jobs in the store by state (all replicas).", []string{"state"}, nil)
	keysDesc     = prometheus.NewDesc("rms_api_keys_expiring", "API keys that expire within 7 days, by landing zone and stage (all replicas).",
		[]string{"zone", "stage"}, nil)
)

func (s *storeGauges) Describe(ch chan<- *prometheus.Desc) {
	ch <- sessionsDesc
	ch <- jobsDesc
	ch <- keysDesc
}

func (s *storeGauges) Collect(ch chan<- prometheus.Metric) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if time.Since(s.at) > 5*time.Second {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if n, err := s.g.CountSessions(ctx, time.Now()); err == nil {
			s.sessions = n
		}
		if j, err := s.g.CountJobs(ctx); err == nil {
			s.jobs = j
		}
		if counts, err := s.g.CountExpiringKeys(ctx, time.Now().Add(7*24*time.Hour)); err == nil {
			s.expiring = map[string]int{}
			for _, scope := range s.scopes {
				s.expiring[scope] = 0
			}
			for _, c := range counts {
				s.expiring[c.Zone+"/"+c.Stage] += c.N
			}
		}
		s.at = time.Now()
	}
	ch <- prometheus.MustNewConstMetric(sessionsDesc, prometheus.GaugeValue, float64(s.sessions))
	for _, state := range []string{"running", "done", "failed"} {
		ch <- prometheus.MustNewConstMetric(jobsDesc, prometheus.GaugeValue, float64(s.jobs[state]), state)
	}
	for key, n := range s.expiring {
		zone, stage, _ := strings.Cut(key, "/")
		ch <- prometheus.MustNewConstMetric(keysDesc, prometheus.GaugeValue, float64(n), zone, stage)
	}
}
