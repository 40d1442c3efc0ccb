package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/edh-platform/rms-portal/internal/config"
	"github.com/edh-platform/rms-portal/internal/wire"
)

// TestCostsJourney: the collector reads a month of the dev stand-ins'
// usage and costs; a unit's bill is its shares, each recomputed by hand
// from the inputs shown; the zone report adds up to the organisation's
// costs; the CSV has the page's numbers; a Viewer reads, another unit's
// caller does not, and the zone report is the Super Admin's.
func TestCostsJourney(t *testing.T) {
	// Not parallel: its collector's month of Metrics API queries shares the
	// stand-in's rate with nothing else, as a deployment's does; beside
	// a dozen other portals on two cores its reads did not finish.
	// The days the test reads (20 back, and the month of the last day
	// billed), not dev mode's whole month: a month of every stage's rows
	// is most of the test's time under the race detector.
	back := 21 * 24 * time.Hour
	if y := time.Now().UTC().AddDate(0, 0, -1); y.Day()+1 > 21 {
		back = time.Duration(y.Day()+1) * 24 * time.Hour
	}
	tp := startPortal(t, func(c *config.Config) {
		c.Costs.Every, c.Costs.StagesPerRound = 200*time.Millisecond, 20
		c.Costs.Backfill = back
		// The whole backfill at once (27 requests), within the stand-in's 60 a minute.
		c.RateLimits.MetricsAPI = config.Bucket{PerSecond: 0.75, Burst: 45}
		c.Alerts.Every = 300 * time.Millisecond
	})
	now := time.Now().UTC()
	from := now.AddDate(0, 0, -20).Format(time.DateOnly)
	// The month of the last day billed (this month, but on its first day).
	monthOf := now.AddDate(0, 0, -1).Format("2006-01")
	first := monthOf + "-01"
	// Every stage read once: the shares made from then on have every
	// unit's usage.
	waitFor(t, "every stage's usage read", 3*time.Minute, func() bool {
		for _, env := range tp.app.envs.All() {
			if m, err := tp.app.store.UsageMark(context.Background(), env.Zone, env.Stage); err != nil || m.IsZero() {
				return false
			}
		}
		return true
	})
	var usage wire.UsageReport
	waitFor(t, "a month of scada/dev's usage", 60*time.Second, func() bool {
		r := tp.call("GET", "/api/v1/scada/dev/usage?granularity=day&from="+from, "dave", nil)
		if r.status != http.StatusOK {
			t.Fatalf("usage: %d %s", r.status, r.body)
		}
		usage = wire.UsageReport{}
		_ = json.Unmarshal(r.body, &usage)
		if len(usage.Points) < 19 && time.Now().Second()%10 == 0 {
			t.Logf("usage: %d points, %d gaps %v", len(usage.Points), len(usage.Gaps), usage.Gaps[:min(2, len(usage.Gaps))])
		}
		return len(usage.Points) >= 19
	})
	for _, p := range usage.Points[:len(usage.Points)-1] {
		if p.BytesIn <= 0 || p.RetainedBytes <= 0 || p.Partitions <= 0 || p.Hours != 24 {
			t.Errorf("a day of usage is not a whole believable day: %+v", p)
		}
	}
	var costs wire.CostReport
	waitFor(t, "scada/dev's costs", 60*time.Second, func() bool {
		r := tp.call("GET", "/api/v1/scada/dev/costs?group_by=line&from="+from, "dave", nil)
		if r.status != http.StatusOK {
			t.Fatalf("costs: %d %s", r.status, r.body)
		}
		costs = wire.CostReport{}
		_ = json.Unmarshal(r.body, &costs)
		// Every day billed: a month back in the first round, the days since
		// in the next. A round that billed the days before it read the
		// stage's usage left the shared lines unallocated; the round that
		// reads the usage splits them again, and the wait is for that.
		yesterday := now.AddDate(0, 0, -1).Format(time.DateOnly)
		shared := map[string]bool{}
		for _, l := range costs.Lines {
			shared[l.Category] = true
		}
		return len(costs.Days) >= 19 && costs.Days[len(costs.Days)-1].Day == yesterday && shared["storage"] && shared["network"]
	})
	sum, rules := 0.0, map[string]bool{}
	for _, l := range costs.Lines {
		if want := l.LineAmount * l.UnitUse / l.TotalUse; math.Abs(want-l.Amount) > 1e-9 || l.UnitUse > l.TotalUse {
			t.Errorf("a share is not line x unit / total: %+v", l)
		}
		sum += l.Amount
		rules[l.Category+": "+l.Rule] = true
	}
	if math.Abs(sum-costs.Total) > 1e-6 || costs.Total <= 0 {
		t.Errorf("the lines add up to %f, the total says %f", sum, costs.Total)
	}
	for _, want := range []string{"storage: retained bytes", "network: bytes in", "network: bytes out", "partitions: partitions", "base: equal among units"} {
		if !rules[want] {
			t.Errorf("no share made by %s (%v)", want, rules)
		}
	}
	if f := costs.Forecast; f.Amount < f.SoFar || f.Low > f.Amount || f.High < f.Amount || f.Method == "" {
		t.Errorf("forecast %+v", f)
	}
	// Topics: the costliest first, and the CSV has the same numbers.
	// (The month's topic costs are made by the round after the days it
	// split, which may be the next one.)
	var topics wire.CostReport
	waitFor(t, "scada/dev's costliest topics", 60*time.Second, func() bool {
		r := tp.call("GET", "/api/v1/scada/dev/costs?group_by=topic&limit=5&from="+first, "dave", nil)
		topics = wire.CostReport{}
		if err := json.Unmarshal(r.body, &topics); err != nil || r.status != http.StatusOK {
			t.Fatalf("top topics: %d %s", r.status, r.body)
		}
		return len(topics.Topics) > 0
	})
	for i := 1; i < len(topics.Topics); i++ {
		if topics.Topics[i].Amount > topics.Topics[i-1].Amount {
			t.Errorf("topics not costliest first: %+v", topics.Topics)
		}
	}
	r := tp.call("GET", "/api/v1/scada/dev/costs?group_by=topic&limit=5&format=csv&from="+first, "dave", nil)
	rows, err := csv.NewReader(strings.NewReader(string(r.body))).ReadAll()
	if err != nil || len(rows) != len(topics.Topics)+1 || rows[1][0] != topics.Topics[0].Topic {
		t.Errorf("the CSV is not the page: %v %v", rows, err)
	}
	// Who may read.
	if r := tp.call("GET", "/api/v1/scada/dev/costs", "sam", nil); r.status != http.StatusNotFound {
		t.Errorf("another unit's caller: %d", r.status)
	}
	if r := tp.call("GET", "/api/v1/scada/dev/usage?granularity=minute", "dave", nil); r.status != http.StatusBadRequest ||
		!strings.Contains(string(r.body), "granularity") {
		t.Errorf("a bad granularity: %d %s", r.status, r.body)
	}
	if r := tp.call("GET", "/api/v1/admin/costs/edh-shared", "bob", nil); r.status != http.StatusNotFound {
		t.Errorf("the zone report for a unit's Admin: %d", r.status)
	}
	// The zone report adds up to the organisation's costs.
	var zone wire.ZoneCostReport
	r = tp.call("GET", "/api/v1/admin/costs/edh-shared?month="+monthOf, "alice", nil)
	if err := json.Unmarshal(r.body, &zone); r.status != http.StatusOK || err != nil {
		t.Fatalf("zone report: %d %s", r.status, r.body)
	}
	parts := zone.Unallocated + zone.Organisation + zone.OtherZones
	units := map[string]float64{}
	for _, u := range zone.Units {
		parts += u.Amount
		units[u.BusinessUnit] = u.Amount
	}
	if math.Abs(parts-zone.Total) > 1e-6 || zone.Organisation <= 0 || zone.OtherZones <= 0 || units["scada"] <= 0 || units["crm"] <= 0 {
		t.Errorf("the zone report does not add up: %+v", zone)
	}
	// scada's stages add up to its line of the zone report (read again
	// until a round that was splitting the days meanwhile is over).
	var stages, inReport float64
	waitFor(t, "scada's stages adding up to the zone report", time.Minute, func() bool {
		stages, inReport = 0, 0
		for _, st := range []string{"dev", "qas", "run"} {
			var x wire.CostReport
			_ = json.Unmarshal(tp.call("GET", "/api/v1/scada/"+st+"/costs?from="+first, "dave", nil).body, &x)
			stages += x.Total
		}
		var z wire.ZoneCostReport
		_ = json.Unmarshal(tp.call("GET", "/api/v1/admin/costs/edh-shared?month="+monthOf, "alice", nil).body, &z)
		for _, u := range z.Units {
			if u.BusinessUnit == "scada" {
				inReport = u.Amount
			}
		}
		return stages > 0 && math.Abs(stages-inReport) < 1e-6
	})

	// The page shows the month: its total, a stacked bar a day, the top
	// topics and the split of the last day; its CSV has the same days.
	var month wire.CostReport
	_ = json.Unmarshal(tp.call("GET", "/api/v1/scada/dev/costs?from="+first, "dave", nil).body, &month)
	b := newBrowser(t, tp)
	b.signIn("dave")
	b.run(chromedp.Navigate(tp.url+"/scada/dev/costs?month="+monthOf), chromedp.WaitVisible("#cost-chart", chromedp.ByID))
	if got, want := b.text("#cost-total dd"), fmt.Sprintf("$%.2f", month.Total); !strings.HasPrefix(got, want) {
		t.Errorf("the page's total %q, the API's %s", got, want)
	}
	if n := b.count("#cost-chart rect[data-category]"); n < len(month.Days) {
		t.Errorf("%d bar segments for %d days", n, len(month.Days))
	}
	if b.count("#top-topics tr[data-topic]") == 0 || b.count("#cost-lines tr[data-line]") == 0 {
		t.Error("no top topics or no split shown")
	}
	page := tp.call("GET", "/api/v1/scada/dev/costs?from="+first+"&format=csv", "dave", nil)
	if rows, err := csv.NewReader(strings.NewReader(string(page.body))).ReadAll(); err != nil || len(rows) != len(month.Days)+1 {
		t.Errorf("the month's CSV: %d rows for %d days, %v", len(rows), len(month.Days), err)
	}

	// A monthly amount below the forecast: the page warns, and a
	// cost_forecast rule fires to the unit's channel.
	got := make(chan string, 8)
	receiver := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		got <- string(body)
	}))
	defer receiver.Close()
	amount := int(month.Forecast.Amount / 2)
	if r := tp.call("PUT", "/api/v1/admin/budget/scada/dev", "frank", map[string]any{"limits": map[string]int{"monthly_cost": amount}}); r.status != http.StatusOK ||
		!strings.Contains(string(r.body), fmt.Sprintf(`"monthly_cost":%d`, amount)) {
		t.Fatalf("the monthly amount: %d %s", r.status, r.body)
	}
	t.Cleanup(func() {
		tp.call("PUT", "/api/v1/admin/budget/scada/dev", "frank", map[string]any{"limits": map[string]int{}})
	})
	if r := tp.call("PUT", "/api/v1/admin/budget/scada/dev", "frank", map[string]any{"limits": map[string]int{"monthly_costs": 1}}); r.status != http.StatusBadRequest {
		t.Errorf("a misspelt amount: %d", r.status)
	}
	r = tp.call("POST", "/api/v1/scada/dev/alert-channel", "bob", map[string]string{"format": "slack", "url": receiver.URL + "/slack"})
	if r.status != http.StatusCreated {
		t.Fatalf("channel: %d %s", r.status, r.body)
	}
	channel, _ := r.json(t)["id"].(string)
	t.Cleanup(func() { tp.call("DELETE", "/api/v1/scada/dev/alert-channel/"+channel, "bob", nil) })
	if r := tp.call("PUT", "/api/v1/scada/dev/alert-rule/over-budget", "bob", map[string]any{"kind": "cost_forecast", "threshold": 100, "for_seconds": 0}); r.status != http.StatusOK {
		t.Fatalf("rule: %d %s", r.status, r.body)
	}
	t.Cleanup(func() { tp.call("DELETE", "/api/v1/scada/dev/alert-rule/over-budget", "bob", nil) })
	select {
	case body := <-got:
		if !strings.Contains(body, "month-end forecast") || !strings.Contains(body, "over-budget") {
			t.Errorf("the alert says %s", body)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no cost_forecast alert within 30s")
	}
	b.run(chromedp.Navigate(tp.url+"/scada/dev/costs"), chromedp.WaitVisible("#cost-chart", chromedp.ByID))
	if !b.shown("#over-budget") && now.Day() > 1 {
		t.Error("the page does not say the forecast is over the budget")
	}
	// The unit home shows the alert while it fires.
	web := tp.webClient(t)
	web.signIn("dave")
	waitFor(t, "the home page's firing alert", 30*time.Second, func() bool {
		home := web.get("/")
		return strings.Contains(home.body, `id="firing-alerts"`) && strings.Contains(home.body, "over-budget")
	})
	// The zone page, the Super Admin's, has the API's total; its CSV the
	// same rows.
	admin := tp.webClient(t)
	admin.signIn("alice")
	zp := admin.get("/admin/costs?zone=edh-shared&month=" + monthOf)
	if zp.status != http.StatusOK || !strings.Contains(zp.body, fmt.Sprintf("$%.2f", zone.Total)) || !strings.Contains(zp.body, `data-unit="scada"`) {
		t.Errorf("the zone page: %d, total %.2f:\n%.1500s", zp.status, zone.Total, zp.body)
	}
	if dave := web.get("/admin/costs"); dave.status != http.StatusNotFound {
		t.Errorf("the zone page for a Viewer: %d", dave.status)
	}
	zc := admin.get("/admin/costs?zone=edh-shared&month=" + monthOf + "&format=csv")
	if rows, err := csv.NewReader(strings.NewReader(zc.body)).ReadAll(); err != nil || len(rows) != len(zone.Units)+5 {
		t.Errorf("the zone CSV: %d rows for %d units, %v", len(rows), len(zone.Units), err)
	}
	// portalctl, as the Viewer.
	c := ctl{t: t, bin: portalctlBinary(t), env: []string{"PORTALCTL_SERVER=" + tp.url, "PORTALCTL_BU=scada", "PORTALCTL_STAGE=dev",
		"PORTALCTL_CLIENT_ID=", "PORTALCTL_CLIENT_SECRET=", "PORTALCTL_CONFIG_DIR=" + filepath.Join(t.TempDir(), "dave")}}
	signInAs(t, c, "dave")
	if code, out := c.run("get", "costs", "--where", "from="+first, "--where", "group_by=topic"); code != 0 || !strings.Contains(out, topics.Topics[0].Topic) ||
		!strings.Contains(out, "month-end forecast") {
		t.Errorf("portalctl get costs: %d\n%s", code, out)
	}
	if code, out := c.run("get", "usage", "--where", "granularity=day", "-o", "json"); code != 0 || !strings.Contains(out, `"points"`) {
		t.Errorf("portalctl get usage: %d\n%s", code, out)
	}
}

// TestUsageRangesAreBounded: a question by topic and by the hour spans a
// day at most (the answer has a point a topic an hour); left out, the
// range is the longest allowed.
func TestUsageRangesAreBounded(t *testing.T) {
	tp := sharedPortal(t)
	if r := tp.call("GET", "/api/v1/scada/dev/usage?granularity=hour&group_by=topic&from=2026-11-01&to=2026-11-03", "dave", nil); r.status != http.StatusBadRequest ||
		!strings.Contains(string(r.body), `"field":"to"`) {
		t.Errorf("two days by topic and hour: %d %s", r.status, r.body)
	}
	r := tp.call("GET", "/api/v1/scada/dev/usage?granularity=hour&group_by=topic", "dave", nil)
	var u wire.UsageReport
	if err := json.Unmarshal(r.body, &u); r.status != http.StatusOK || err != nil {
		t.Fatalf("the default range: %d %s", r.status, r.body)
	}
	from, _ := time.Parse(time.RFC3339, u.From)
	to, _ := time.Parse(time.RFC3339, u.To)
	if to.Sub(from) > 24*time.Hour || to.Sub(from) <= 0 {
		t.Errorf("the default range by topic and hour: %s to %s", u.From, u.To)
	}
}
