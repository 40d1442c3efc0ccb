package httpserver

import (
	"net/http"
	"net/http/httptest"
	"runtime"
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
	}, asWho, ParseScope, lane.Middleware)
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

// TestARefusedCallerWaitsItsRetryAfter: a caller refused for going past a
// share, who sends again at once, is held until its Retry-After has passed
// and then served; another caller meanwhile is served at once.
func TestARefusedCallerWaitsItsRetryAfter(t *testing.T) {
	lane := NewLane(1024, ratelimit.NewConcurrency(ratelimit.Shares{PerCaller: 1, PerUnit: 2, Total: 2, Wait: time.Millisecond}))
	e := echo.New()
	e.HTTPErrorHandler = func(err error, c echo.Context) {
		_ = c.String(portal.StatusOf(err), err.Error())
	}
	e.GET("/:bu/:stage/x", func(c echo.Context) error {
		if c.QueryParam("refuse") != "" {
			e := portal.New(portal.RateLimited, "past your share")
			e.RetryAfter = time.Second
			return e
		}
		return c.NoContent(http.StatusNoContent)
	}, asWho, ParseScope, lane.Middleware)
	send := func(who, query string) int {
		req := httptest.NewRequest(http.MethodGet, "/scada/dev/x"+query, nil)
		req.Header.Set("X-Who", who)
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		return rec.Code
	}
	if code := send("carol", "?refuse=1"); code != http.StatusTooManyRequests {
		t.Fatalf("carol's refused request: %d", code)
	}
	start := time.Now()
	done := make(chan int)
	go func() { done <- send("carol", "") }()
	for lane.hold.held.Load() == 0 {
		select {
		case code := <-done:
			t.Fatalf("carol's next request was not held: %d after %v", code, time.Since(start))
		default:
			runtime.Gosched()
		}
	}
	if code := send("alice", ""); code != http.StatusNoContent {
		t.Errorf("alice's request: %d", code)
	}
	if lane.hold.held.Load() != 1 {
		t.Errorf("carol's request was not held while alice's was served")
	}
	if code := <-done; code != http.StatusNoContent {
		t.Errorf("carol's request after the hold: %d", code)
	}
	if took := time.Since(start); took < 900*time.Millisecond {
		t.Errorf("carol's next request was served after %v, before its Retry-After", took)
	}
	if code := send("carol", ""); code != http.StatusNoContent {
		t.Errorf("carol's request after the Retry-After: %d", code)
	}
}

// asWho signs the request in as the principal its X-Who header names.
func asWho(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		who := c.Request().Header.Get("X-Who")
		c.SetRequest(c.Request().WithContext(portal.WithPrincipal(c.Request().Context(), portal.PrincipalWithRoles(who, nil))))
		return next(c)
	}
}
