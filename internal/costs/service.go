package costs

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/cost"
	"github.com/edh-platform/rms-portal/internal/portal/topiccatalog"
	"github.com/edh-platform/rms-portal/internal/store"
)

// Currency is the Billing API's.
const Currency = "USD"

// Longest ranges a question may span: by topic, the answer holds a
// point a topic a bucket, so its ranges are shorter (a day by the hour,
// a month by the day: 310,000 points at 10,000 topics at most).
const (
	maxHourRange      = 31 * 24 * time.Hour
	maxDayRange       = 400 * 24 * time.Hour
	maxTopicHourRange = 24 * time.Hour
	maxTopicDayRange  = 31 * 24 * time.Hour
)

// Service answers usage and costs from the rollups (never from the
// upstream APIs: the collector reads those).
type Service struct {
	guard    *gate.Guard
	store    store.Store
	baseRule string
	now      func() time.Time
}

var _ cost.CostService = (*Service)(nil)

// NewService returns the service.
func NewService(g *gate.Guard, s store.Store, baseRule string, now func() time.Time) *Service {
	if baseRule == "" {
		baseRule = BaseEqual
	}
	if now == nil {
		now = time.Now
	}
	return &Service{guard: g, store: s, baseRule: baseRule, now: now}
}

// checkRange fills a range's defaults (this month so far, by day) and
// refuses one that is upside down or too long.
func (s *Service) checkRange(from, to *time.Time, longest time.Duration) error {
	now := s.now().UTC()
	if to.IsZero() {
		*to = now.Truncate(time.Hour).Add(time.Hour)
	}
	if from.IsZero() {
		*from = MonthOf(now)
		if to.Sub(*from) > longest {
			*from = to.Add(-longest)
		}
	}
	switch {
	case !from.Before(*to):
		return portal.Invalid("from", "from must be before to")
	case to.Sub(*from) > longest:
		return portal.Invalid("to", "the range is at most %s at this granularity (by topic: a day by the hour, 31 days by the day)", topiccatalog.FormatDuration(longest))
	}
	return nil
}

// Usage is a unit's usage in a stage.
func (s *Service) Usage(ctx context.Context, scope portal.Scope, q cost.UsageQuery) (cost.UsageReport, error) {
	ctx, call, err := s.guard.Enter(ctx, scope, access.Read, "read usage")
	if err != nil {
		return cost.UsageReport{}, err
	}
	if q.Granularity == "" {
		q.Granularity = "day"
	}
	longest := maxDayRange
	switch q.Granularity {
	case "hour":
		longest = maxHourRange
	case "day":
	default:
		return cost.UsageReport{}, portal.Invalid("granularity", "granularity is hour or day, not %q", q.Granularity)
	}
	switch {
	case q.GroupBy != "" && q.GroupBy != "topic":
		return cost.UsageReport{}, portal.Invalid("group_by", "usage is grouped by topic or not at all, not %q", q.GroupBy)
	case q.GroupBy == "topic" && q.Granularity == "hour":
		longest = maxTopicHourRange
	case q.GroupBy == "topic":
		longest = maxTopicDayRange
	}
	if q.Granularity == "day" {
		q.From, q.To = q.From.Truncate(24*time.Hour), q.To.Truncate(24*time.Hour)
	}
	if err := s.checkRange(&q.From, &q.To, longest); err != nil {
		return cost.UsageReport{}, err
	}
	zone, stage, bu := call.Scope.Zone().ID, call.Scope.Stage.Name, call.Scope.Unit.ID
	out := cost.UsageReport{Unit: bu, Stage: stage, Query: q, Points: []cost.UsagePoint{}, Gaps: []cost.UsageGap{},
		Source: "Confluent Cloud Metrics API, hourly, rolled up by the portal"}
	switch {
	case q.Granularity == "hour":
		rows, err := s.hours(ctx, zone, stage, bu, q)
		if err != nil {
			return out, err
		}
		for _, r := range rows {
			out.Points = append(out.Points, cost.UsagePoint{At: r.Hour, Topic: r.Topic, RetainedBytes: r.RetainedBytes, BytesIn: r.BytesIn,
				BytesOut: r.BytesOut, Partitions: float64(r.Partitions), Hours: 1})
		}
	default:
		read := s.store.UnitUsageDays
		if q.GroupBy == "topic" {
			read = s.store.TopicUsageDays
		}
		rows, err := read(ctx, zone, stage, bu, q.From, q.To)
		if err != nil {
			return out, err
		}
		for _, r := range rows {
			out.Points = append(out.Points, cost.UsagePoint{At: r.Day, Topic: r.Topic, RetainedBytes: r.RetainedBytes, BytesIn: r.BytesIn,
				BytesOut: r.BytesOut, Partitions: r.Partitions, Hours: r.Hours})
		}
	}
	out.Gaps, err = s.gaps(ctx, zone, stage, q.From, q.To)
	return out, err
}

