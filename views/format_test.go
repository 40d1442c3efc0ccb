package views

import "testing"

func TestSettingValue(t *testing.T) {
	for _, c := range []struct{ key, raw, want string }{
		{"retention.ms", "604800000", "7 days"},
		{"retention.ms", "5400000", "1 hour 30 minutes"},
		{"retention.ms", "-1", "unlimited"},
		{"segment.ms", "500", "500 ms"},
		{"max.compaction.lag.ms", "9223372036854775807", "no limit"},
		{"retention.bytes", "1073741824", "1.1 GB"},
		{"max.message.bytes", "1048588", "1.0 MB"},
		{"cleanup.policy", "compact", "compact"},
	} {
		if got, _ := settingValue(c.key, c.raw); got != c.want {
			t.Errorf("%s=%s: %q, want %q", c.key, c.raw, got, c.want)
		}
	}
	if got := count(1, "connector", "connectors") + ", " + count(2003, "connector", "connectors"); got != "1 connector, 2,003 connectors" {
		t.Errorf("count: %s", got)
	}
}
