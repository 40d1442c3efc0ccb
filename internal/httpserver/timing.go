package httpserver

import (
	"fmt"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/upstream"
)

// ServerTiming is the header that splits an answer's time between the
// portal's own work and its waits on upstreams (W3C Server Timing).
const ServerTiming = "Server-Timing"

// timeRequests counts each request's waits on upstreams (upstream.Waits)
// and says, in the Server-Timing header of its answer, how long the
// portal worked on it (app) and how long it waited on upstream calls
// (upstream), both as of the answer's headers: a caller whose pages slow
// down can tell the portal from Confluent Cloud, the registry or the
// cluster. The request's log line has the whole wait (upstream_ms) and
// the number of calls, which the header leaves out: what a request called
// is the portal's business, and a count could tell a caller more than the
// answer does.
func timeRequests(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		ctx, waits := upstream.WithWaits(c.Request().Context())
		c.Response().Before(func() {
			now := time.Now()
			up, _ := waits.Total(now)
			app := max(now.Sub(start)-up, 0)
			c.Response().Header().Set(ServerTiming, fmt.Sprintf("app;dur=%.1f, upstream;dur=%.1f", millis(app), millis(up)))
		})
		c.SetRequest(c.Request().WithContext(ctx))
		return next(c)
	}
}

func millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
