package views

import (
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"
)

func itoa(n int) string { return strconv.Itoa(n) }

func urlQuery(s string) string { return url.QueryEscape(s) }

// thousands renders 12345 as "12,345".
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	out := ""
	for len(s) > 3 {
		out = "," + s[len(s)-3:] + out
		s = s[:len(s)-3]
	}
	out = s + out
	if neg {
		return "-" + out
	}
	return out
}

func ariaSort(desc bool) string {
	if desc {
		return "descending"
	}
	return "ascending"
}

func sortArrow(desc bool) string {
	if desc {
		return "↓"
	}
	return "↑"
}

// humanBytes renders a size in readable units ("1.5 MB").
func humanBytes(n float64) string {
	units := []string{"B", "kB", "MB", "GB", "TB", "PB"}
	i := 0
	for n >= 1000 && i < len(units)-1 {
		n /= 1000
		i++
	}
	if i == 0 || n >= 100 {
		return strconv.FormatFloat(n, 'f', 0, 64) + " " + units[i]
	}
	return strconv.FormatFloat(n, 'f', 1, 64) + " " + units[i]
}

// humanCount renders a count in readable units ("12.3k", "4.1M").
func humanCount(n float64) string {
	switch {
	case n >= 1e9:
		return strconv.FormatFloat(n/1e9, 'f', 1, 64) + "G"
	case n >= 1e6:
		return strconv.FormatFloat(n/1e6, 'f', 1, 64) + "M"
	case n >= 1e4:
		return strconv.FormatFloat(n/1e3, 'f', 1, 64) + "k"
	}
	return thousands(int64(n))
}

// count renders n with its noun in the right number ("1 connector",
// "2,003 connectors"); plural is the noun's plural form.
func count(n int64, singular, plural string) string {
	if n == 1 {
		return "1 " + singular
	}
	return thousands(n) + " " + plural
}

// settingValue renders a topic setting for people ("7 days" for
// retention.ms=604800000, "1 GB" for a size in bytes); ok is false when
// the raw value is as readable as it gets.
func settingValue(key, raw string) (string, bool) {
	n, err := strconv.ParseInt(raw, 10, 64)
	if n == math.MaxInt64 {
		return "no limit", true
	}
	if err != nil || n < 0 {
		if raw == "-1" {
			return "unlimited", true
		}
		return raw, false
	}
	switch {
	case strings.HasSuffix(key, ".ms"):
		return humanDuration(time.Duration(n) * time.Millisecond), true
	case strings.HasSuffix(key, ".bytes") || key == "max.message.bytes":
		if n < 1000 {
			return raw, false
		}
		return humanBytes(float64(n)), true
	}
	return raw, false
}

// humanDuration renders a duration in its largest whole units ("7 days",
// "1 hour 30 minutes", "500 ms").
func humanDuration(d time.Duration) string {
	if d < time.Second {
		return strconv.FormatInt(d.Milliseconds(), 10) + " ms"
	}
	units := []struct {
		d          time.Duration
		one, other string
	}{{24 * time.Hour, "day", "days"}, {time.Hour, "hour", "hours"}, {time.Minute, "minute", "minutes"}, {time.Second, "second", "seconds"}}
	var parts []string
	for _, u := range units {
		if n := d / u.d; n > 0 && len(parts) < 2 {
			parts = append(parts, count(int64(n), u.one, u.other))
			d -= n * u.d
		}
	}
	return strings.Join(parts, " ")
}

// resourceLabel names what a key is for.
func resourceLabel(r string) string {
	switch r {
	case "kafka":
		return "Kafka cluster"
	case "schema-registry":
		return "Schema Registry"
	}
	return r
}

// expiryText says when a key expires, relative to now.
func expiryText(t, now time.Time) string {
	if t.IsZero() {
		return "never"
	}
	d := t.Sub(now)
	day := t.UTC().Format("2006-01-02")
	switch {
	case d <= 0:
		return "expired " + day
	case d < time.Hour:
		return "in " + strconv.Itoa(max(int(d/time.Minute), 1)) + " min (" + day + ")"
	case d < 48*time.Hour:
		return "in " + strconv.Itoa(int(d/time.Hour)) + " h (" + day + ")"
	}
	return "in " + strconv.Itoa(int(d/(24*time.Hour))) + " days (" + day + ")"
}

func keysWord(n int) string {
	if n == 1 {
		return "key"
	}
	return "keys"
}

// retentionText shows retention.ms for people: "7 days", "forever".
func retentionText(ms string) string {
	if ms == "-1" {
		return "forever"
	}
	if v, ok := settingValue("retention.ms", ms); ok {
		return v
	}
	return ms
}
