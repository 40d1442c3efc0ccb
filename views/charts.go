package views

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal/metric"
)

// Geometry of a chart's SVG, in its viewBox units.
const (
	chartLeft, chartTop    = 64.0, 12.0
	chartRight             = 632.0
	chartBottom            = 172.0
	chartPlotW, chartPlotH = chartRight - chartLeft, chartBottom - chartTop
)

// seriesColours are drawn in order; lag charts have up to eight series.
var seriesColours = []string{"#4f46e5", "#0d9488", "#d97706", "#db2777", "#2563eb", "#65a30d", "#7c3aed", "#dc2626"}

func seriesColour(i int) string { return seriesColours[i%len(seriesColours)] }

// chartMax is a round upper bound of a chart's values, so that the axis
// reads 0, half and the bound in plain numbers.
func chartMax(c metric.Chart) float64 {
	hi := 0.0
	for _, s := range c.Series {
		for _, p := range s.Points {
			hi = math.Max(hi, p.Value)
		}
	}
	return roundUp(hi)
}

// chartX places a time on the range's axis.
func chartX(cs metric.Charts, at time.Time) float64 {
	span := cs.End.Sub(cs.Start).Seconds()
	if span <= 0 {
		return chartLeft
	}
	return chartLeft + chartPlotW*math.Min(1, math.Max(0, at.Sub(cs.Start).Seconds()/span))
}

func chartY(v, hi float64) float64 { return chartBottom - chartPlotH*math.Max(0, v)/hi }

// polyline is the points of a series, each at the middle of its bucket.
func polyline(cs metric.Charts, s metric.Series, hi float64) string {
	var b strings.Builder
	half := cs.Range.Step / 2
	for _, p := range s.Points {
		fmt.Fprintf(&b, "%.1f,%.1f ", chartX(cs, p.At.Add(half)), chartY(p.Value, hi))
	}
	return strings.TrimSpace(b.String())
}

func fx(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// pointX and pointY place one point for its hover target.
func pointX(cs metric.Charts, p metric.Point) string {
	return fx(chartX(cs, p.At.Add(cs.Range.Step/2)))
}
func pointY(p metric.Point, hi float64) string { return fx(chartY(p.Value, hi)) }

// unitValue renders a value in its unit for people ("1.2 MB/s").
func unitValue(v float64, unit string) string {
	switch unit {
	case metric.UnitBytesPerSecond:
		return humanBytes(v) + "/s"
	case metric.UnitBytes:
		return humanBytes(v)
	case metric.UnitRecordsPerSecond:
		if v < 10 {
			return strconv.FormatFloat(v, 'f', 1, 64) + " records/s"
		}
		return humanCount(v) + " records/s"
	}
	return humanCount(v) + " records"
}

// axisValue labels the axis: the unit is in the chart's corner.
func axisValue(v float64, unit string) string {
	switch unit {
	case metric.UnitBytesPerSecond, metric.UnitBytes:
		return humanBytes(v)
	}
	if v < 10 && v != math.Trunc(v) {
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return humanCount(v)
}

// pointOpacity shows the points of a series too short to draw a line;
// otherwise they show on hover only.
func pointOpacity(s metric.Series) string {
	if len(s.Points) < 3 {
		return "1"
	}
	return "0"
}

// rawValue is the exact value, shown on hover.
func rawValue(v float64, unit string) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return thousands(int64(v)) + " " + unit
	}
	return strconv.FormatFloat(v, 'f', 3, 64) + " " + unit
}

// pointTitle is what hovering a point says: when, how much, exactly.
func pointTitle(cs metric.Charts, c metric.Chart, s metric.Series, p metric.Point) string {
	return fmt.Sprintf("%s · %s: %s (%s)", axisTime(cs, p.At), s.Name, unitValue(p.Value, c.Unit), rawValue(p.Value, c.Unit))
}

// axisTime labels a time on the axis: hours for a day or less, days for
// a week.
func axisTime(cs metric.Charts, t time.Time) string {
	if cs.Range.Span > 24*time.Hour {
		return t.UTC().Format("Mon 2 Jan 15:04")
	}
	return t.UTC().Format("15:04")
}

func rangeLabel(r metric.MetricRange) string {
	switch r.Name {
	case "1h":
		return "Last hour"
	case "6h":
		return "Last 6 hours"
	case "24h":
		return "Last 24 hours"
	}
	return "Last 7 days"
}

func stepLabel(r metric.MetricRange) string {
	switch r.Step {
	case time.Minute:
		return "per minute"
	case time.Hour:
		return "per hour"
	}
	return "per " + strconv.Itoa(int(r.Step.Minutes())) + " minutes"
}

// chartSummary describes a chart for screen readers and the legend.
func chartSummary(c metric.Chart) string {
	var parts []string
	for _, s := range c.Series {
		if len(s.Points) == 0 {
			parts = append(parts, s.Name+": no data")
			continue
		}
		parts = append(parts, s.Name+" now "+unitValue(s.Last(), c.Unit))
	}
	return c.Title + ": " + strings.Join(parts, "; ")
}

// hasPoints tells whether any series of a chart has data.
func hasPoints(c metric.Chart) bool {
	for _, s := range c.Series {
		if len(s.Points) > 0 {
			return true
		}
	}
	return false
}

// age renders how long ago t was ("3 min ago").
func age(now, t time.Time) string {
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return "less than a minute ago"
	case d < time.Hour:
		return strconv.Itoa(int(d.Minutes())) + " min ago"
	case d < 48*time.Hour:
		return strconv.Itoa(int(d.Hours())) + " h ago"
	}
	return strconv.Itoa(int(d.Hours()/24)) + " days ago"
}

// rangeHref is the page at another range.
func rangeHref(self string, r metric.MetricRange) string { return self + "?range=" + r.Name }
