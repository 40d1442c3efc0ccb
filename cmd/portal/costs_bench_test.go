package main

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/config"
	"github.com/edh-platform/rms-portal/internal/store"
)

// monthOfShares writes a month of a unit's shares in a stage: the lines
// of a shared cluster, a day each.
func monthOfShares(b *testing.B, st store.Store, month time.Time, units []string, stages []string) {
	ctx := context.Background()
	lines := []string{"KAFKA_BASE", "KAFKA_PARTITION", "KAFKA_STORAGE", "KAFKA_NETWORK_WRITE", "KAFKA_NETWORK_READ", "GOVERNANCE_BASE", "CONNECT_NUM_TASKS"}
	for d := month; d.Before(month.AddDate(0, 1, 0)); d = d.AddDate(0, 0, 1) {
		var shares []store.CostShare
		for _, stage := range stages {
			for _, u := range units {
				for i, l := range lines {
					shares = append(shares, store.CostShare{Zone: "edh-shared", Stage: stage, BU: u, LineType: l, ResourceID: fmt.Sprintf("r-%s-%d", stage, i),
						Rule: "retained bytes", LineAmount: 10, UnitUse: 1, TotalUse: float64(len(units)), Amount: 10 / float64(len(units))})
				}
			}
		}
		if err := st.PutCostShares(ctx, d, shares); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCostsMonthView answers a unit's month view from the rollups
// through the API as scada's Viewer: 10,000 topics of scada/dev with
// their month's costs, a month of its shares, the 20 costliest topics
// and the forecast (the bound is 200 ms); then the page.
func BenchmarkCostsMonthView(b *testing.B) {
	tp := startPortalWith(b, func(c *config.Config) {
		c.RateLimits.Caller.PerSecond, c.RateLimits.Unit.PerSecond = -1, -1
	}, hooks{})
	month := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	monthOfShares(b, tp.app.store, month, []string{"scada", "crm", "platform"}, []string{"dev"})
	var costs []store.TopicCost
	for i := range 10000 {
		costs = append(costs, store.TopicCost{Topic: fmt.Sprintf("edh-shared-scada-dev-t%05d", i), BU: "scada", Amount: float64(i % 977), Storage: float64(i % 977)})
	}
	if err := tp.app.store.PutTopicCosts(context.Background(), "edh-shared", "dev", month, costs); err != nil {
		b.Fatal(err)
	}
	client, token := &http.Client{}, tp.token("dave")
	url := tp.url + "/api/v1/scada/dev/costs?group_by=topic&limit=20&from=2026-06-01&to=2026-07-01"
	timedGet(b, client, url, token)
	var took []time.Duration
	b.ResetTimer()
	for range b.N {
		took = append(took, timedGet(b, client, url, token))
	}
	b.ReportMetric(p99(took), "p99-ms")
}

// BenchmarkZoneCostReport answers the zone report of 100 units (each in
// three stages, a month of shares) as the zone's Super Admin (the
// issue's bound is 500 ms).
func BenchmarkZoneCostReport(b *testing.B) {
	tp := startPortalWith(b, func(c *config.Config) {
		c.RateLimits.Caller.PerSecond, c.RateLimits.Unit.PerSecond = -1, -1
	}, hooks{})
	var units []string
	for i := range 97 {
		id := fmt.Sprintf("cost%02d", i)
		if r := tp.call("POST", "/api/v1/admin/business-units", "frank", map[string]any{"id": id, "landing_zone": "edh-shared",
			"groups": map[string]any{"viewer": []string{"sg-" + id}}}); r.status != http.StatusCreated {
			b.Fatalf("onboarding %s: %d %s", id, r.status, r.body)
		}
		units = append(units, id)
	}
	units = append(units, "scada", "crm", "platform")
	month := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	monthOfShares(b, tp.app.store, month, units, []string{"dev", "qas", "run"})
	client, token := &http.Client{}, tp.token("alice")
	url := tp.url + "/api/v1/admin/costs/edh-shared?month=2026-06"
	timedGet(b, client, url, token)
	var took []time.Duration
	b.ResetTimer()
	for range b.N {
		took = append(took, timedGet(b, client, url, token))
	}
	b.ReportMetric(p99(took), "p99-ms")
}
