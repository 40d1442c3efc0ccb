package topics

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
			if got := names(m.view("env", all, c.prefix, c.search)); got != c.want {
				t.Errorf("view(%q, %q) = %s, want %s", c.prefix, c.search, got, c.want)
			}
		}
	}
	next := append([]platform.TopicInfo{}, all...)
	next[1].Name = "a-b-dev-w"
	if got := names(m.view("env", next, "a-b-dev-", "")); got != "[a-b-dev-w a-b-dev-y]" {
		t.Errorf("a new list gave %s", got)
	}
}

// TestMemoKeepsNoReplacedList: views are kept for the list in force only;
// after a hundred refreshes (or writes) with searches on each, the memo
// holds one list per environment, not a hundred.
func TestMemoKeepsNoReplacedList(t *testing.T) {
	m := newListMemo()
	for round := 0; round < 100; round++ {
		for _, env := range []string{"lz/dev", "lz/qas"} {
			all := make([]platform.TopicInfo, 1000)
			for i := range all {
				all[i] = platform.TopicInfo{Name: fmt.Sprintf("lz-a-dev-t%04d", i), Partitions: 1 + i%3}
			}
			m.view(env, all, "lz-a-dev-", "")
			m.view(env, all, "lz-a-dev-", fmt.Sprint(round%10))
			m.byPartitions(env, m.view(env, all, "", ""))
		}
	}
	lists := map[*platform.TopicInfo]bool{}
	for k, v := range m.views {
		if k.scope != "\x00partitions" {
			lists[&v.src[0]] = true
		}
	}
	if len(lists) != 2 || len(m.views) > 8 {
		t.Errorf("the memo holds %d lists in %d views", len(lists), len(m.views))
	}
}
