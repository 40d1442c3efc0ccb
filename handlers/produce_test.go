package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/edh-platform/rms-portal/internal/platform"
)

// TestProducePage: carol sends one record from the fields and a batch of
// JSON lines, and sees where each landed; a bad record shows its problem
// at its place and sends nothing; dave (a Viewer) is offered neither the
// Records nor the Produce button, and the page tells him why he cannot
// send.
func TestProducePage(t *testing.T) {
	s := newSite(t)
	sd := s.w.Seed(t, "scada", "dev")
	path := "/scada/dev/topic/" + sd.Topic + "/produce"
	if p := s.do(http.MethodGet, "/scada/dev/topic/"+sd.Topic, "carol", nil); !strings.Contains(p.body, `id="produce-button"`) || !strings.Contains(p.body, `id="records-button"`) {
		t.Error("carol's topic page lacks the Produce or Records button")
	}
	// One way to the topic's metrics: its tab.
	if p := s.do(http.MethodGet, "/scada/dev/topic/"+sd.Topic, "carol", nil); strings.Count(p.body, `href="/scada/dev/topic/`+sd.Topic+`/metrics"`) != 1 {
		t.Errorf("the topic page has %d links to its metrics, want one (the tab)", strings.Count(p.body, `href="/scada/dev/topic/`+sd.Topic+`/metrics"`))
	}
	if p := s.do(http.MethodGet, "/scada/dev/topic/"+sd.Topic, "dave", nil); strings.Contains(p.body, `id="produce-button"`) || strings.Contains(p.body, `id="records-button"`) {
		t.Error("dave (a Viewer) is offered Produce or Records")
	}
	if p := s.do(http.MethodGet, path, "dave", nil); p.status != 200 || !strings.Contains(p.body, "needs the developer role") {
		t.Errorf("dave's produce page: %d", p.status)
	}

	// The topic's values have a schema: the form starts with it.
	form := s.do(http.MethodGet, path, "carol", nil)
	if !strings.Contains(form.body, `value="schema" checked`) || !strings.Contains(form.body, `name="subject" value="`+sd.Topic+`-value"`) {
		t.Errorf("the produce form of a topic with a value schema does not start with it")
	}

	p := s.do(http.MethodPost, path, "carol", url.Values{"key": {"k1"}, "value": {"hello"}, "headers": {"source: page\ntrace: 1"}, "partition": {"0"}})
	if p.status != 200 || !strings.Contains(p.body, "1 of 1 record written") || !strings.Contains(p.body, `data-partition="0"`) {
		t.Fatalf("one record: %d %s", p.status, p.body)
	}
	p = s.do(http.MethodPost, path, "carol", url.Values{"value_format": {"json"}, "batch": {"{\"key\": \"a\", \"value\": {\"n\": 1}}\n\n{\"value\": [1, 2]}\n"}})
	if p.status != 200 || !strings.Contains(p.body, "2 of 2 records written") {
		t.Errorf("a batch: %d", p.status)
	}

	writes := s.w.Cluster("edh-shared", "dev").Writes()
	for _, c := range []struct {
		form url.Values
		want string
	}{
		{url.Values{"value_format": {"json"}, "value": {"{not json"}}, "the value is not JSON"},
		{url.Values{"value_format": {"schema"}, "value": {`{"a": 1}`}}, "a: expected a string"},
		{url.Values{"value_format": {"schema"}, "batch": {"{\"value\": {\"a\": \"ok\"}}\n{\"value\": {\"b\": \"x\"}}"}}, "record 2: value.a: is required by the schema"},
		{url.Values{"batch": {"{\"value\": \"x\", \"colour\": 1}"}}, "line 1 is not a record"},
		{url.Values{"batch": {"{\"key\": \"k\"}"}}, "line 1 has no value"},
		{url.Values{"value": {"x"}, "headers": {"no colon here"}}, "write a header as name: value"},
	} {
		p := s.do(http.MethodPost, path, "carol", c.form)
		if p.status != http.StatusUnprocessableEntity || !strings.Contains(p.body, c.want) {
			t.Errorf("%v: %d, want 422 with %q", c.form, p.status, c.want)
		}
	}
	if s.w.Cluster("edh-shared", "dev").Writes() != writes {
		t.Error("a refused form wrote records")
	}
}

// TestPartitionTableCounts: the partition table counts replicas and those
// in sync (broker ids alone read as "zero replicas" on a one-broker dev
// cluster).
func TestPartitionTableCounts(t *testing.T) {
	s := newSite(t)
	sd := s.w.Seed(t, "scada", "dev")
	p := s.do(http.MethodGet, "/scada/dev/topic/"+sd.Topic, "carol", nil)
	if !strings.Contains(p.body, `data-replicas="3"`) || !strings.Contains(p.body, "3 of 3") || !strings.Contains(p.body, "on brokers 1, 2, 3") {
		t.Errorf("the partition table: %.200s", p.body[strings.Index(p.body, "partitions-heading"):])
	}
}

