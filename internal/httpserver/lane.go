package httpserver

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/cpupriority"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/ratelimit"
)

// Lane admits the requests whose bodies are large (a schema of a
// megabyte, a produce of a mebibyte of records): reading and decoding
// them costs the replica's processors before any service is entered, and
// a unit sending them in a loop would slow every other unit's pages. They
// run within the shares of the replica's costly work (one per caller, two
// per unit, half the processors in all, by default; filtered record scans
// take the same shares); past them a request waits its turn, then is
// refused with 429, alone. Requests with small bodies never wait, except
// those of a caller who was just refused for going past a share: they wait
// out its Retry-After first (hold).
type Lane struct {
	heavy int64
	c     *ratelimit.Concurrency
	hold  *hold
}

// NewLane returns the lane of requests whose bodies reach heavy bytes
// (256 KiB when 0), within the shares of costly work c.
func NewLane(heavy int64, c *ratelimit.Concurrency) *Lane {
	if heavy <= 0 {
		heavy = 256 << 10
	}
	return &Lane{heavy: heavy, c: c, hold: newHold(2*time.Second, 1024)}
}

// Middleware admits the requests of a scoped route (after the caller and
// the scope are known: ParseScope): those of a caller just refused wait
// (hold), the heavy ones take the lane. A body of unknown length is heavy.
func (l *Lane) Middleware(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		caller := ""
		if p := portal.PrincipalFrom(r.Context()); p != nil {
			caller = p.Subject
		}
		l.hold.wait(r.Context(), caller)
		err := l.admit(c, caller, next)
		l.hold.refused(caller, err)
		return err
	}
}

// admit runs next, through the lane when the request is heavy.
func (l *Lane) admit(c echo.Context, caller string, next echo.HandlerFunc) error {
	r := c.Request()
	if r.Body == nil || r.Body == http.NoBody || (r.ContentLength >= 0 && r.ContentLength < l.heavy) {
		return next(c)
	}
	leave, refused, err := l.c.Enter(r.Context(), caller, ScopeOf(c).BU)
	if err != nil {
		return err
	}
	if refused == ratelimit.UnitSpent {
		e := portal.New(portal.RateLimited, "your business unit used its share of the portal's time for large requests (over %d KiB) and record reads this minute; other units are not held up: try again later",
			l.heavy>>10)
		e.RetryAfter = l.c.RetryAfter(ScopeOf(c).BU)
		return e
	}
	if refused != 0 {
		e := portal.New(portal.RateLimited, "the portal is reading as many large requests (over %d KiB) at once as it takes for you, your unit or in all; other requests are not held up: try again in a moment",
			l.heavy>>10)
		e.RetryAfter = time.Second
		return e
	}
	defer leave()
	// Reading and decoding the body is the costly part: on a thread of
	// lower priority, so that other units' pages are served first.
	return cpupriority.Run(func() error { return next(c) })
}
