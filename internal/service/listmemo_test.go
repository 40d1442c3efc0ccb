package service

import (
	"fmt"
	"testing"

	"github.com/edh-platform/rms-portal/internal/platform"
)

// TestListMemoViews: a unit's run of names, the whole cluster without
// internal topics, a search in any case; a new list gives new views.
func TestListMemoViews(t *testing.T) {
	all := []platform.TopicInfo{{Name: "_schemas", Internal: true}, {Name: "a-b-dev-x"}, {Name: "a-b-dev-y"},
		{Name: "a-b-dev.z"}, {Name: "a-b-devx"}, {Name: "a-c-dev-Sensor"}, {Name: "b"}}
	m := newListMemo()
	names := func(ts []platform.TopicInfo) string {
		var out []string
		for _, t := range ts {
			out = append(out, t.Name)
		}
		return fmt.Sprint(out)
	}
	for _, c := range []struct{ prefix, search, want string }{
		{"a-b-dev-", "", "[a-b-dev-x a-b-dev-y]"},
		{"a-c-dev-", "sensor", "[a-c-dev-Sensor]"},
		{"a-b-dev-", "Y", "[a-b-dev-y]"},
		{"", "", "[a-b-dev-x a-b-dev-y a-b-dev.z a-b-devx a-c-dev-Sensor b]"},
		{"", "dev-", "[a-b-dev-x a-b-dev-y a-c-dev-Sensor]"},
		{"z-", "", "[]"},
	} {
		for range 2 { // the second answer is the memo's
			if got := names(m.view(all, c.prefix, c.search)); got != c.want {
				t.Errorf("view(%q, %q) = %s, want %s", c.prefix, c.search, got, c.want)
			}
		}
	}
	next := append([]platform.TopicInfo{}, all...)
	next[1].Name = "a-b-dev-w"
	if got := names(m.view(next, "a-b-dev-", "")); got != "[a-b-dev-w a-b-dev-y]" {
		t.Errorf("a new list gave %s", got)
	}
}
