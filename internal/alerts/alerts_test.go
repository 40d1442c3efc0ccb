package alerts

import (
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/store"
)

// run feeds a rule one subject's value every 10 s (values[i] at i*10 s)
// and says, per round, what was announced: "F" fired, "R" resolved, "."
// nothing; it returns the alerts saved at the end too.
func run(rule store.AlertRuleRecord, values []float64, gone int) (string, map[string]store.AlertRecord, int) {
	t0 := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	open := map[string]store.AlertRecord{}
	all := map[string]store.AlertRecord{}
	out := ""
	for i, v := range values {
		var seen []Observation
		if gone < 0 || i < gone {
			bad, clear := Judge(rule.Kind, rule.Threshold, v)
			seen = []Observation{{Subject: "billing", Bad: bad, Clear: clear, Value: "v"}}
		}
		save, changes := Step(rule, open, seen, t0.Add(time.Duration(i)*10*time.Second))
		mark := "."
		for _, c := range changes {
			if c.Fired {
				mark = "F"
			} else {
				mark = "R"
			}
		}
		out += mark
		for _, a := range save {
			all[a.ID] = a
			if a.State == Resolved {
				delete(open, a.Subject)
			} else {
				open[a.Subject] = a
			}
		}
	}
	return out, all, len(open)
}

func TestFiresAfterItsDurationAndResolvesPastTheMargin(t *testing.T) {
	rule := store.AlertRuleRecord{Zone: "z", Stage: "dev", BU: "crm", Name: "lag", Kind: LagTime, Threshold: 100, For: 30 * time.Second}
	for _, c := range []struct {
		name   string
		values []float64
		want   string
		alerts int
	}{
		{"held for 30 s fires once", []float64{150, 150, 150, 150, 150, 150}, "...F..", 1},
		{"shorter than its duration never fires", []float64{150, 150, 50, 150, 150, 50}, "......", 2},
		{"wavering just below the threshold stays firing", []float64{150, 150, 150, 150, 95, 95, 95, 95, 95, 150}, "...F......", 1},
		{"clear for its duration resolves once", []float64{150, 150, 150, 150, 80, 80, 80, 80, 80}, "...F...R.", 1},
		{"back before its duration keeps it", []float64{150, 150, 150, 150, 80, 80, 150, 80, 80, 80}, "...F......", 1},
	} {
		got, all, _ := run(rule, c.values, -1)
		if got != c.want || len(all) != c.alerts {
			t.Errorf("%s: %s with %d alerts, want %s with %d", c.name, got, len(all), c.want, c.alerts)
		}
	}
	below := store.AlertRuleRecord{Name: "keys", Kind: KeyExpiring, Threshold: 7}
	if got, _, _ := run(below, []float64{10, 6, 7.5, 8, 8}, -1); got != ".F.R." {
		t.Errorf("a key expiring within 7 days: %s", got)
	}
}

func TestSilencedAndGone(t *testing.T) {
	rule := store.AlertRuleRecord{Name: "lag", Kind: LagTime, Threshold: 100, For: 0, SilencedUntil: time.Date(2026, 11, 28, 12, 0, 25, 0, time.UTC)}
	got, all, open := run(rule, []float64{150, 150, 150, 50, 50, 150}, -1)
	var silenced, fired int
	for _, a := range all {
		if a.Silenced {
			silenced++
		}
		if !a.FiredAt.IsZero() {
			fired++
		}
	}
	// Fired silently at 0 s and resolved silently; fired aloud at 50 s,
	// after the silence.
	if got != ".....F" || silenced != 1 || fired != 2 || open != 1 {
		t.Errorf("silenced: %s, %d silenced of %d fired, %d open", got, silenced, fired, open)
	}
	rule.SilencedUntil = time.Time{}
	if got, _, open := run(rule, []float64{150, 150, 150, 150}, 2); got != "F.R." || open != 0 {
		t.Errorf("a subject gone: %s, %d open", got, open)
	}
}
