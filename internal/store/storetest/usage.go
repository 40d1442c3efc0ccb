package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/store"
)

// testUsage: hours roll up into the topics' and units' days; a replaced
// hour replaces its share of the day; gaps are recorded, counted and
// removed by the hour's data; marks move; retention drops the old.
func testUsage(t *testing.T, s store.Store) {
	ctx := context.Background()
	day := time.Date(2026, 11, 3, 0, 0, 0, 0, time.UTC)
	h0, h1 := day, day.Add(time.Hour)
	rows := []store.UsageHour{
		{Topic: "edh-shared-scada-dev-a", BU: "scada", Hour: h0, RetainedBytes: 100, BytesIn: 10, BytesOut: 20, Partitions: 3},
		{Topic: "edh-shared-scada-dev-b", BU: "scada", Hour: h0, RetainedBytes: 50, BytesIn: 5, BytesOut: 5, Partitions: 1},
		{Topic: "edh-shared-gis-dev-c", BU: "gis", Hour: h0, RetainedBytes: 10, BytesIn: 1, BytesOut: 1, Partitions: 2},
		{Topic: "edh-shared-scada-dev-a", BU: "scada", Hour: h1, RetainedBytes: 300, BytesIn: 30, BytesOut: 40, Partitions: 3},
	}
	if err := s.AddUsageGaps(ctx, []store.UsageGap{{Zone: "edh-shared", Stage: "dev", Hour: h1, Reason: "down"}}); err != nil {
		t.Fatal(err)
	}
	if err := s.AddUsageGaps(ctx, []store.UsageGap{{Zone: "edh-shared", Stage: "dev", Hour: h1, Reason: "budget"}}); err != nil {
		t.Fatal(err)
	}
	gaps, err := s.UsageGaps(ctx, "edh-shared", "dev", day, day.Add(24*time.Hour))
	if err != nil || len(gaps) != 1 || gaps[0].Tries != 2 || gaps[0].Reason != "budget" || !gaps[0].Hour.Equal(h1) {
		t.Fatalf("gaps: %+v %v", gaps, err)
	}
	if err := s.PutUsageHours(ctx, "edh-shared", "dev", []time.Time{h0, h1}, rows); err != nil {
		t.Fatal(err)
	}
	if gaps, _ := s.UsageGaps(ctx, "", "", day, day.Add(24*time.Hour)); len(gaps) != 0 {
		t.Errorf("a filled hour is still a gap: %+v", gaps)
	}
	units, err := s.UnitUsageDays(ctx, "edh-shared", "dev", store.AllUnits, day, day.Add(24*time.Hour))
	if err != nil || len(units) != 2 {
		t.Fatalf("units' days: %+v %v", units, err)
	}
	var scada store.UsageDay
	for _, u := range units {
		if u.BU == "scada" {
			scada = u
		}
	}
	// a: mean retained 200, b: 50 (one hour known); in 10+5+30.
	if scada.RetainedBytes != 250 || scada.BytesIn != 45 || scada.BytesOut != 65 || scada.Partitions != 4 || scada.Hours != 2 || scada.Topics != 2 {
		t.Errorf("scada's day: %+v", scada)
	}
	// The same hour again replaces it.
	if err := s.PutUsageHours(ctx, "edh-shared", "dev", []time.Time{h1}, []store.UsageHour{
		{Topic: "edh-shared-scada-dev-a", BU: "scada", Hour: h1, RetainedBytes: 100, BytesIn: 1, BytesOut: 1, Partitions: 3}}); err != nil {
		t.Fatal(err)
	}
	topics, err := s.TopicUsageDays(ctx, "edh-shared", "dev", "scada", day, day.Add(24*time.Hour))
	if err != nil || len(topics) != 2 || topics[0].Topic != "edh-shared-scada-dev-a" || topics[0].BytesIn != 11 || topics[0].RetainedBytes != 100 {
		t.Fatalf("topics' days after a replace: %+v %v", topics, err)
	}
	hours, err := s.UnitUsageHours(ctx, "edh-shared", "dev", "gis", day, day.Add(24*time.Hour))
	if err != nil || len(hours) != 1 || hours[0].Partitions != 2 {
		t.Errorf("gis's hours: %+v %v", hours, err)
	}
	if th, err := s.TopicUsageHours(ctx, "edh-shared", "dev", "scada", day, day.Add(24*time.Hour)); err != nil || len(th) != 3 {
		t.Errorf("scada's topics' hours: %d %v", len(th), err)
	}
	if m, err := s.UsageMark(ctx, "edh-shared", "dev"); err != nil || !m.IsZero() {
		t.Errorf("no mark yet: %v %v", m, err)
	}
	for _, at := range []time.Time{h0, h1} {
		if err := s.SetUsageMark(ctx, "edh-shared", "dev", at); err != nil {
			t.Fatal(err)
		}
	}
	if m, _ := s.UsageMark(ctx, "edh-shared", "dev"); !m.Equal(h1) {
		t.Errorf("mark %v", m)
	}
	if n, err := s.DeleteUsageBefore(ctx, day.Add(48*time.Hour), day); err != nil || n != 7 { // 4 topic-hours, 3 unit-hours
		t.Errorf("past the hours' retention: %d removed, %v", n, err)
	}
	if d, _ := s.UnitUsageDays(ctx, "edh-shared", "dev", store.AllUnits, day, day.Add(24*time.Hour)); len(d) != 2 {
		t.Errorf("days kept longer than hours: %+v", d)
	}
}

