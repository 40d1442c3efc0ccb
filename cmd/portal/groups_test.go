package main

import (
	"net/http"
	"strings"
	"testing"
)

// TestConsumerGroupsJourney is the walk-through in scada/dev: the
// demo's billing group shows its lag per partition and, being consumed, a
// reset gives 409; the replay group's dry-run reset to earliest shows the
// new offsets and the reset applies them; dave cannot reset; the last 10
// records of sensor-readings come decoded with their Avro schema; in run
// reading records is refused.
func TestConsumerGroupsJourney(t *testing.T) {
	t.Parallel()
	tp := startPortal(t, nil)
	base := "/api/v1/scada/dev"
	list := tp.call("GET", base+"/consumer-groups", "carol", nil)
	if list.status != 200 {
		t.Fatalf("list: %d %s", list.status, list.body)
	}
	ids := []string{}
	for _, it := range items(t, list) {
		ids = append(ids, it["identifier"].(string))
	}
	if strings.Join(ids, ",") != "billing,replay" {
		t.Fatalf("groups %v", ids)
	}
	billing := tp.call("GET", base+"/consumer-group/billing", "carol", nil).json(t)
	parts := billing["partitions"].([]any)
	members := billing["member_list"].([]any)
	if len(parts) == 0 || len(members) != 1 || billing["state"] != "Stable" {
		t.Fatalf("billing %v", billing)
	}
	p0 := parts[0].(map[string]any)
	if p0["end_offset"].(float64) < p0["committed_offset"].(float64) || p0["lag"] == nil {
		t.Errorf("billing partition %v", p0)
	}
	if lt, ok := p0["lag_time"].(map[string]any); !ok || !hasKeys(lt, "age_seconds", "catch_up_seconds") {
		t.Errorf("billing partition's lag in time %v", p0["lag_time"])
	}
	wantError(t, tp.call("POST", base+"/consumer-group/billing/reset-offsets", "carol", map[string]any{"to": "earliest"}), http.StatusConflict, "CONFLICT")

	dry := tp.call("POST", base+"/consumer-group/replay/reset-offsets?dry_run=true", "carol", map[string]any{"to": "earliest"})
	if dry.status != 200 {
		t.Fatalf("dry run: %d %s", dry.status, dry.body)
	}
	changes := dry.json(t)["changes"].([]any)
	if len(changes) != 6 || changes[0].(map[string]any)["before"] != 80.0 || changes[0].(map[string]any)["after"] != 0.0 {
		t.Fatalf("plan %v", changes)
	}
	if got := tp.call("GET", base+"/consumer-group/replay", "carol", nil).json(t)["partitions"].([]any)[0].(map[string]any)["committed_offset"]; got != 80.0 {
		t.Errorf("the dry run moved the offsets: %v", got)
	}
	wantError(t, tp.call("POST", base+"/consumer-group/replay/reset-offsets", "dave", map[string]any{"to": "earliest"}), http.StatusForbidden, "INSUFFICIENT_ROLE")
	if r := tp.call("POST", base+"/consumer-group/replay/reset-offsets", "carol", map[string]any{"to": "earliest"}); r.status != 200 {
		t.Fatalf("reset: %d %s", r.status, r.body)
	}
	if got := tp.call("GET", base+"/consumer-group/replay", "carol", nil).json(t)["partitions"].([]any)[0].(map[string]any)["committed_offset"]; got != 0.0 {
		t.Errorf("after the reset: %v", got)
	}

	msgs := tp.call("GET", base+"/topic/sensor-readings/messages?limit=10", "carol", nil)
	if msgs.status != 200 {
		t.Fatalf("messages: %d %s", msgs.status, msgs.body)
	}
	got := items(t, msgs)
	if len(got) != 10 || got[0]["value_encoding"] != "avro" || !strings.Contains(got[0]["value"].(string), `"sensor"`) {
		t.Errorf("messages %v", got)
	}
	// In run (data_access: viewers in dev) a Viewer reads too.
	if r := tp.call("GET", "/api/v1/scada/run/topic/sensor-readings/messages?limit=1", "dave", nil); r.status != http.StatusOK {
		t.Errorf("a Viewer's read in run: %d %s", r.status, r.body)
	}
	wantError(t, tp.call("GET", base+"/topic/sensor-readings/messages", "dave", nil), http.StatusForbidden, "INSUFFICIENT_ROLE")
}

func hasKeys(m map[string]any, keys ...string) bool {
	for _, k := range keys {
		if _, ok := m[k]; !ok {
			return false
		}
	}
	return true
}
