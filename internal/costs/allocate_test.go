package costs

import (
	"math"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/store"

	"github.com/edh-platform/rms-portal/internal/portal"
)

var day = time.Date(2026, 11, 3, 0, 0, 0, 0, time.UTC)

func usageOf() []store.UsageDay {
	return []store.UsageDay{
		{BU: "scada", RetainedBytes: 300, BytesIn: 10, BytesOut: 30, Partitions: 6},
		{BU: "crm", RetainedBytes: 100, BytesIn: 30, BytesOut: 10, Partitions: 2},
		{BU: "", RetainedBytes: 0, BytesIn: 0, BytesOut: 0, Partitions: 0},
	}
}

func inputs(rule string) Inputs {
	return Inputs{
		Clusters: map[string]Cluster{"lkc-shared": {Zone: "edh-shared", Stage: "dev"}, "lsrc-shared": {Zone: "edh-shared", Stage: "dev"},
			"lkc-sales": {Zone: "sales", Stage: "dev", Dedicated: "sales"}},
		Connectors: map[string]store.CostShare{"lcc-1": {Zone: "edh-shared", Stage: "dev", BU: "crm"}},
		Usage:      map[portal.ZoneStage][]store.UsageDay{{Zone: "edh-shared", Stage: "dev"}: usageOf()},
		BaseRule:   rule,
	}
}

func shareOf(shares []store.CostShare, lineType, bu string) (store.CostShare, bool) {
	for _, s := range shares {
		if s.LineType == lineType && s.BU == bu {
			return s, true
		}
	}
	return store.CostShare{}, false
}

// TestAllocateByUsage: each line of a shared cluster is split by the
// usage it pays for, shares add up to the line, a dedicated cluster's
// line is its unit's, a connector's its owner's, support the
// organisation's, and a line with no usage known stays unallocated.
func TestAllocateByUsage(t *testing.T) {
	lines := []store.CostRecord{
		{LineType: "KAFKA_STORAGE", ResourceID: "lkc-shared", Amount: 4},
		{LineType: "KAFKA_NETWORK_WRITE", ResourceID: "lkc-shared", Amount: 8},
		{LineType: "KAFKA_NETWORK_READ", ResourceID: "lkc-shared", Amount: 8},
		{LineType: "KAFKA_PARTITION", ResourceID: "lkc-shared", Amount: 1},
		{LineType: "KAFKA_BASE", ResourceID: "lkc-shared", Amount: 36},
		{LineType: "GOVERNANCE_BASE", ResourceID: "lsrc-shared", Amount: 0.5},
		{LineType: "KAFKA_NUM_CKUS", ResourceID: "lkc-sales", Amount: 54},
		{LineType: "CONNECT_NUM_TASKS", ResourceID: "lcc-1", Amount: 0.8},
		{LineType: "SUPPORT", Amount: 33.3},
		{LineType: "KAFKA_STORAGE", ResourceID: "lkc-unknown", Amount: 2},
	}
	shares := Allocate(day, lines, inputs(BaseEqual))
	want := []struct {
		line, bu, rule string
		amount         float64
	}{
		{"KAFKA_STORAGE", "scada", RuleRetained, 3}, {"KAFKA_STORAGE", "crm", RuleRetained, 1},
		{"KAFKA_NETWORK_WRITE", "scada", RuleBytesIn, 2}, {"KAFKA_NETWORK_WRITE", "crm", RuleBytesIn, 6},
		{"KAFKA_NETWORK_READ", "scada", RuleBytesOut, 6}, {"KAFKA_PARTITION", "scada", RulePartitions, 0.75},
		{"KAFKA_BASE", "scada", RuleEqual, 18}, {"KAFKA_BASE", "crm", RuleEqual, 18}, {"GOVERNANCE_BASE", "crm", RuleEqual, 0.25},
		{"KAFKA_NUM_CKUS", "sales", RuleDedicated, 54}, {"CONNECT_NUM_TASKS", "crm", RuleConnector, 0.8}, {"SUPPORT", "", RuleOrg, 33.3},
	}
	for _, w := range want {
		s, ok := shareOf(shares, w.line, w.bu)
		if !ok || s.Rule != w.rule || math.Abs(s.Amount-w.amount) > 1e-9 || math.Abs(s.LineAmount*s.UnitUse/s.TotalUse-s.Amount) > 1e-9 {
			t.Errorf("%s of %q: %+v (%v), want %s %v", w.line, w.bu, s, ok, w.rule, w.amount)
		}
	}
	if _, ok := shareOf(shares, "KAFKA_BASE", ""); ok {
		t.Error("the topics of no unit took a share of the equal split")
	}
	total, lineTotal := 0.0, 0.0
	for _, s := range shares {
		total += s.Amount
	}
	for _, l := range lines {
		lineTotal += l.Amount
	}
	if math.Abs(total-lineTotal) > 1e-9 {
		t.Errorf("shares add up to %f, lines to %f", total, lineTotal)
	}
	// Base by partitions and by bytes.
	if s, _ := shareOf(Allocate(day, lines[4:5], inputs(BasePartitions)), "KAFKA_BASE", "scada"); s.Amount != 27 || s.Rule != RulePartitions {
		t.Errorf("base by partitions: %+v", s)
	}
	if s, _ := shareOf(Allocate(day, lines[4:5], inputs(BaseBytes)), "KAFKA_BASE", "crm"); s.Amount != 18 || s.Rule != RuleBytes {
		t.Errorf("base by bytes: %+v", s)
	}
	// No usage known for the day: not split by a guess.
	in := inputs(BaseEqual)
	in.Usage = nil
	if s := Allocate(day, lines[:1], in); len(s) != 1 || s[0].BU != "" || s[0].Rule != RuleNoUsage || s[0].Amount != 4 {
		t.Errorf("no usage: %+v", s)
	}
}