func (s *Service) hours(ctx context.Context, zone, stage, bu string, q cost.UsageQuery) ([]store.UsageHour, error) {
	if q.GroupBy == "topic" {
		return s.store.TopicUsageHours(ctx, zone, stage, bu, q.From, q.To)
	}
	return s.store.UnitUsageHours(ctx, zone, stage, bu, q.From, q.To)
}

func (s *Service) gaps(ctx context.Context, zone, stage string, from, to time.Time) ([]cost.UsageGap, error) {
	gaps, err := s.store.UsageGaps(ctx, zone, stage, from, to)
	out := []cost.UsageGap{}
	for _, g := range gaps {
		out = append(out, cost.UsageGap{Hour: g.Hour, Reason: g.Reason})
	}
	return out, err
}

// Costs is a unit's costs in a stage: by day and category, its shares
// of each line (group_by line) or its month's topics (group_by topic),
// and the forecast of the month that the range ends in.
func (s *Service) Costs(ctx context.Context, scope portal.Scope, q cost.CostQuery) (cost.CostReport, error) {
	ctx, call, err := s.guard.Enter(ctx, scope, access.Read, "read costs")
	if err != nil {
		return cost.CostReport{}, err
	}
	switch q.GroupBy {
	case "", "line", "topic":
	default:
		return cost.CostReport{}, portal.Invalid("group_by", "costs are grouped by line or topic, not %q", q.GroupBy)
	}
	if q.Limit <= 0 || q.Limit > 1000 {
		q.Limit = 100
	}
	q.From, q.To = q.From.Truncate(24*time.Hour), q.To.Truncate(24*time.Hour)
	if q.To.IsZero() {
		q.To = s.now().UTC().Truncate(24*time.Hour).AddDate(0, 0, 1)
	}
	if err := s.checkRange(&q.From, &q.To, maxDayRange); err != nil {
		return cost.CostReport{}, err
	}
	zone, stage, bu := call.Scope.Zone().ID, call.Scope.Stage.Name, call.Scope.Unit.ID
	out := cost.CostReport{Unit: bu, Stage: stage, Query: q, Currency: Currency, BaseRule: s.baseRule, ByCategory: map[string]float64{},
		Days: []cost.CostDay{}, Lines: []cost.CostShare{}, Topics: []cost.TopicCost{}}
	shares, err := s.store.CostShares(ctx, zone, stage, bu, q.From, q.To)
	if err != nil {
		return out, err
	}
	days := map[time.Time]*cost.CostDay{}
	for _, sh := range shares {
		cat := Category(sh.LineType)
		d := days[sh.Day]
		if d == nil {
			d = &cost.CostDay{Day: sh.Day, ByCategory: map[string]float64{}}
			days[sh.Day] = d
		}
		d.Amount += sh.Amount
		d.ByCategory[cat] += sh.Amount
		out.Total += sh.Amount
		out.ByCategory[cat] += sh.Amount
		if q.GroupBy == "line" {
			out.Lines = append(out.Lines, cost.CostShare{Day: sh.Day, Stage: sh.Stage, LineType: sh.LineType, Category: cat, ResourceID: sh.ResourceID,
				ResourceName: sh.ResourceName, Rule: sh.Rule, LineAmount: sh.LineAmount, UnitUse: sh.UnitUse, TotalUse: sh.TotalUse, Amount: sh.Amount})
		}
	}
	for _, d := range days {
		out.Days = append(out.Days, *d)
	}
	sort.Slice(out.Days, func(i, j int) bool { return out.Days[i].Day.Before(out.Days[j].Day) })
	month := MonthOf(q.To.Add(-time.Nanosecond))
	if q.GroupBy == "topic" {
		topics, err := s.store.TopicCosts(ctx, zone, stage, bu, month, q.Limit)
		if err != nil {
			return out, err
		}
		for _, t := range topics {
			out.Topics = append(out.Topics, cost.TopicCost{Topic: t.Topic, Amount: t.Amount, Storage: t.Storage, Network: t.Network,
				Partitions: t.Partitions, Base: t.Base})
		}
	}
	if out.Forecast, err = s.forecast(ctx, zone, stage, bu, month); err != nil {
		return out, err
	}
	if out.Forecast.Budget, err = s.monthlyAmount(ctx, bu, stage); err != nil {
		return out, err
	}
	out.Forecast.Over = out.Forecast.Budget > 0 && out.Forecast.Amount > out.Forecast.Budget
	out.Gaps, err = s.gaps(ctx, zone, stage, q.From, q.To)
	return out, err
}

