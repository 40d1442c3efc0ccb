package topics

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/platform/confluent"
	"github.com/edh-platform/rms-portal/internal/portal/metric"
	"github.com/edh-platform/rms-portal/internal/store/sqlite"
	"github.com/edh-platform/rms-portal/internal/store/sqlitetest"
)

// TestChartsKeepTheFleetWithinTheMetricsBudget: two replicas (two caches
// and two adapters over one database) draw the pages people open of a
// large cluster (each query's answer is ten pages: 72 requests a minute
// if nothing held them back), a unit's cluster page and two topic pages
// in two ranges each, every ten seconds for ten minutes. The Metrics API never receives more than the
// budget's requests in a minute (48 and a burst of 10, under the published
// 60), and every chart is drawn, fresh or with its age, after the first
// answers.
func TestChartsKeepTheFleetWithinTheMetricsBudget(t *testing.T) {
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	st, _, err := sqlite.Open(ctx, sqlitetest.File(t, ""), 5*time.Second, log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	var mu sync.Mutex
	now := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	clock := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		return now
	}
	perMinute := map[int]int{}
	// A large cluster: every topic has points, and answers are paged by
	// the query's limit of groups.
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		minute := int(clock().Sub(time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)) / time.Minute)
		mu.Lock()
		perMinute[minute]++
		mu.Unlock()
		var q struct {
			GroupBy []string `json:"group_by"`
			Limit   int      `json:"limit"`
		}
		_ = json.NewDecoder(r.Body).Decode(&q)
		var groups []map[string]any
		for i := range 20 {
			for g := range 2 {
				row := map[string]any{"timestamp": clock().Truncate(time.Minute).Format(time.RFC3339),
					"metric.topic": fmt.Sprintf("edh-shared-scada-dev-t%d", i), "value": 1.0}
				if len(q.GroupBy) < 2 {
					if g > 0 {
						continue
					}
				} else {
					row["metric.consumer_group_id"] = fmt.Sprintf("edh-shared-scada-dev-g%d", g)
				}
				groups = append(groups, row)
			}
		}
		from := 0
		_, _ = fmt.Sscan(r.URL.Query().Get("page_token"), &from)
		to := min(from+q.Limit, len(groups))
		body := map[string]any{"data": groups[from:to]}
		if to < len(groups) {
			body["meta"] = map[string]any{"pagination": map[string]any{"next_page_token": fmt.Sprint(to)}}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(body)
	}))
	t.Cleanup(api.Close)
	replica := func() (*MetricCache, *platform.Environment) {
		m := NewMetricCache(st, log)
		m.SetClock(clock)
		m.limit = 2 // pages of two groups: ten pages an answer, the most read
		c := confluent.NewClient(confluent.Options{BaseURL: api.URL, APIKey: "K", APISecret: "S", MaxRetries: 1, Logger: log})
		// As the portal wires it (rate_limits.metrics_api's defaults).
		metrics := confluent.NewMetrics(c, MetricsBudget(st, 0.75, 15, clock))
		return m, &platform.Environment{Zone: "edh-shared", Stage: "dev", ClusterID: "lkc-x", Metrics: metrics}
	}
	a, envA := replica()
	b, envB := replica()
	unit := chartScope{owns: func(name string) bool { return strings.HasPrefix(name, "edh-shared-scada-dev-") }}
	scopes := []chartScope{unit}
	for i := range 2 {
		scopes = append(scopes, chartScope{topic: fmt.Sprintf("edh-shared-scada-dev-t%d", i), owns: unit.owns})
	}
	ranges := []metric.MetricRange{metric.MetricRanges[0], metric.MetricRanges[1]}
	drawn, missing, oldest := 0, 0, time.Duration(0)
	for second := 0; second < 600; second += 10 {
		for i, m := range []*MetricCache{a, b} {
			env := []*platform.Environment{envA, envB}[i]
			for _, r := range ranges {
				for _, sc := range scopes {
					c := m.charts(ctx, env, r, sc)
					// How far past its step the oldest answer drawn is.
					if late := clock().Sub(c.FetchedAt) - r.Step; second >= 180 && !c.FetchedAt.IsZero() && late > oldest {
						oldest = late
					}
					for _, ch := range c.Charts {
						// The first answers of every query (twelve of ten
						// pages) take the first three minutes' budget.
						if ch.Unavailable != "" && second >= 180 {
							if missing == 0 {
								t.Logf("at %d s, %s: %s", second, ch.ID, ch.Unavailable)
							}
							missing++
						} else {
							drawn++
						}
					}
				}
			}
		}
		mu.Lock()
		now = now.Add(10 * time.Second)
		mu.Unlock()
	}
	mu.Lock()
	defer mu.Unlock()
	for minute, n := range perMinute {
		if n > 60 {
			t.Errorf("minute %d: %d Metrics API requests, over the published 60", minute, n)
		}
	}
	if missing > 0 {
		t.Errorf("%d charts were not drawn after the first three minutes (%d were)", missing, drawn)
	}
	if oldest > 4*time.Minute {
		t.Errorf("a chart drawn with an answer %v past its step: refreshes starved", oldest)
	}
	if len(perMinute) < 9 {
		t.Errorf("requests in %d of 10 minutes: charts stopped being refreshed (%v)", len(perMinute), perMinute)
	}
	t.Logf("Metrics API requests a minute over ten minutes of two replicas: %v; the answer drawn longest past its step: %v", perMinute, oldest)
}
