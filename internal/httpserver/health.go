package httpserver

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
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

// RegisterHealth mounts /healthz (the process is alive), /readyz (the
// process can serve: its own checks, such as its database) and
// /healthz/upstreams (each upstream's state, reported but never making
// the process unready: one tenant's cluster outage must not take every
// replica out of the load balancer). Probes run concurrently, each bounded
// by timeout.
func RegisterHealth(e *echo.Echo, ready []Check, upstreams func(ctx context.Context) (report any, ok bool), timeout time.Duration) {
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
	e.GET("/healthz/upstreams", func(c echo.Context) error {
		ctx, cancel := context.WithTimeout(c.Request().Context(), timeout)
		defer cancel()
		results, ok := upstreams(ctx)
		status := "ok"
		if !ok {
			status = "degraded"
		}
		c.Response().Header().Set("Cache-Control", "no-store")
		return c.JSON(http.StatusOK, map[string]any{"status": status, "upstreams": results})
	})
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
