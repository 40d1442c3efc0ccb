package metric

import (
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// MetricRange is a time range that charts may cover, with the bucket size
// the Metrics API is asked for: about sixty points per chart.
type MetricRange struct {
	Name string
	Span time.Duration
	Step time.Duration
	// Granularity is Step as the Metrics API spells it.
	Granularity string
}

// MetricRanges are the ranges on offer, shortest (the default) first.
var MetricRanges = []MetricRange{
	{Name: "1h", Span: time.Hour, Step: time.Minute, Granularity: "PT1M"},
	{Name: "6h", Span: 6 * time.Hour, Step: 5 * time.Minute, Granularity: "PT5M"},
	{Name: "24h", Span: 24 * time.Hour, Step: 15 * time.Minute, Granularity: "PT15M"},
	{Name: "7d", Span: 7 * 24 * time.Hour, Step: time.Hour, Granularity: "PT1H"},
}

// ParseRange reads a range name; the empty name is the default (1h).
// Errors: InvalidParameter.
func ParseRange(name string) (MetricRange, error) {
	if name == "" {
		return MetricRanges[0], nil
	}
	for _, r := range MetricRanges {
		if r.Name == name {
			return r, nil
		}
	}
	return MetricRange{}, portal.Invalid("range", "range must be one of 1h, 6h, 24h, 7d, not %q", name)
}

// Units of chart values.
const (
	UnitBytesPerSecond   = "B/s"
	UnitRecordsPerSecond = "records/s"
	UnitBytes            = "B"
	UnitRecords          = "records"
)

// Chart is one metric over a range, in one or more series.
type Chart struct {
	ID    string
	Title string
	Unit  string
	// Series are drawn together; a series without points had no data.
	Series []Series
	// Unavailable says why the chart could not be had; Series is then
	// empty. Never a zero in disguise.
	Unavailable string
	// More counts series left out (a chart shows the largest few).
	More int
}

// Series is one line of a chart.
type Series struct {
	Name   string
	Points []Point
}

// Point is one bucket's value; rates are per second over the bucket.
type Point struct {
	At    time.Time
	Value float64
}

// Last is the series' newest value, or 0 without points.
func (s Series) Last() float64 {
	if len(s.Points) == 0 {
		return 0
	}
	return s.Points[len(s.Points)-1].Value
}

// Charts are the charts of a page over one range.
type Charts struct {
	Range      MetricRange
	Start, End time.Time
	Charts     []Chart
	// Source names where the numbers come from.
	Source string
	// FetchedAt is when the oldest answer shown was fetched.
	FetchedAt time.Time
	// Stale says why some values are older than their bucket (the
	// Metrics API's rate limit was reached, or it is unreachable): the
	// last values are shown with their age instead of an error.
	Stale string
}

// Chart returns the chart with an id, or a zero Chart.
func (c Charts) Chart(id string) Chart {
	for _, x := range c.Charts {
		if x.ID == id {
			return x
		}
	}
	return Chart{}
}
