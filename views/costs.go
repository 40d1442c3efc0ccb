package views

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal/cost"
)

// categoryColours draw the cost categories (cost.CostCategories), each
// legible on a light and a dark page.
var categoryColours = map[string]string{"storage": "#4f46e5", "network": "#0d9488", "partitions": "#d97706", "base": "#64748b",
	"connect": "#db2777", "other": "#65a30d"}

func categoryColour(c string) string { return categoryColours[c] }

// money shows an amount of the report's currency, cents kept.
func money(v float64, currency string) string {
	if currency == "USD" {
		return "$" + strconv.FormatFloat(v, 'f', 2, 64)
	}
	return strconv.FormatFloat(v, 'f', 2, 64) + " " + currency
}

// costBar is one stacked segment of a day's bar.
type costBar struct {
	X, Y, W, H string
	Category   string
	Title      string
}

// costBars lays out the days of a month as stacked bars (one a day of
// the month, empty where no day is billed), and the axis's bound.
func costBars(r cost.CostReport, month time.Time) ([]costBar, float64) {
	days := month.AddDate(0, 1, 0).Sub(month).Hours() / 24
	hi := 0.0
	for _, d := range r.Days {
		hi = math.Max(hi, d.Amount)
	}
	hi = roundUp(hi)
	w := chartPlotW / days
	var out []costBar
	for _, d := range r.Days {
		i := d.Day.Sub(month).Hours() / 24
		if i < 0 || i >= days {
			continue
		}
		y := chartBottom
		for _, c := range cost.CostCategories {
			v := d.ByCategory[c]
			if v <= 0 {
				continue
			}
			h := chartPlotH * v / hi
			y -= h
			out = append(out, costBar{X: fx(chartLeft + i*w + w*0.15), Y: fx(y), W: fx(w * 0.7), H: fx(h), Category: c,
				Title: fmt.Sprintf("%s, %s: %s", d.Day.Format("2 Jan"), c, money(v, r.Currency))})
		}
	}
	return out, hi
}

// roundUp is a round bound above v (1, 2, 2.5 or 5 times a power of 10).
func roundUp(v float64) float64 {
	if v <= 0 {
		return 1
	}
	mag := math.Pow(10, math.Floor(math.Log10(v)))
	for _, f := range []float64{1, 2, 2.5, 5, 10} {
		if f*mag >= v {
			return f * mag
		}
	}
	return 10 * mag
}

// share is a fraction as a percentage.
func share(part, whole float64) string {
	if whole <= 0 {
		return "–"
	}
	return strconv.FormatFloat(100*part/whole, 'f', 1, 64) + "%"
}

// amountPair shows a share's inputs, as the CSV has them.
func amountPair(unit, total float64) string {
	return strconv.FormatFloat(unit, 'g', -1, 64) + " of " + strconv.FormatFloat(total, 'g', -1, 64)
}

// shareWidth sizes a share's bar, of 192 at most.
func shareWidth(part, whole float64) string {
	if whole <= 0 {
		return "0"
	}
	return fx(192 * part / whole)
}
