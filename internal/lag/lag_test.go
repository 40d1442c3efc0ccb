package lag

import (
	"testing"
	"time"
)

// TestAgeFromTheEndsHistory: the record at a committed offset was written
// when the end passed it; between observations the time is interpolated;
// older than the history reaches is "at least".
func TestAgeFromTheEndsHistory(t *testing.T) {
	h := New(100, time.Hour)
	t0 := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	for i := 0; i <= 10; i++ {
		h.Add("end", t0.Add(time.Duration(i)*10*time.Second), int64(100+i*10)) // 1 record a second
	}
	now := t0.Add(100 * time.Second)
	e := h.Estimate("end", "group", 149, 200, now)
	// Record 149 was written when the end reached 150: at t0+50s.
	if !e.Known || e.AtLeast || e.Age != 50*time.Second {
		t.Errorf("age %+v", e)
	}
	if e = h.Estimate("end", "group", 50, 200, now); !e.Known || !e.AtLeast || e.Age != 100*time.Second {
		t.Errorf("before the history: %+v", e)
	}
	if e = h.Estimate("end", "group", 200, 200, now); !e.Known || e.Age != 0 {
		t.Errorf("no lag: %+v", e)
	}
}

// TestCatchUpFromThePaces: a group consuming 3 records a second against 1
// written catches up on 100 in 50 s; one consuming slower is falling.
func TestCatchUpFromThePaces(t *testing.T) {
	h := New(100, time.Hour)
	t0 := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	for i := 0; i <= 30; i++ {
		at := t0.Add(time.Duration(i) * 10 * time.Second)
		h.Add("end", at, int64(1000+i*10))
		h.Add("fast", at, int64(600+i*30))
		h.Add("slow", at, int64(600+i*5))
	}
	now := t0.Add(300 * time.Second)
	if e := h.Estimate("end", "fast", 1200, 1300, now); !e.CatchUpKnown || e.Falling || e.CatchUp != 50*time.Second {
		t.Errorf("fast %+v", e)
	}
	if e := h.Estimate("end", "slow", 750, 1300, now); !e.CatchUpKnown || !e.Falling {
		t.Errorf("slow %+v", e)
	}
	if e := h.Estimate("end", "unknown", 750, 1300, now); e.CatchUpKnown {
		t.Errorf("a group without history: %+v", e)
	}
}

// TestHistoryIsBounded: flat stretches take two points, series keep at
// most their points, and series no longer seen are forgotten.
func TestHistoryIsBounded(t *testing.T) {
	h := New(10, time.Minute)
	t0 := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	for i := 0; i < 100; i++ {
		h.Add("flat", t0.Add(time.Duration(i)*time.Second), 5)
		h.Add("moving", t0.Add(time.Duration(i)*time.Second), int64(i))
	}
	if n := len(h.series["flat"]); n != 2 {
		t.Errorf("a flat series keeps %d points", n)
	}
	if n := len(h.series["moving"]); n != 10 {
		t.Errorf("a moving series keeps %d points", n)
	}
	for i := 0; i < 2048; i++ {
		h.Add("late", t0.Add(time.Hour+time.Duration(i)*time.Millisecond), int64(i))
	}
	if h.Series() != 1 {
		t.Errorf("%d series after the others went quiet", h.Series())
	}
}
