package clusters

import (
	"hash/fnv"
	"math"
	"time"
)

// PastDays is how far back a remembered topic's past reaches: a month
// and a day, so that a month's usage and costs can be shown from the
// first start.
const PastDays = 31

// past is a topic's believable traffic before the stand-in recorded
// any: the same for a topic's name every time (a restart shows the
// same month), by hour of day and day of week, with the bytes a topic
// of its kind keeps.
type past struct {
	// until is when the recorded telemetry took over.
	until time.Time
	// in is the mean bytes written a second; out is read as a multiple
	// of it (consumers fan out); keep is how many seconds of writes the
	// topic retains.
	in, out, keep float64
	seed          uint64
}

// recordBytes is a remembered topic's mean record size.
const recordBytes = 480

// Remember gives a topic a past of PastDays before now, scaled by scale
// (a stage's traffic against dev's): a month of usage for the Metrics
// API stand-in (and so the Billing API's), without a minute of it kept.
func (t *Telemetry) Remember(topic string, scale float64) {
	h := fnv.New64a()
	_, _ = h.Write([]byte(topic))
	seed := h.Sum64()
	p := past{until: t.now(), seed: seed,
		in:   scale * float64(20_000+seed%380_000),
		out:  0.5 + float64((seed>>16)%250)/100,
		keep: float64(1+(seed>>32)%7) * 86400 * 0.8}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.pasts[topic] = p
}

// rate is a remembered topic's bytes written a second at x: busier by
// day than by night, on weekdays than at weekends, within a sixth of
// its mean from hour to hour.
func (p past) rate(x time.Time) float64 {
	u := x.UTC()
	day := 0.55
	if h := float64(u.Hour()) + float64(u.Minute())/60; h >= 6 && h <= 20 {
		day += 0.45 * math.Sin(math.Pi*(h-6)/14)
	}
	week := 1.0
	if wd := u.Weekday(); wd == time.Saturday || wd == time.Sunday {
		week = 0.6
	}
	hour := uint64(u.Unix() / 3600)
	noise := float64((p.seed^(hour*0x9e3779b97f4a7c15))%1000)/1000 - 0.5
	return p.in * day * week * (1 + noise/3)
}

// addPasts adds the remembered topics' past to a query's buckets: a
// counter's bytes or records over the part of each bucket before the
// recorded telemetry; a gauge's value at the bucket's end, where nothing
// was recorded.
func (t *Telemetry) addPasts(sums map[bucketKey]float64, metric string, start, end time.Time, step time.Duration, topic, group string) {
	if group != "" || metric == seriesLag {
		return
	}
	for name, p := range t.pasts {
		if topic != "" && name != topic {
			continue
		}
		from := p.until.Add(-PastDays * 24 * time.Hour)
		for b := start; b.Before(end); b = b.Add(step) {
			lo, hi := maxTime(b, from), minTime(b.Add(step), minTime(end, p.until))
			if !lo.Before(hi) {
				continue
			}
			k := bucketKey{b.Unix(), name, ""}
			mid := lo.Add(hi.Sub(lo) / 2)
			secs := hi.Sub(lo).Seconds()
			switch metric {
			case seriesBytesIn:
				sums[k] += p.rate(mid) * secs
			case seriesBytesOut:
				sums[k] += p.rate(mid) * p.out * secs
			case seriesRecordsIn:
				sums[k] += p.rate(mid) * secs / recordBytes
			case seriesRecordsOut:
				sums[k] += p.rate(mid) * p.out * secs / recordBytes
			case seriesRetained:
				if _, recorded := sums[k]; !recorded {
					sums[k] = p.in * p.keep * (0.9 + 0.1*float64(hi.Sub(from))/float64(p.until.Sub(from)))
				}
			}
		}
	}
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}
