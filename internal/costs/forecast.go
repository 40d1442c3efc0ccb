package costs

import "time"

// Forecast is a month-end estimate from the days billed so far: the
// month's amount so far plus the mean of the last 7 days billed times the
// days left (Low and High with the least and the most of those days).
type Forecast struct {
	Month      time.Time
	SoFar      float64
	DaysBilled int
	DaysLeft   int
	DailyMean  float64
	Amount     float64
	Low, High  float64
	Method     string
}

// ForecastMethod says how a forecast is made, beside it.
const ForecastMethod = "the month so far plus the mean of the last 7 days billed times the days left (range: their least and most)"

// MonthOf is the first day of t's month (UTC).
func MonthOf(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
}

// Project forecasts month from daily amounts (by day; days missing are
// not billed yet). Days before month count towards the 7 days' mean at
// the start of a month.
func Project(month time.Time, daily map[time.Time]float64) Forecast {
	f := Forecast{Month: month, Method: ForecastMethod}
	end := month.AddDate(0, 1, 0)
	var last time.Time
	for d, a := range daily {
		if !d.Before(month) && d.Before(end) {
			f.SoFar += a
			f.DaysBilled++
			if d.After(last) {
				last = d
			}
		}
	}
	if last.IsZero() {
		last = month.AddDate(0, 0, -1)
	}
	f.DaysLeft = int(end.Sub(last.AddDate(0, 0, 1)).Hours() / 24)
	n := 0
	for i := 0; i < 7; i++ {
		a, ok := daily[last.AddDate(0, 0, -i)]
		if !ok {
			continue
		}
		if n == 0 || a < f.Low {
			f.Low = a
		}
		if n == 0 || a > f.High {
			f.High = a
		}
		f.DailyMean += a
		n++
	}
	if n > 0 {
		f.DailyMean /= float64(n)
	}
	left := float64(f.DaysLeft)
	f.Amount, f.Low, f.High = f.SoFar+f.DailyMean*left, f.SoFar+f.Low*left, f.SoFar+f.High*left
	return f
}
