package httpserver

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// Check is one readiness probe: it returns a short detail, or an error.
type Check struct {
	Name  string
	Probe func(ctx context.Context) (string, error)
}

type checkResult struct {
	Name   string `json:"name"`
	Status string `json:"status"`
	Detail string `json:"detail,omitempty"`
	Millis int64  `json:"latency_ms"`
}

// Upstreams reports every upstream's state, and whether all are well.
type Upstreams func(ctx context.Context) (report any, ok bool)

// RegisterHealth mounts /healthz (the process is alive), /readyz (the
// process can serve: its own checks, such as its database) and
// /healthz/upstreams (each upstream's state, reported but never making
// the process unready: one tenant's cluster outage must not take every
// replica out of the load balancer). Probes run concurrently, each bounded
// by timeout. The upstream report names the platform's hosts and states,
// so on this port it needs what allow accepts (a signed-in caller's token);
// the management port serves it to anyone who reaches it (UpstreamsHandler).
func RegisterHealth(e *echo.Echo, ready []Check, upstreams Upstreams, allow func(r *http.Request) error, timeout time.Duration) {
	e.GET("/healthz", func(c echo.Context) error {
		return c.JSON(http.StatusOK, map[string]string{"status": "ok"})
	})
	e.GET("/readyz", func(c echo.Context) error {
		results, ok := probe(c.Request().Context(), ready, timeout)
		status, code := "ready", http.StatusOK
		if !ok {
			status, code = "not_ready", http.StatusServiceUnavailable
		}
		c.Response().Header().Set("Cache-Control", "no-store")
		return c.JSON(code, map[string]any{"status": status, "checks": results})
	})
	report := UpstreamsHandler(upstreams, timeout)
	e.GET("/healthz/upstreams", func(c echo.Context) error {
		c.Response().Header().Set("Cache-Control", "no-store")
		if err := allow(c.Request()); err != nil {
			// Refused as any API request is: the error record, with
			// WWW-Authenticate or Retry-After (MachinePath).
			if portal.Is(err, portal.RateLimited) {
				return err
			}
			return portal.Wrap(err, portal.Unauthenticated,
				"the upstream report needs a bearer token here (or the management port, metrics.listen): %s", firstMessage(err))
		}
		report.ServeHTTP(c.Response(), c.Request())
		return nil
	})
}

// MachinePath reports whether a path is for machines rather than people
// (health, readiness, static files): its refusals are error records, as
// the API's are, never an HTML page.
func MachinePath(path string) bool {
	return path == "/healthz" || strings.HasPrefix(path, "/healthz/") || path == "/readyz" || strings.HasPrefix(path, "/static/")
}

// UpstreamsHandler serves the upstream report (for the management port).
func UpstreamsHandler(upstreams Upstreams, timeout time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), timeout)
		defer cancel()
		results, ok := upstreams(ctx)
		status := "ok"
		if !ok {
			status = "degraded"
		}
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"status": status, "upstreams": results})
	})
}

func firstMessage(err error) string {
	if ps := portal.Problems(err); len(ps) > 0 {
		return ps[0].Message
	}
	return err.Error()
}

// probe runs checks concurrently and says whether all passed.
func probe(ctx context.Context, checks []Check, timeout time.Duration) ([]checkResult, bool) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	results := make([]checkResult, len(checks))
	var wg sync.WaitGroup
	for i, ch := range checks {
		wg.Go(func() {
			start := time.Now()
			detail, err := ch.Probe(ctx)
			results[i] = checkResult{Name: ch.Name, Status: "ok", Detail: detail, Millis: time.Since(start).Milliseconds()}
			if err != nil {
				results[i].Status, results[i].Detail = "failing", err.Error()
			}
		})
	}
	wg.Wait()
	ok := true
	for _, r := range results {
		ok = ok && r.Status == "ok"
	}
	return results, ok
}
