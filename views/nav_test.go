package views

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestNavigationFollowsTheKinds: a unit's navigation lists the kinds that
// declare a place in it among the unit's other pages, in order, each with
// an icon of its own name (an unknown name would draw the default).
func TestNavigationFollowsTheKinds(t *testing.T) {
	var ids []string
	seen := map[string]bool{}
	draw := func(name string) string {
		var b bytes.Buffer
		if err := resourceIcon(name).Render(context.Background(), &b); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	fallback := draw("no-such-icon")
	for _, r := range Resources() {
		ids = append(ids, r.ID)
		if r.Label == "" || seen[r.ID] {
			t.Errorf("entry %+v: no label, or twice", r)
		}
		seen[r.ID] = true
		if r.Icon != "topics" && draw(r.Icon) == fallback {
			t.Errorf("entry %s: no icon named %q", r.ID, r.Icon)
		}
	}
	want := "topics consumer-groups connectors schemas service-accounts api-keys identity-pools metrics alerts budget costs change-requests catalog grants"
	if got := strings.Join(ids, " "); got != want {
		t.Errorf("navigation %s, want %s", got, want)
	}
}