// forecast projects a unit's month in a stage ("" stage: every stage).
func (s *Service) forecast(ctx context.Context, zone, stage, bu string, month time.Time) (cost.CostForecast, error) {
	shares, err := s.store.CostShares(ctx, zone, stage, bu, month.AddDate(0, 0, -7), month.AddDate(0, 1, 0))
	if err != nil {
		return cost.CostForecast{}, err
	}
	daily := map[time.Time]float64{}
	for _, sh := range shares {
		daily[sh.Day] += sh.Amount
	}
	f := Project(month, daily)
	return cost.CostForecast{Month: f.Month, SoFar: f.SoFar, Amount: f.Amount, Low: f.Low, High: f.High, DailyMean: f.DailyMean,
		DaysBilled: f.DaysBilled, DaysLeft: f.DaysLeft, Method: f.Method}, nil
}

// MonthForecast is a unit's month-end forecast in a stage and its
// budget's monthly amount, for the alert rounds (which act as the
// portal, not as a caller: no access check).
func (s *Service) MonthForecast(ctx context.Context, zone, stage, unit string) (float64, float64, error) {
	amount, err := s.monthlyAmount(ctx, unit, stage)
	if err != nil || amount <= 0 {
		return 0, 0, err
	}
	f, err := s.forecast(ctx, zone, stage, unit, MonthOf(s.now()))
	return f.Amount, amount, err
}

// monthlyAmount is the monthly_cost of a unit's budget in a stage.
func (s *Service) monthlyAmount(ctx context.Context, unit, stage string) (float64, error) {
	recs, err := s.store.BudgetRecords(ctx)
	if err != nil {
		return 0, err
	}
	for _, r := range recs {
		if r.BU == unit && r.Stage == stage {
			var limits map[string]int64
			if err := json.Unmarshal(r.Limits, &limits); err != nil {
				return 0, fmt.Errorf("budget of %s/%s: %w", unit, stage, err)
			}
			return float64(limits[portal.BudgetMonthlyCost]), nil
		}
	}
	return 0, nil
}

// ZoneCosts is every unit of a zone side by side for a month, with what
// no unit used, the organisation's own lines and the other zones', so
// that the report adds up to the organisation's costs.
func (s *Service) ZoneCosts(ctx context.Context, zone string, month time.Time) (cost.ZoneCostReport, error) {
	p, err := s.guard.EnterAdmin(ctx)
	if err != nil {
		return cost.ZoneCostReport{}, err
	}
	t := s.guard.Tenancy()
	if err := access.CheckAdmin(p, t, access.ReadZoneCosts, zone); err != nil {
		return cost.ZoneCostReport{}, err
	}
	z, ok := t.LandingZone(zone)
	if !ok {
		return cost.ZoneCostReport{}, portal.New(portal.NotFound, "landing zone %s not found", zone)
	}
	if month.IsZero() {
		month = s.now()
	}
	month = MonthOf(month)
	out := cost.ZoneCostReport{Zone: zone, Month: month, Currency: Currency, BaseRule: s.baseRule, Units: []cost.UnitCost{}}
	// One read: the month's shares, and the week before it for the
	// forecasts of a month barely begun.
	shares, err := s.store.CostShares(ctx, "", "", store.AllUnits, month.AddDate(0, 0, -7), month.AddDate(0, 1, 0))
	if err != nil {
		return out, err
	}
	daily := map[string]map[time.Time]float64{}
	units := map[string]*cost.UnitCost{}
	for _, id := range z.BusinessUnits {
		units[id] = &cost.UnitCost{Unit: id, ByStage: map[string]float64{}, ByCategory: map[string]float64{}}
	}
	for _, sh := range shares {
		if sh.Zone == zone && units[sh.BU] != nil {
			if daily[sh.BU] == nil {
				daily[sh.BU] = map[time.Time]float64{}
			}
			daily[sh.BU][sh.Day] += sh.Amount
		}
		if sh.Day.Before(month) {
			continue
		}
		out.Total += sh.Amount
		switch {
		case sh.Zone == "":
			out.Organisation += sh.Amount
		case sh.Zone != zone:
			out.OtherZones += sh.Amount
		case units[sh.BU] == nil:
			out.Unallocated += sh.Amount
		default:
			u := units[sh.BU]
			u.Amount += sh.Amount
			u.ByStage[sh.Stage] += sh.Amount
			u.ByCategory[Category(sh.LineType)] += sh.Amount
		}
	}
	for _, id := range z.BusinessUnits {
		u := units[id]
		u.Forecast = Project(month, daily[id]).Amount
		out.Units = append(out.Units, *u)
	}
	sort.SliceStable(out.Units, func(i, j int) bool { return out.Units[i].Amount > out.Units[j].Amount })
	return out, nil
}
