package httpserver

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/ratelimit"
)

// TestLargeBodiesTakeTheirLane: while a caller's large request runs, its
// next large one waits and is then refused with 429; its small requests,
// and another unit's large ones, go through at once.
func TestLargeBodiesTakeTheirLane(t *testing.T) {
	lane := NewLane(1024, ratelimit.NewConcurrency(ratelimit.Shares{PerCaller: 1, PerUnit: 2, Total: 2, Wait: 50 * time.Millisecond}))
	e := echo.New()
	e.HTTPErrorHandler = func(err error, c echo.Context) {
		_ = c.String(portal.StatusOf(err), err.Error())
	}
	entered := make(chan struct{}, 4)
	release := make(chan struct{})
	e.POST("/:bu/:stage/x", func(c echo.Context) error {
		if c.QueryParam("hold") != "" {
			entered <- struct{}{}
			<-release
		}
		return c.NoContent(http.StatusNoContent)
	}, func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			who := c.Request().Header.Get("X-Who")
			c.SetRequest(c.Request().WithContext(portal.WithPrincipal(c.Request().Context(), portal.PrincipalWithRoles(who, nil))))
			return next(c)
		}
	}, ParseScope, lane.Middleware)
	send := func(who, unit string, size int, hold bool) int {
		path := "/" + unit + "/dev/x"
		if hold {
			path += "?hold=1"
		}
		req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(strings.Repeat("x", size)))
		req.Header.Set("X-Who", who)
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		return rec.Code
	}
	var wg sync.WaitGroup
	wg.Go(func() { send("carol", "scada", 4096, true) })
	<-entered
	if code := send("carol", "scada", 4096, false); code != http.StatusTooManyRequests {
		t.Errorf("carol's second large request: %d, want 429", code)
	}
	if code := send("carol", "scada", 100, false); code != http.StatusNoContent {
		t.Errorf("carol's small request: %d", code)
	}
	if code := send("fay", "crm", 4096, false); code != http.StatusNoContent {
		t.Errorf("crm's large request: %d", code)
	}
	close(release)
	wg.Wait()
	if code := send("carol", "scada", 4096, false); code != http.StatusNoContent {
		t.Errorf("carol's large request after the first: %d", code)
	}
}