// testCosts: a day's lines are replaced whole; shares of the same line
// and unit add up; topic costs come costliest first.
func testCosts(t *testing.T, s store.Store) {
	ctx := context.Background()
	day := time.Date(2026, 11, 3, 0, 0, 0, 0, time.UTC)
	line := store.CostRecord{Day: day, ID: "dlz-1", Product: "KAFKA", LineType: "KAFKA_STORAGE", ResourceID: "lkc-1", Amount: 2}
	if err := s.PutCostDays(ctx, []time.Time{day}, []store.CostRecord{line, {Day: day, ID: "dlz-2", LineType: "SUPPORT", Amount: 30}}); err != nil {
		t.Fatal(err)
	}
	line.Amount = 3
	if err := s.PutCostDays(ctx, []time.Time{day}, []store.CostRecord{line}); err != nil {
		t.Fatal(err)
	}
	lines, err := s.CostLines(ctx, day, day.AddDate(0, 0, 1))
	if err != nil || len(lines) != 1 || lines[0].Amount != 3 {
		t.Fatalf("a refreshed day: %+v %v", lines, err)
	}
	if days, _ := s.CostDays(ctx, day.AddDate(0, 0, -1), day.AddDate(0, 0, 2)); len(days) != 1 || !days[0].Equal(day) {
		t.Errorf("days %v", days)
	}
	share := store.CostShare{Zone: "edh-shared", Stage: "dev", BU: "scada", LineType: "KAFKA_STORAGE", ResourceID: "lkc-1", Rule: "retained bytes",
		LineAmount: 3, UnitUse: 1, TotalUse: 3, Amount: 1}
	if err := s.PutCostShares(ctx, day, []store.CostShare{share, share}); err != nil {
		t.Fatal(err)
	}
	shares, err := s.CostShares(ctx, "edh-shared", "", "scada", day, day.AddDate(0, 0, 1))
	if err != nil || len(shares) != 1 || shares[0].Amount != 2 || !shares[0].Day.Equal(day) {
		t.Fatalf("shares: %+v %v", shares, err)
	}
	if err := s.PutCostShares(ctx, day, nil); err != nil {
		t.Fatal(err)
	}
	if shares, _ := s.CostShares(ctx, "", "", store.AllUnits, day, day.AddDate(0, 0, 1)); len(shares) != 0 {
		t.Errorf("a replaced day keeps %+v", shares)
	}
	month := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	if err := s.PutTopicCosts(ctx, "edh-shared", "dev", month, []store.TopicCost{
		{Topic: "a", BU: "scada", Amount: 1}, {Topic: "b", BU: "scada", Amount: 5}, {Topic: "c", BU: "gis", Amount: 9}}); err != nil {
		t.Fatal(err)
	}
	top, err := s.TopicCosts(ctx, "edh-shared", "dev", "scada", month, 1)
	if err != nil || len(top) != 1 || top[0].Topic != "b" {
		t.Errorf("top topics: %+v %v", top, err)
	}
}