// TestWholeClusterGroups: the main unit's consumer-groups page lists
// every unit's groups with a unit column and filter, not under the
// platform's prefix.
func TestWholeClusterGroups(t *testing.T) {
	s := newSite(t)
	c := s.w.Cluster("edh-shared", "dev")
	c.AddGroup("edh-shared-scada-dev-billing", nil, nil)
	c.AddGroup("edh-shared-crm-dev-mailer", nil, nil)
	p := s.do(http.MethodGet, "/platform/dev/consumer-groups", "alice", nil)
	if p.status != 200 || !strings.Contains(p.body, `id="unit-filter"`) || !strings.Contains(p.body, `data-unit="scada"`) ||
		!strings.Contains(p.body, `data-unit="crm"`) || strings.Contains(p.body, "edh-shared-platform-dev-*") {
		t.Errorf("alice's whole-cluster groups: %d", p.status)
	}
	p = s.do(http.MethodGet, "/platform/dev/consumer-groups?unit=crm", "alice", nil)
	if !strings.Contains(p.body, "edh-shared-crm-dev-mailer") || strings.Contains(p.body, "edh-shared-scada-dev-billing") {
		t.Error("the unit filter does not narrow the groups to crm's")
	}
	if p := s.do(http.MethodGet, "/scada/dev/consumer-groups", "carol", nil); strings.Contains(p.body, "mailer") || strings.Contains(p.body, `id="unit-filter"`) {
		t.Error("scada's own list shows crm's group or a unit filter")
	}
}

// TestTopicListStats: the topic list shows each topic's records,
// retention and cleanup policy from one batched settings request for the
// page, not one per topic.
func TestTopicListStats(t *testing.T) {
	s := newSite(t)
	c := s.w.Cluster("edh-shared", "dev")
	s.w.Seed(t, "scada", "dev")
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		if err := c.CreateTopic(t.Context(), platform.TopicSpec{Name: "edh-shared-scada-dev-more-" + n, Partitions: 2}); err != nil {
			t.Fatal(err)
		}
	}
	c.SetConfig("edh-shared-scada-dev-existing", "retention.ms", "-1")
	c.SetConfig("edh-shared-scada-dev-existing", "cleanup.policy", "compact")
	before := c.ConfigCalls()
	p := s.do(http.MethodGet, "/scada/dev/topics", "carol", nil)
	if p.status != 200 || !strings.Contains(p.body, `data-retention="-1"`) || !strings.Contains(p.body, ">forever<") ||
		!strings.Contains(p.body, `data-cleanup="compact"`) || !strings.Contains(p.body, `data-records="90"`) {
		t.Errorf("the list's stats: %d", p.status)
	}
	if n := c.ConfigCalls() - before; n != 1 {
		t.Errorf("%d settings requests for one page", n)
	}
}

// TestTopicTabs: a topic's pages are tabs (Overview, Records, Consumers,
// Settings, Metrics), the active one marked; Settings shows every setting
// in force; a Viewer without data access has no Records tab.
func TestTopicTabs(t *testing.T) {
	s := newSite(t)
	sd := s.w.Seed(t, "scada", "dev")
	base := "/scada/dev/topic/" + sd.Topic
	for path, active := range map[string]string{base: "overview", base + "/records": "records", base + "/consumers": "consumers",
		base + "/settings": "settings", base + "/metrics": "metrics"} {
		p := s.do(http.MethodGet, path, "carol", nil)
		if p.status != 200 || strings.Count(p.body, `data-tab="`) != 5 || !strings.Contains(p.body, `data-tab="`+active+`" class="whitespace-nowrap border-b-2 px-3 py-2 font-medium border-indigo-600`) {
			t.Errorf("%s: %d, tabs %d", path, p.status, strings.Count(p.body, `data-tab="`))
		}
	}
	if p := s.do(http.MethodGet, base+"/settings", "carol", nil); !strings.Contains(p.body, `data-override="false"`) {
		t.Error("the Settings tab lacks the defaults in force")
	}
	if p := s.do(http.MethodGet, base+"/consumers", "carol", nil); !strings.Contains(p.body, "consumers-heading") {
		t.Error("the Consumers tab lacks the groups")
	}
	if p := s.do(http.MethodGet, base, "dave", nil); strings.Contains(p.body, `data-tab="records"`) || strings.Count(p.body, `data-tab="`) != 4 {
		t.Error("dave is offered the Records tab")
	}
}
