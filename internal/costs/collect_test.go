package costs

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/store"
	"github.com/edh-platform/rms-portal/internal/store/sqlite"
	"github.com/edh-platform/rms-portal/internal/store/sqlitetest"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// fakeMetrics answers grouped hourly queries: 1 GB written an hour per
// topic, 2 read, 5 retained; down refuses as an outage; queries counts
// them.
type fakeMetrics struct {
	mu      sync.Mutex
	down    error
	queries int
	topics  []string
}

func (f *fakeMetrics) QueryMetric(_ context.Context, q platform.MetricQuery) ([]platform.MetricPoint, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.queries++
	if f.down != nil {
		return nil, f.down
	}
	v := map[string]float64{platform.MetricReceivedBytes: 1e9, platform.MetricSentBytes: 2e9, platform.MetricRetainedBytes: 5e9}[q.Metric]
	var out []platform.MetricPoint
	for h := q.Start; h.Before(q.End); h = h.Add(time.Hour) {
		for _, t := range f.topics {
			out = append(out, platform.MetricPoint{At: h, Value: v, Labels: map[string]string{platform.LabelTopic: t}})
		}
	}
	return out, nil
}

// listed is a cluster's topic list (the only read the collector makes
// of the cluster).
type listed struct {
	platform.Topics
	topics []platform.TopicInfo
}

func (l listed) ListTopics(context.Context) ([]platform.TopicInfo, error) { return l.topics, nil }

// TestCollectorGapsAreFilledLater: a stage's month is read in one round
// of three queries whatever its topics; an hour the Metrics API does not
// give is a gap with its reason, not a zero; the next round reads it
// again and the gap goes.
func TestCollectorGapsAreFilledLater(t *testing.T) {
	ctx := context.Background()
	st, _, err := sqlite.Open(ctx, sqlitetest.File(t, ""), 5*time.Second, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ten, err := tenancy.New(tenancy.Spec{Stages: []tenancy.Stage{{Name: "dev"}}, LandingZones: []tenancy.ZoneSpec{
		{ID: "edh-shared", MainBU: "platform", Units: []tenancy.UnitSpec{{ID: "platform"}, {ID: "scada"}, {ID: "crm"}}}}})
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"edh-shared-scada-dev-a", "edh-shared-scada-dev-b", "edh-shared-crm-dev-c", "legacy"}
	var infos []platform.TopicInfo
	for _, n := range names {
		infos = append(infos, platform.TopicInfo{Name: n, Partitions: 2})
	}
	metrics := &fakeMetrics{topics: names}
	env := &platform.Environment{Zone: "edh-shared", Stage: "dev", Metrics: metrics, ClusterID: "lkc-1", Topics: listed{topics: infos}}
	now := time.Date(2026, 11, 20, 10, 30, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	c := NewCollector(Options{Store: st, Tenancy: func() *tenancy.Tenancy { return ten }, Envs: func() []*platform.Environment { return []*platform.Environment{env} },
		Backfill: 10 * 24 * time.Hour, Now: clock})
	n, err := c.Round(ctx)
	if err != nil || n != 240 || metrics.queries != 3 {
		t.Fatalf("the first round: %d hours, %d queries, %v", n, metrics.queries, err)
	}
	days, err := st.UnitUsageDays(ctx, "edh-shared", "dev", "scada", now.AddDate(0, 0, -11), now)
	if err != nil || len(days) != 11 || days[1].Hours != 24 || days[1].BytesIn != 2*24e9 || days[1].RetainedBytes != 2*5e9 || days[1].Partitions != 4 || days[1].Topics != 2 {
		t.Fatalf("scada's days: %+v %v", days, err)
	}
	// Two hours later, the API is down: the hours are gaps.
	now = now.Add(2 * time.Hour)
	metrics.down = portal.New(portal.UpstreamUnavailable, "metrics API down")
	if _, err := c.Round(ctx); err == nil {
		t.Fatal("a round against a stopped API says nothing")
	}
	gaps, _ := st.UsageGaps(ctx, "edh-shared", "dev", now.Add(-3*time.Hour), now)
	if len(gaps) != 2 || gaps[0].Reason != "the Metrics API is unavailable" {
		t.Fatalf("gaps %+v", gaps)
	}
	hours, _ := st.UnitUsageHours(ctx, "edh-shared", "dev", "scada", now.Add(-3*time.Hour), now)
	if len(hours) != 0 {
		t.Errorf("an hour not read is shown: %+v", hours)
	}
	// Back: the next round reads them, and the gaps go.
	metrics.down = nil
	if n, err := c.Round(ctx); err != nil || n != 2 {
		t.Fatalf("the round after: %d %v", n, err)
	}
	if gaps, _ := st.UsageGaps(ctx, "", "", now.AddDate(0, 0, -20), now); len(gaps) != 0 {
		t.Errorf("gaps left: %+v", gaps)
	}
	if hours, _ := st.UnitUsageHours(ctx, "edh-shared", "dev", store.AllUnits, now.Add(-3*time.Hour), now); len(hours) != 3*2 {
		t.Errorf("filled hours: %+v", hours)
	}
}

// TestStagesThatFailDoNotHoldOthersBack: with one stage a round, a stage
// whose API is down is tried again only after the others had their turn.
func TestStagesThatFailDoNotHoldOthersBack(t *testing.T) {
	ctx := context.Background()
	st, _, err := sqlite.Open(ctx, sqlitetest.File(t, ""), 5*time.Second, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ten, err := tenancy.New(tenancy.Spec{Stages: []tenancy.Stage{{Name: "dev"}, {Name: "qas"}}, LandingZones: []tenancy.ZoneSpec{
		{ID: "z", MainBU: "a", Units: []tenancy.UnitSpec{{ID: "a"}}}}})
	if err != nil {
		t.Fatal(err)
	}
	down := &fakeMetrics{down: portal.New(portal.UpstreamUnavailable, "down")}
	up := &fakeMetrics{topics: []string{"z-a-qas-t"}}
	envs := []*platform.Environment{
		{Zone: "z", Stage: "dev", Metrics: down, ClusterID: "lkc-dev", Topics: listed{}},
		{Zone: "z", Stage: "qas", Metrics: up, ClusterID: "lkc-qas", Topics: listed{topics: []platform.TopicInfo{{Name: "z-a-qas-t", Partitions: 1}}}},
	}
	now := time.Date(2026, 11, 20, 10, 30, 0, 0, time.UTC)
	c := NewCollector(Options{Store: st, Tenancy: func() *tenancy.Tenancy { return ten }, Envs: func() []*platform.Environment { return envs },
		Backfill: 24 * time.Hour, StagesPerRound: 1, Now: func() time.Time { now = now.Add(time.Second); return now }})
	for range 3 {
		_, _ = c.Round(ctx)
	}
	if m, _ := st.UsageMark(ctx, "z", "qas"); m.IsZero() || down.queries != 2 || up.queries != 3 {
		t.Errorf("qas read %v, dev tried %d times, qas queried %d times", m, down.queries, up.queries)
	}
}
