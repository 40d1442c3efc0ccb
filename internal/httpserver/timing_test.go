package httpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/upstream"
)

// TestServerTimingSplitsTheAnswersTime: an answer says how long the
// portal worked on it and how long it waited on upstream calls, and its
// log line has the wait; an answer that called no upstream says 0.
func TestServerTimingSplitsTheAnswersTime(t *testing.T) {
	var logs bytes.Buffer
	e := New(Options{Logger: slog.New(slog.NewJSONHandler(&logs, nil)), MaxBodyBytes: 1024,
		IsAPI: func(string) bool { return true }, APIErrors: func(c echo.Context, err error) error { return c.NoContent(http.StatusInternalServerError) }})
	u := upstream.NewRegistry(upstream.Options{}).Get(upstream.Cluster, "timing-"+t.Name())
	e.GET("/slow-upstream", func(c echo.Context) error {
		err := u.Call(c.Request().Context(), "list_topics", func(context.Context) error {
			// The cluster takes 30 ms to answer.
			<-time.After(30 * time.Millisecond)
			return nil
		})
		if err != nil {
			return err
		}
		return c.String(http.StatusOK, "ok")
	})
	e.GET("/own", func(c echo.Context) error { return c.String(http.StatusOK, "ok") })

	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/slow-upstream", nil))
	app, up := timing(t, rec.Header().Get(ServerTiming))
	if rec.Code != http.StatusOK || up < 30 || app >= up {
		t.Fatalf("%d, Server-Timing %q", rec.Code, rec.Header().Get(ServerTiming))
	}
	var line struct {
		UpstreamMS    float64 `json:"upstream_ms"`
		UpstreamCalls int     `json:"upstream_calls"`
	}
	if err := json.Unmarshal(bytes.TrimSpace(logs.Bytes()), &line); err != nil || line.UpstreamMS < 30 || line.UpstreamCalls != 1 {
		t.Fatalf("log line %s (%v)", logs.String(), err)
	}

	logs.Reset()
	rec = httptest.NewRecorder()
	e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/own", nil))
	if _, up := timing(t, rec.Header().Get(ServerTiming)); up != 0 {
		t.Fatalf("no upstream call: Server-Timing %q", rec.Header().Get(ServerTiming))
	}
	if strings.Contains(logs.String(), "upstream_ms") {
		t.Fatalf("log line of a request without upstream calls: %s", logs.String())
	}
}

var timingMetrics = regexp.MustCompile(`^app;dur=([0-9.]+), upstream;dur=([0-9.]+)$`)

// timing reads a Server-Timing header: the portal's and the upstreams'
// milliseconds.
func timing(t *testing.T, h string) (app, up float64) {
	t.Helper()
	m := timingMetrics.FindStringSubmatch(h)
	if m == nil {
		t.Fatalf("Server-Timing %q", h)
	}
	app, _ = strconv.ParseFloat(m[1], 64)
	up, _ = strconv.ParseFloat(m[2], 64)
	return app, up
}
