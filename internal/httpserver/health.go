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
}

// RegisterHealth mounts /healthz (the process is alive) and /readyz (every
// upstream answers). Probes run concurrently, each bounded by timeout.
func RegisterHealth(e *echo.Echo, checks []Check, timeout time.Duration) {
	e.GET("/healthz", func(c echo.Context) error {
		return c.JSON(http.StatusOK, map[string]string{"status": "ok"})
	})
	e.GET("/readyz", func(c echo.Context) error {
		ctx, cancel := context.WithTimeout(c.Request().Context(), timeout)
		defer cancel()
		results := make([]checkResult, len(checks))
		var wg sync.WaitGroup
		for i, ch := range checks {
			wg.Add(1)
			go func() {
				defer wg.Done()
				detail, err := ch.Probe(ctx)
				results[i] = checkResult{Name: ch.Name, Status: "ok", Detail: detail}
				if err != nil {
					results[i] = checkResult{Name: ch.Name, Status: "failing", Detail: err.Error()}
				}
			}()
		}
		wg.Wait()
		status, code := "ready", http.StatusOK
		for _, r := range results {
			if r.Status != "ok" {
				status, code = "not_ready", http.StatusServiceUnavailable
			}
		}
		c.Response().Header().Set("Cache-Control", "no-store")
		return c.JSON(code, map[string]any{"status": status, "checks": results})
	})
}
