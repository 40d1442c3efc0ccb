package records

import (
	"context"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/ratelimit"
)

// scanGate admits the record reads with filters within the replica's
// shares of costly work: a filtered read decodes and judges thousands of
// records on the portal's own processors, and one caller's costly filters
// must not slow every other request of the replica.
type scanGate struct{ c *ratelimit.Concurrency }

// enter waits for the caller's turn to scan, within its and its unit's
// share and the replica's, and returns its end; past the wait the caller
// is refused with 429, saying which share is used up.
func (g *scanGate) enter(ctx context.Context, caller, unit string) (func(), error) {
	leave, refused, err := g.c.Enter(ctx, caller, unit)
	if err != nil || refused == 0 {
		return leave, err
	}
	why := map[ratelimit.Refusal]string{
		ratelimit.CallerBusy: "a record read of yours is still running",
		ratelimit.UnitBusy:   "your business unit is running as many record reads at once as it may",
		ratelimit.AllBusy:    "the portal is running as many record reads as it takes at once",
		ratelimit.UnitSpent:  "your business unit used its share of the portal's time for record reads and large requests this minute",
	}[refused]
	e := portal.New(portal.RateLimited, "%s; other units are not held up: try again in a moment", why)
	e.RetryAfter = time.Second
	if refused == ratelimit.UnitSpent {
		e.RetryAfter = g.c.RetryAfter(unit)
	}
	return nil, e
}
