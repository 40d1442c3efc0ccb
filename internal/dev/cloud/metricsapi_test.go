package cloud

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestMetricsStandInKeepsThePublishedLimits: limit is 1 to 1000, grouped
// answers come limit groups a page with a next page token, and a source
// address gets 429 with Retry-After past 60 requests a minute.
func TestMetricsStandInKeepsThePublishedLimits(t *testing.T) {
	api := NewCloudAPI(NewOrg(), "KEY", "SECRET")
	srv := httptest.NewServer(api)
	t.Cleanup(srv.Close)
	query := func(limit int) *http.Response {
		body := fmt.Sprintf(`{"aggregations":[{"metric":"io.confluent.kafka.server/received_bytes"}],"granularity":"PT1M",
			"intervals":["2026-11-28T10:00:00Z/2026-11-28T11:00:00Z"],"filter":{"field":"resource.kafka.id","op":"EQ","value":"lkc-x"},
			"group_by":["metric.topic"],"limit":%d,"format":"FLAT"}`, limit)
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/v2/metrics/cloud/query", strings.NewReader(body))
		req.SetBasicAuth("KEY", "SECRET")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	if r := query(1001); r.StatusCode != http.StatusBadRequest {
		t.Errorf("limit 1001: %d", r.StatusCode)
	}
	for i := 1; i < 60; i++ {
		if r := query(10); r.StatusCode != http.StatusOK {
			t.Fatalf("request %d of the minute: %d", i+1, r.StatusCode)
		}
	}
	r := query(10)
	if r.StatusCode != http.StatusTooManyRequests || r.Header.Get("Retry-After") == "" {
		t.Errorf("the 61st request of the minute: %d, Retry-After %q", r.StatusCode, r.Header.Get("Retry-After"))
	}

	rows := []map[string]any{}
	for topic := range 25 {
		for minute := range 3 {
			rows = append(rows, map[string]any{"timestamp": fmt.Sprintf("2026-11-28T10:0%d:00Z", minute), "metric.topic": fmt.Sprintf("t%02d", topic), "value": 1.0})
		}
	}
	seen, token, pages := map[string]int{}, "", 0
	for {
		page, next := groupPage(rows, []string{"metric.topic"}, 10, token)
		pages++
		for _, row := range page {
			seen[row["metric.topic"].(string)]++
		}
		if token = next; token == "" || pages > 5 {
			break
		}
	}
	if pages != 3 || len(seen) != 25 || seen["t07"] != 3 {
		t.Errorf("25 groups by 10: %d pages, %d groups, %d points of t07", pages, len(seen), seen["t07"])
	}
}
