package topics

import (
	"context"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/store"
)

// MetricsBudget admits Metrics API requests against the fleet's budget, a
// token bucket in the store that every replica shares (perSecond, burst),
// for the Metrics adapter to ask before its requests. A refresh of a
// recent answer leaves a third of the burst to urgent queries (no answer
// yet, or an old one), so that when the budget is short the oldest charts
// are refreshed first.
func MetricsBudget(st store.RateBuckets, perSecond float64, burst int, now func() time.Time) func(ctx context.Context, requests int, owed, urgent bool) error {
	return func(ctx context.Context, requests int, owed, urgent bool) error {
		keep := burst / 3
		if urgent {
			keep = 0
		}
		wait, err := st.TakeTokens(ctx, "confluent-metrics-api", requests, keep, owed, perSecond, burst, now())
		if err != nil {
			return portal.Wrap(err, portal.UpstreamUnavailable, "the portal could not take a Metrics API request from its budget (the database did not answer)")
		}
		if wait > 0 {
			e := portal.New(portal.RateLimited, "the portal's budget of Metrics API requests (%.0f a minute for every replica together) is spent for now",
				perSecond*60)
			e.RetryAfter = wait
			return e
		}
		return nil
	}
}
