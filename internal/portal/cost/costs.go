// Package cost is the contract of usage and cost per business unit and
// stage, and of a landing zone's costs by unit.
package cost

import (
	"context"
	"strconv"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// UsageQuery asks for a unit's usage over [From, To): by hour or by day
// (Granularity "hour" or "day"), summed over the unit's topics or
// (GroupBy "topic") topic by topic.
type UsageQuery struct {
	From, To    time.Time
	Granularity string
	GroupBy     string
}

// UsagePoint is a bucket of usage: the mean retained bytes and
// partitions, the bytes written and read; Hours is how many of its hours
// are known.
type UsagePoint struct {
	At                time.Time
	Topic             string
	RetainedBytes     float64
	BytesIn, BytesOut float64
	Partitions        float64
	Hours             int
}

// UsageGap is an hour whose usage the Metrics API did not give (shown
// as a gap, never as zero).
type UsageGap struct {
	Hour   time.Time
	Reason string
}

// UsageReport is a unit's usage in a stage.
type UsageReport struct {
	Unit, Stage string
	Query       UsageQuery
	Points      []UsagePoint
	Gaps        []UsageGap
	Source      string
}

// CostQuery asks for a unit's costs over [From, To) (UTC days), by day,
// grouped by line (each line's share with its rule and inputs) or by
// topic (the month's topics, costliest first).
type CostQuery struct {
	From, To time.Time
	GroupBy  string
	// Limit bounds the topics (100 when 0).
	Limit int
}

// CostShare is a unit's share of one cost line of a day, and how it was
// made: Amount = LineAmount x UnitUse / TotalUse.
type CostShare struct {
	Day                           time.Time
	Stage                         string
	LineType, Category            string
	ResourceID, ResourceName      string
	Rule                          string
	LineAmount, UnitUse, TotalUse float64
	Amount                        float64
}

// CostDay is a unit's costs of a day by category (storage, network,
// partitions, base, connect, other).
type CostDay struct {
	Day        time.Time
	Amount     float64
	ByCategory map[string]float64
}

// TopicCost is a topic's share of its unit's month.
type TopicCost struct {
	Topic                              string
	Amount                             float64
	Storage, Network, Partitions, Base float64
}

// CostForecast is a month-end estimate, with its method and range.
type CostForecast struct {
	Month                time.Time
	SoFar, Amount        float64
	Low, High            float64
	DailyMean            float64
	DaysBilled, DaysLeft int
	Method               string
	// Budget is the unit's monthly amount (0: none), Over whether the
	// forecast passes it.
	Budget float64
	Over   bool
}

// CostReport is a unit's costs in a stage.
type CostReport struct {
	Unit, Stage string
	Query       CostQuery
	Currency    string
	BaseRule    string
	Total       float64
	ByCategory  map[string]float64
	Days        []CostDay
	Lines       []CostShare
	Topics      []TopicCost
	Forecast    CostForecast
	// Gaps are the hours of the range whose usage is not known: the
	// shares of their days leave out what was used then.
	Gaps []UsageGap
}

// UnitCost is one unit's month in a zone report.
type UnitCost struct {
	Unit       string
	Amount     float64
	ByStage    map[string]float64
	ByCategory map[string]float64
	Forecast   float64
	Budget     float64
}

// ZoneCostReport is every unit of a zone side by side for a month; the
// units, the unallocated (topics of no unit, usage unknown) and the
// organisation's own lines add up to the organisation's costs.
type ZoneCostReport struct {
	Zone         string
	Month        time.Time
	Currency     string
	BaseRule     string
	Units        []UnitCost
	Unallocated  float64
	Organisation float64
	OtherZones   float64
	Total        float64
}

// CostService answers usage and costs.
type CostService interface {
	// Usage is a unit's usage in a stage (Viewers and up).
	Usage(ctx context.Context, scope portal.Scope, q UsageQuery) (UsageReport, error)
	// Costs is a unit's costs in a stage, with its month's forecast.
	Costs(ctx context.Context, scope portal.Scope, q CostQuery) (CostReport, error)
	// ZoneCosts is a zone's units side by side (the zone's Super Admins
	// and platform admins).
	ZoneCosts(ctx context.Context, zone string, month time.Time) (ZoneCostReport, error)
}

// CostCategories are the categories of cost lines, in the order charts
// and tables show them.
var CostCategories = []string{"storage", "network", "partitions", "base", "connect", "other"}

func amount(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// Rows are a cost report as a table (CSV), the same numbers in both
// doors: its shares (group_by line), its topics (group_by topic), or its
// days by category.
func (r CostReport) Rows() [][]string {
	switch r.Query.GroupBy {
	case "line":
		rows := [][]string{{"day", "line_type", "category", "resource_id", "resource_name", "rule", "line_amount", "unit_use", "total_use", "amount"}}
		for _, l := range r.Lines {
			rows = append(rows, []string{l.Day.Format(time.DateOnly), l.LineType, l.Category, l.ResourceID, l.ResourceName, l.Rule,
				amount(l.LineAmount), amount(l.UnitUse), amount(l.TotalUse), amount(l.Amount)})
		}
		return rows
	case "topic":
		rows := [][]string{{"topic", "amount", "storage", "network", "partitions", "base"}}
		for _, t := range r.Topics {
			rows = append(rows, []string{t.Topic, amount(t.Amount), amount(t.Storage), amount(t.Network), amount(t.Partitions), amount(t.Base)})
		}
		return rows
	}
	rows := [][]string{append([]string{"day", "amount"}, CostCategories...)}
	for _, d := range r.Days {
		row := []string{d.Day.Format(time.DateOnly), amount(d.Amount)}
		for _, c := range CostCategories {
			row = append(row, amount(d.ByCategory[c]))
		}
		rows = append(rows, row)
	}
	return rows
}

// Rows are a zone report as a table (CSV), the page's numbers.
func (r ZoneCostReport) Rows() [][]string {
	rows := [][]string{{"business_unit", "amount", "forecast"}}
	for _, u := range r.Units {
		rows = append(rows, []string{u.Unit, amount(u.Amount), amount(u.Forecast)})
	}
	return append(rows, []string{"(unallocated)", amount(r.Unallocated), ""}, []string{"(organisation)", amount(r.Organisation), ""},
		[]string{"(other zones)", amount(r.OtherZones), ""}, []string{"(total)", amount(r.Total), ""})
}
