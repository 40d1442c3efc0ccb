// Package lag tells how late a consumer is in time, not only in records:
// from the offsets seen over time (a partition's end, a group's committed
// position), when the oldest record a group has not consumed was written,
// and when the group will have caught up at its recent pace. It reads no
// record: the times come from the history of offsets (as kafka-lag-
// exporter does), kept in memory per replica.
package lag

import (
	"sync"
	"time"
)

// History keeps, per series (a partition's end offsets, or a group's
// committed offsets on a partition), the offsets seen and when.
type History struct {
	mu     sync.Mutex
	points int
	keep   time.Duration
	series map[string][]point
	added  int
}

type point struct {
	at  time.Time
	off int64
}

// New keeps at most points observations per series, and forgets series
// not observed for keep.
func New(points int, keep time.Duration) *History {
	return &History{points: max(points, 2), keep: keep, series: map[string][]point{}}
}

// Add records that series stood at off at time at. An observation no
// newer than the last is ignored; one at the same offset as the last two
// replaces the last (a flat stretch needs only its two ends).
func (h *History) Add(series string, at time.Time, off int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	ps := h.series[series]
	if n := len(ps); n > 0 && !at.After(ps[n-1].at) {
		return
	}
	if n := len(ps); n >= 2 && ps[n-1].off == off && ps[n-2].off == off {
		ps[n-1].at = at
	} else {
		ps = append(ps, point{at: at, off: off})
	}
	if len(ps) > h.points {
		ps = append(ps[:0:0], ps[len(ps)-h.points:]...)
	}
	h.series[series] = ps
	if h.added++; h.added%1024 == 0 {
		h.forget(at)
	}
}

// forget drops series not observed for keep.
func (h *History) forget(now time.Time) {
	for k, ps := range h.series {
		if now.Sub(ps[len(ps)-1].at) > h.keep {
			delete(h.series, k)
		}
	}
}

// Reached says when series first went past off (its offset became
// greater than off): for a partition's end offsets, when the record at
// off was written. Between two observations the time is interpolated.
// When the series was already past off at its first observation, that
// time is given with exact false: the record is at least that old. ok is
// false when the series never went past off, or is unknown.
func (h *History) Reached(series string, off int64) (at time.Time, exact, ok bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	ps := h.series[series]
	for i, p := range ps {
		if p.off <= off {
			continue
		}
		if i == 0 {
			return p.at, false, true
		}
		prev := ps[i-1]
		// The end went from prev.off to p.off: the record at off was
		// written when the end reached off+1.
		frac := float64(off+1-prev.off) / float64(p.off-prev.off)
		return prev.at.Add(time.Duration(frac * float64(p.at.Sub(prev.at)))), true, true
	}
	return time.Time{}, false, false
}

// Rate is how fast series advanced over the last window before now, in
// offsets per second; ok is false with less than two observations in
// reach or too short a stretch (under a tenth of the window) to tell.
func (h *History) Rate(series string, now time.Time, window time.Duration) (float64, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	ps := h.series[series]
	if len(ps) < 2 {
		return 0, false
	}
	last := ps[len(ps)-1]
	first := ps[0]
	for _, p := range ps {
		if !p.at.Before(now.Add(-window)) {
			first = p
			break
		}
	}
	span := last.at.Sub(first.at)
	if span < window/10 || span <= 0 {
		return 0, false
	}
	return float64(last.off-first.off) / span.Seconds(), true
}

// Series counts the series kept (for tests and metrics).
func (h *History) Series() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.series)
}

// Estimate is how late a group is on one partition.
type Estimate struct {
	// Age is how old the oldest record not consumed is (0 without lag);
	// AtLeast says it is older than the history reaches.
	Age     time.Duration
	AtLeast bool
	Known   bool
	// CatchUp is when the group will have consumed what is there at its
	// recent pace, less the pace of writes; Falling says it consumes
	// slower than records come (no catching up at this pace).
	CatchUp      time.Duration
	CatchUpKnown bool
	Falling      bool
}

// Window is the stretch of recent history the paces are taken over.
const Window = 5 * time.Minute

// Estimate works out a group's lag in time on a partition from the end
// offsets' series and the group's committed series.
func (h *History) Estimate(endSeries, groupSeries string, committed, end int64, now time.Time) Estimate {
	var e Estimate
	lag := end - committed
	if committed < 0 || lag <= 0 {
		return Estimate{Known: true, CatchUpKnown: true}
	}
	if at, exact, ok := h.Reached(endSeries, committed); ok {
		e.Age, e.AtLeast, e.Known = max(now.Sub(at), 0), !exact, true
		// "Older than what was seen a moment ago" says nothing yet.
		if e.AtLeast && e.Age < time.Second {
			e.Known = false
		}
	}
	consume, okC := h.Rate(groupSeries, now, Window)
	produce, okP := h.Rate(endSeries, now, Window)
	if okC && okP {
		e.CatchUpKnown = true
		if net := consume - produce; net > 0 {
			e.CatchUp = time.Duration(float64(lag) / net * float64(time.Second))
		} else {
			e.Falling = true
		}
	}
	return e
}
