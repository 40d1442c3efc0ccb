package topics_test

import (
	"strings"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/metric"
	"github.com/edh-platform/rms-portal/internal/servicetest"
)

// chartWorld has, on scada's dev cluster, a minute of throughput of one
// of scada's topics and of one of crm's, and lag of a group of each; the
// clock stands 20 s into the newest minute.
func chartWorld(t *testing.T) (*servicetest.World, string, time.Time) {
	w := servicetest.New(t)
	sd := w.Seed(t, "scada", "dev")
	now := time.Date(2026, 11, 22, 10, 30, 20, 0, time.UTC)
	w.Charts.SetClock(func() time.Time { return now })
	full, prev := now.Truncate(time.Minute).Add(-time.Minute), now.Truncate(time.Minute)
	const lkc = "lkc-edh-shared-dev"
	other := "edh-shared-crm-dev-orders"
	for _, tp := range []struct {
		topic string
		scale float64
	}{{sd.Topic, 1}, {other, 10}} {
		topic := map[string]string{platform.LabelTopic: tp.topic}
		w.Metrics.Put(lkc, platform.MetricReceivedBytes, full, 6000*tp.scale, topic)
		w.Metrics.Put(lkc, platform.MetricReceivedBytes, prev, 2000*tp.scale, topic)
		w.Metrics.Put(lkc, platform.MetricSentBytes, full, 3000*tp.scale, topic)
		w.Metrics.Put(lkc, platform.MetricReceivedRecords, full, 60*tp.scale, topic)
		w.Metrics.Put(lkc, platform.MetricRetainedBytes, full, 1e6*tp.scale, topic)
	}
	w.Metrics.Put(lkc, platform.MetricConsumerLag, full, 40, map[string]string{platform.LabelTopic: sd.Topic, platform.LabelGroup: "edh-shared-scada-dev-billing"})
	w.Metrics.Put(lkc, platform.MetricConsumerLag, full, 7, map[string]string{platform.LabelTopic: sd.Topic, platform.LabelGroup: "edh-shared-scada-dev-replay"})
	w.Metrics.Put(lkc, platform.MetricConsumerLag, full, 999, map[string]string{platform.LabelTopic: other, platform.LabelGroup: "edh-shared-crm-dev-other"})
	return w, sd.Topic, now
}

func lastOf(t *testing.T, c metric.Charts, chart, series string) float64 {
	t.Helper()
	for _, s := range c.Chart(chart).Series {
		if s.Name == series {
			if len(s.Points) == 0 {
				t.Fatalf("%s/%s has no points", chart, series)
			}
			return s.Last()
		}
	}
	t.Fatalf("%s has no series %s: %+v", chart, series, c.Chart(chart))
	return 0
}

// TestChartsAddUpTheUnit: the cluster page's charts add up the unit's
// topics and groups only, as rates per second over each bucket (the
// newest over the 20 s it covered), with the range's window and source.
func TestChartsAddUpTheUnit(t *testing.T) {
	w, topic, now := chartWorld(t)
	m, err := w.Topics.ClusterMetrics(servicetest.AsRole(portal.Viewer), portal.Scope{BU: "scada", Stage: "dev"}, "")
	if err != nil {
		t.Fatal(err)
	}
	c := m.Charts
	if c.Range.Name != "1h" || !c.End.Equal(now.Truncate(time.Minute).Add(time.Minute)) || c.End.Sub(c.Start) != time.Hour || c.Stale != "" {
		t.Fatalf("range %+v %s..%s stale %q", c.Range, c.Start, c.End, c.Stale)
	}
	in := c.Chart("bytes").Series[0]
	if len(in.Points) != 60 || in.Points[58].Value != 100 || in.Last() != 100 || in.Points[0].Value != 0 {
		t.Fatalf("bytes in: %d points, [58]=%v last=%v", len(in.Points), in.Points[58].Value, in.Last())
	}
	if out := in.Points[58].Value; lastOf(t, c, "bytes", "out") != 0 || c.Chart("bytes").Series[1].Points[58].Value != 50 {
		t.Errorf("bytes out: %+v (in %v)", c.Chart("bytes").Series[1].Points[58], out)
	}
	if v := c.Chart("records").Series[0].Points[58].Value; v != 1 {
		t.Errorf("records in per second %v, want 1", v)
	}
	if v := lastOf(t, c, "retained", "retained"); v != 1e6 {
		t.Errorf("retained %v, want 1e6 (scada's only)", v)
	}
	lag := c.Chart("lag")
	if len(lag.Series) != 2 || lag.Series[0].Name != "edh-shared-scada-dev-billing" || lag.Series[0].Last() != 40 || lag.Series[1].Last() != 7 {
		t.Errorf("lag %+v", lag.Series)
	}
	tm, err := w.Topics.TopicMetrics(servicetest.AsRole(portal.Viewer), portal.Scope{BU: "scada", Stage: "dev"}, topic, "6h")
	if err != nil {
		t.Fatal(err)
	}
	if tm.Charts.Range.Granularity != "PT5M" || tm.Charts.End.Sub(tm.Charts.Start) != 6*time.Hour {
		t.Errorf("6h range %+v", tm.Charts.Range)
	}
	// 8000 bytes in the 5-minute bucket 10:25-10:30 (6000) and the 10:30
	// one (2000 over 20 s).
	if v := lastOf(t, tm.Charts, "bytes", "in"); v != 100 {
		t.Errorf("topic bytes in now %v", v)
	}
	if _, err := w.Topics.ClusterMetrics(servicetest.AsRole(portal.Viewer), portal.Scope{BU: "scada", Stage: "dev"}, "2h"); !portal.Is(err, portal.InvalidParameter) {
		t.Errorf("range 2h: %v", err)
	}
}

