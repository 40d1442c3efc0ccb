package present

import (
	"strconv"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal/cost"
	"github.com/edh-platform/rms-portal/internal/wire"
)

// Number is a figure as the costs' CSV writes it: as short as it is exact.
func Number(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// Day is a date in ISO 8601 (UTC).
func Day(t time.Time) string { return t.UTC().Format(time.DateOnly) }

// UsageGaps is the hours a usage report could not read, with why.
func UsageGaps(gaps []cost.UsageGap) []wire.UsageGap {
	out := make([]wire.UsageGap, 0, len(gaps))
	for _, g := range gaps {
		out = append(out, wire.UsageGap{Hour: Stamp(g.Hour), Reason: g.Reason})
	}
	return out
}

// Usage is a unit's usage over a range.
func Usage(r cost.UsageReport) wire.UsageReport {
	out := wire.UsageReport{BusinessUnit: r.Unit, Stage: r.Stage, From: Stamp(r.Query.From), To: Stamp(r.Query.To), Granularity: r.Query.Granularity,
		GroupBy: r.Query.GroupBy, Source: r.Source, Points: make([]wire.UsagePoint, 0, len(r.Points)), Gaps: UsageGaps(r.Gaps)}
	for _, p := range r.Points {
		out.Points = append(out.Points, wire.UsagePoint{Time: Stamp(p.At), Topic: p.Topic, RetainedBytes: p.RetainedBytes, BytesIn: p.BytesIn,
			BytesOut: p.BytesOut, Partitions: p.Partitions, Hours: p.Hours})
	}
	return out
}

// Costs is a unit's costs over a range, by resource and by day.
func Costs(r cost.CostReport) wire.CostReport {
	f := r.Forecast
	out := wire.CostReport{BusinessUnit: r.Unit, Stage: r.Stage, From: Day(r.Query.From), To: Day(r.Query.To), GroupBy: r.Query.GroupBy,
		Currency: r.Currency, BaseRule: r.BaseRule, Total: r.Total, ByCategory: r.ByCategory, Days: make([]wire.CostDay, 0, len(r.Days)),
		Gaps: UsageGaps(r.Gaps), Forecast: wire.CostForecast{Month: f.Month.Format("2006-01"), SoFar: f.SoFar, Amount: f.Amount, Low: f.Low,
			High: f.High, DailyMean: f.DailyMean, DaysBilled: f.DaysBilled, DaysLeft: f.DaysLeft, Method: f.Method, Budget: f.Budget, Over: f.Over}}
	for _, d := range r.Days {
		out.Days = append(out.Days, wire.CostDay{Day: Day(d.Day), Amount: d.Amount, ByCategory: d.ByCategory})
	}
	for _, l := range r.Lines {
		out.Lines = append(out.Lines, wire.CostShare{Day: Day(l.Day), LineType: l.LineType, Category: l.Category, ResourceID: l.ResourceID,
			ResourceName: l.ResourceName, Rule: l.Rule, LineAmount: l.LineAmount, UnitUse: l.UnitUse, TotalUse: l.TotalUse, Amount: l.Amount})
	}
	for _, t := range r.Topics {
		out.Topics = append(out.Topics, wire.TopicCost{Topic: t.Topic, Amount: t.Amount, Storage: t.Storage, Network: t.Network,
			Partitions: t.Partitions, Base: t.Base})
	}
	return out
}

// ZoneCosts is a zone's costs, unit by unit.
func ZoneCosts(r cost.ZoneCostReport) wire.ZoneCostReport {
	out := wire.ZoneCostReport{LandingZone: r.Zone, Month: r.Month.Format("2006-01"), Currency: r.Currency, BaseRule: r.BaseRule,
		Units: make([]wire.UnitCost, 0, len(r.Units)), Unallocated: r.Unallocated, Organisation: r.Organisation, OtherZones: r.OtherZones, Total: r.Total}
	for _, u := range r.Units {
		out.Units = append(out.Units, wire.UnitCost{BusinessUnit: u.Unit, Amount: u.Amount, ByStage: u.ByStage, ByCategory: u.ByCategory, Forecast: u.Forecast})
	}
	return out
}