// TestSplitTopics: a unit's month is divided across its topics by what
// each used; the topics add up to the unit's lines other than connect.
func TestSplitTopics(t *testing.T) {
	month := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	shares := []store.CostShare{
		{Zone: "z", Stage: "dev", BU: "a", LineType: "KAFKA_STORAGE", Amount: 10},
		{Zone: "z", Stage: "dev", BU: "a", LineType: "KAFKA_NETWORK_READ", Amount: 4},
		{Zone: "z", Stage: "dev", BU: "a", LineType: "KAFKA_BASE", Amount: 6},
		{Zone: "z", Stage: "dev", BU: "a", LineType: "CONNECT_NUM_TASKS", Amount: 100},
		{Zone: "z", Stage: "qas", BU: "a", LineType: "KAFKA_STORAGE", Amount: 1000},
	}
	topics := []TopicMonth{{Topic: "t1", BU: "a", Retained: 3, In: 1, Out: 0, Partitions: 1}, {Topic: "t2", BU: "a", Retained: 1, In: 1, Out: 2, Partitions: 3}}
	got := SplitTopics("z", "dev", month, shares, topics, BaseEqual)
	if len(got) != 2 || got[0].Topic != "t1" || got[0].Storage != 7.5 || got[0].Network != 1 || got[0].Base != 3 || got[0].Amount != 11.5 {
		t.Fatalf("t1: %+v", got)
	}
	if got[1].Amount != 2.5+3+3 {
		t.Errorf("t2: %+v", got[1])
	}
}

// TestProject: the month so far plus the last 7 days' mean times the
// days left, with their least and most as the range.
func TestProject(t *testing.T) {
	month := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	daily := map[time.Time]float64{}
	for d := 0; d < 10; d++ {
		daily[month.AddDate(0, 0, d)] = float64(10 + d%2*10) // 10, 20, 10, ...
	}
	daily[month.AddDate(0, 0, -1)] = 1000 // October: not this month's
	f := Project(month, daily)
	// So far: 5x10 + 5x20 = 150; last 7 days (3..9): 20,10,20,10,20,10,20 → 110/7.
	if f.SoFar != 150 || f.DaysBilled != 10 || f.DaysLeft != 20 || math.Abs(f.DailyMean-110.0/7) > 1e-9 {
		t.Fatalf("%+v", f)
	}
	if math.Abs(f.Amount-(150+20*110.0/7)) > 1e-9 || f.Low != 150+20*10 || f.High != 150+20*20 {
		t.Errorf("%+v", f)
	}
	// The first day of a month: last month's week is the trend.
	f = Project(month.AddDate(0, 1, 0), daily)
	if f.SoFar != 0 || f.DaysLeft != 31 {
		t.Errorf("a month not billed yet: %+v", f)
	}
}