// TestChartsCachedAndStale: one answer serves until its newest bucket
// moves on; when the Metrics API refuses, the last values are shown with
// their age; without any, each chart says why it is unavailable.
func TestChartsCachedAndStale(t *testing.T) {
	w, _, now := chartWorld(t)
	clock := now
	w.Charts.SetClock(func() time.Time { return clock })
	if _, err := w.Topics.ClusterMetrics(servicetest.AsRole(portal.Viewer), portal.Scope{BU: "scada", Stage: "dev"}, "1h"); err != nil {
		t.Fatal(err)
	}
	if n := w.Metrics.Queries(); n != 6 {
		t.Fatalf("first page: %d queries, want 6", n)
	}
	// Another viewer, another unit of the same cluster, a moment later:
	// the same answers.
	clock = now.Add(30 * time.Second)
	if _, err := w.Topics.ClusterMetrics(servicetest.AsRole(portal.Admin), portal.Scope{BU: "scada", Stage: "dev"}, "1h"); err != nil {
		t.Fatal(err)
	}
	if n := w.Metrics.Queries(); n != 6 {
		t.Fatalf("warm page: %d queries, want still 6", n)
	}
	clock = now.Add(3 * time.Minute)
	w.Metrics.Fail(portal.New(portal.RateLimited, "rate limit reached"))
	m, err := w.Topics.ClusterMetrics(servicetest.AsRole(portal.Viewer), portal.Scope{BU: "scada", Stage: "dev"}, "1h")
	if err != nil {
		t.Fatal(err)
	}
	if m.Charts.Stale == "" || !m.Charts.FetchedAt.Equal(now) || lastOf(t, m.Charts, "retained", "retained") != 1e6 {
		t.Fatalf("stale charts: %q fetched %s", m.Charts.Stale, m.Charts.FetchedAt)
	}
	if n := w.Metrics.Queries(); n != 12 {
		t.Errorf("stale page asked %d queries, want 12", n)
	}
	// Nothing stored for 24h: each chart says why, nothing is a zero.
	m, err = w.Topics.ClusterMetrics(servicetest.AsRole(portal.Viewer), portal.Scope{BU: "scada", Stage: "dev"}, "24h")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range m.Charts.Charts {
		if c.Unavailable != "rate limit reached" || len(c.Series) != 0 {
			t.Errorf("chart %s: %q %+v", c.ID, c.Unavailable, c.Series)
		}
	}
	// Refusals that old values cannot excuse are not hidden.
	w.Metrics.Fail(nil)
	w.Env("edh-shared", "dev").Metrics = platform.Unconfigured{What: "the Confluent Cloud Metrics API", Env: "edh-shared/dev"}
	m, err = w.Topics.ClusterMetrics(servicetest.AsRole(portal.Viewer), portal.Scope{BU: "scada", Stage: "dev"}, "7d")
	if err != nil || m.Charts.Chart("bytes").Unavailable != "the Confluent Cloud Metrics API is not configured for edh-shared/dev" {
		t.Errorf("unconfigured: %+v %v", m.Charts.Chart("bytes"), err)
	}
}

// TestChartsWithoutClusterID: without the cluster's Cloud id the charts
// say so, and the Metrics API is not asked.
func TestChartsWithoutClusterID(t *testing.T) {
	w, _, _ := chartWorld(t)
	w.Env("edh-shared", "dev").ClusterID = ""
	m, err := w.Topics.ClusterMetrics(servicetest.AsRole(portal.Viewer), portal.Scope{BU: "scada", Stage: "dev"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if w.Metrics.Queries() != 0 || !strings.Contains(m.Charts.Chart("bytes").Unavailable, "kafka_cluster_id") {
		t.Errorf("%d queries, %q", w.Metrics.Queries(), m.Charts.Chart("bytes").Unavailable)
	}
}
