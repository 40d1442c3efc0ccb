package main

import (
	"strings"
	"testing"
	"time"
)

// TestClusterChartsFromTheStandIn: in dev mode the cluster page charts
// bytes in and out of the last hour with the numbers the Metrics API
// stand-in derives from what the demo producer and the billing consumer
// really do, in the API and on the page.
func TestClusterChartsFromTheStandIn(t *testing.T) {
	t.Parallel()
	tp := startPortal(t, nil)
	// The charts are cached for a minute: ask once the consumer has
	// committed something and storage was sampled (every 5 s), so that
	// every series has data to show.
	tel := tp.app.dev.platform.Watched["edh-shared/dev"]
	deadline := time.Now().Add(30 * time.Second)
	for {
		now := time.Now()
		if len(tel.Query("sent_bytes", now.Add(-time.Hour), now.Add(time.Minute), time.Minute, "", "")) > 0 &&
			len(tel.Query("retained_bytes", now.Add(-time.Hour), now.Add(time.Minute), time.Minute, "", "")) > 0 {
			break
		}
		if now.After(deadline) {
			t.Fatal("the demo consumer committed nothing in 30 s")
		}
		time.Sleep(100 * time.Millisecond)
	}
	r := tp.call("GET", "/api/v1/scada/dev/metrics?range=1h", "carol", nil)
	if r.status != 200 {
		t.Fatalf("metrics: %d %s", r.status, r.body)
	}
	charts := r.json(t)["charts"].(map[string]any)
	if charts["range"] != "1h" || charts["granularity"] != "PT1M" || charts["stale"] != nil {
		t.Fatalf("charts %v", charts)
	}
	peak := map[string]float64{}
	for _, c := range charts["charts"].([]any) {
		c := c.(map[string]any)
		if c["unavailable"] != nil {
			t.Errorf("chart %s unavailable: %v", c["id"], c["unavailable"])
		}
		for _, s := range c["series"].([]any) {
			s := s.(map[string]any)
			for _, p := range s["points"].([]any) {
				key := c["id"].(string) + "/" + s["name"].(string)
				peak[key] = max(peak[key], p.(map[string]any)["value"].(float64))
			}
		}
	}
	if peak["bytes/in"] <= 0 || peak["bytes/out"] <= 0 || peak["records/in"] <= 0 || peak["retained/retained"] <= 0 {
		t.Errorf("peaks %v", peak)
	}
	wantError(t, tp.call("GET", "/api/v1/scada/dev/metrics?range=2h", "carol", nil), 400, "INVALID_PARAMETER:range")

	wc := tp.webClient(t)
	wc.signIn("carol")
	res := wc.get("/scada/dev/metrics?range=1h")
	if res.status != 200 {
		t.Fatalf("page: %d", res.status)
	}
	page := res.body
	for _, want := range []string{`id="chart-bytes"`, `data-series="in"`, `data-series="out"`, "Last hour, per minute", `aria-current="true"`} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	if strings.Contains(page, "data-unavailable") || strings.Contains(page, "does not report") {
		t.Error("the page says a chart is unavailable")
	}
}
