package schemareg

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/schema"
	"github.com/edh-platform/rms-portal/internal/upstream"
)

// documentedCodes are the error codes of Schema Registry's
// rest/exceptions/Errors.java, the bare statuses older releases and
// Confluent Cloud's front answer with, and what each must give.
var documentedCodes = map[int]portal.Kind{
	40401: portal.NotFound, 40402: portal.NotFound, 40403: portal.NotFound, 40404: portal.NotFound,
	40405: portal.Conflict, 40406: portal.InvalidParameter, 40407: portal.InvalidParameter, 40408: portal.NotFound,
	40409: portal.NotFound, 40410: portal.NotFound,
	409: portal.IncompatibleSchema, 40901: portal.IncompatibleSchema, 40902: portal.Conflict, 40903: portal.Conflict,
	40904: portal.Conflict, 40905: portal.Conflict, 40907: portal.Conflict, 40908: portal.Conflict,
	422: portal.InvalidParameter, 42201: portal.InvalidParameter, 42202: portal.InvalidParameter,
	42203: portal.InvalidParameter, 42204: portal.InvalidParameter, 42205: portal.Conflict, 42206: portal.Conflict,
	42207: portal.Conflict, 42208: portal.InvalidParameter, 42209: portal.InvalidParameter,
	42210: portal.InvalidParameter, 42211: portal.Conflict, 42212: portal.InvalidParameter,
	42213: portal.InvalidParameter,
	401:   portal.UpstreamPermission, 40101: portal.UpstreamPermission, 403: portal.UpstreamPermission,
	40301: portal.UpstreamPermission, 429: portal.RateLimited, 42901: portal.RateLimited,
	50001: portal.UpstreamUnavailable, 50002: portal.UpstreamUnavailable, 50003: portal.UpstreamUnavailable,
	50004: portal.UpstreamUnavailable, 50005: portal.UpstreamUnavailable,
}

// TestEveryRegistryErrorIsClassified: a registry that answers each
// documented error code (with the HTTP status it goes with), several
// times in a row, through the adapter and the registry's breaker: each
// gives its kind, only the registry's own failures count toward its
// health, and none of a caller's opens the breaker. An incompatible
// schema (40901, what current releases answer) is a 409
// INCOMPATIBLE_SCHEMA on the schema; a 429's Retry-After is passed on.
func TestEveryRegistryErrorIsClassified(t *testing.T) {
	if len(documentedCodes) != len(registryErrors) {
		t.Errorf("%d documented codes, %d in the table", len(documentedCodes), len(registryErrors))
	}
	var code atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := int(code.Load())
		status := c
		for status >= 1000 {
			status /= 10
		}
		w.Header().Set("Content-Type", "application/vnd.schemaregistry.v1+json")
		if status == 429 {
			w.Header().Set("Retry-After", "7")
		}
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(map[string]any{"error_code": c, "message": "registry says " + strconv.Itoa(c)})
	}))
	defer srv.Close()
	for c, want := range documentedCodes {
		reg := upstream.NewRegistry(upstream.Options{Failures: 3, OpenFor: time.Hour})
		up := reg.Get(upstream.SchemaRegistry, "edh-shared/dev")
		r, err := New(Options{Name: "edh-shared/dev", URL: srv.URL, Timeout: 3 * time.Second, Upstream: up})
		if err != nil {
			t.Fatal(err)
		}
		code.Store(int64(c))
		for range 5 {
			var err error
			if c == 40901 || c == 409 {
				_, err = r.CheckCompatibility(context.Background(), "s-value", platform.SchemaDef{Type: schema.SchemaAvro, Schema: `"string"`})
			} else {
				_, err = r.ListSchemas(context.Background(), "s-", true)
			}
			var pe *portal.Error
			if !errors.As(err, &pe) || pe.Kind != want {
				t.Errorf("%d: %v, want %s", c, err, want)
				break
			}
			if outage := upstream.IsOutage(err); outage != (want == portal.UpstreamUnavailable) {
				t.Errorf("%d: outage %v", c, outage)
			}
			if c == 429 && pe.RetryAfter != 7*time.Second {
				t.Errorf("429: retry after %v", pe.RetryAfter)
			}
			if (c == 40901 || c == 42201) && pe.Field != "schema" {
				t.Errorf("%d: field %q", c, pe.Field)
			}
		}
		if h := up.Health(); (h.Circuit == "open") != (want == portal.UpstreamUnavailable) {
			t.Errorf("%d: the registry's circuit is %s", c, h.Circuit)
		}
		r.Close()
	}
	// Codes no release documents are read by their status.
	for c, want := range map[int]answer{40499: {kind: portal.NotFound}, 42299: {kind: portal.InvalidParameter},
		50099: {unwell: true}, 502: {unwell: true}, 400: {kind: portal.InvalidParameter}} {
		if got := answerFor(c); got != want {
			t.Errorf("%d: %+v, want %+v", c, got, want)
		}
	}
}

// TestASlowCallIsItsCallers: a registry that takes longer than the
// adapter's timeout to register a schema (a caller's huge one) gives that
// caller a 504, five times in a row, and its circuit stays closed: the
// registry answers everyone else at once. A cheap call that takes as long
// is a sign that the registry is unwell.
func TestASlowCallIsItsCallers(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost || r.URL.Query().Get("slow") != "" || r.URL.Path == "/config/slow-value" {
			select {
			case <-release:
			case <-r.Context().Done():
			}
			return
		}
		w.Header().Set("Content-Type", "application/vnd.schemaregistry.v1+json")
		_, _ = w.Write([]byte(`[]`))
	}))
	defer srv.Close()
	defer close(release)
	reg := upstream.NewRegistry(upstream.Options{Failures: 3, OpenFor: time.Hour})
	up := reg.Get(upstream.SchemaRegistry, "edh-shared/dev")
	r, err := New(Options{Name: "edh-shared/dev", URL: srv.URL, Timeout: 200 * time.Millisecond, Upstream: up})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for range 5 {
		_, err := r.Register(context.Background(), "huge-value", platform.SchemaDef{Type: schema.SchemaAvro, Schema: `"string"`})
		if !portal.Is(err, portal.UpstreamTimeout) || upstream.IsOutage(err) {
			t.Fatalf("a slow register: %v (outage %v)", err, upstream.IsOutage(err))
		}
	}
	if h := up.Health(); h.Circuit != "closed" || h.State == "failing" {
		t.Fatalf("after one caller's slow registers: %+v", h)
	}
	if _, err := r.ListSchemas(context.Background(), "other-", true); err != nil {
		t.Errorf("another caller: %v", err)
	}
	for range 3 {
		if _, err := r.Compatibility(context.Background(), "slow-value"); !upstream.IsOutage(err) {
			t.Fatalf("a cheap call out of time: %v", err)
		}
	}
	if h := up.Health(); h.Circuit != "open" {
		t.Errorf("after three cheap calls out of time: %+v", h)
	}
}
