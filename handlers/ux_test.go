package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/edh-platform/rms-portal/internal/platform"
)

// TestWriteFormsSayWhoMayNot: a write form opened by URL by someone who
// may not send it says why at the top and its submit is disabled; an
// Admin in the read-only stage is asked to type the stage's name, and
// every page of that stage carries the band.
func TestWriteFormsSayWhoMayNot(t *testing.T) {
	s := newSite(t)
	for _, c := range []struct{ user, path, want string }{
		{"dave", "/scada/dev/topics/new", "you may read here, not change anything"},
		{"carol", "/scada/dev/service-accounts/new", "Only Admins and Super Admins of scada"},
		{"carol", "/scada/run/connectors/new", "The run stage is read-only for Developers"},
	} {
		p := s.do(http.MethodGet, c.path, c.user, nil)
		if p.status != http.StatusOK || !strings.Contains(p.body, `id="write-refused"`) || !strings.Contains(p.body, c.want) {
			t.Errorf("%s on %s: %d, refusal %q missing", c.user, c.path, p.status, c.want)
		}
		if !strings.Contains(p.body, `<button disabled`) {
			t.Errorf("%s on %s: the submit button is live", c.user, c.path)
		}
	}
	// The topic form makes her change a request instead
	// (TestReadOnlyStageGuidesDevelopersToARequest).
	if p := s.do(http.MethodGet, "/scada/run/topics/new", "carol", nil); !strings.Contains(p.body, `id="write-request"`) || strings.Contains(p.body, "Create topic</button>") {
		t.Error("carol in run is not offered the form as a request")
	}
	p := s.do(http.MethodGet, "/scada/dev/topics/new", "carol", nil)
	if strings.Contains(p.body, `id="write-refused"`) || strings.Contains(p.body, `id="stage-confirm"`) || strings.Contains(p.body, `id="stage-band"`) {
		t.Error("carol in dev is told she may not write, or asked to confirm")
	}
	p = s.do(http.MethodGet, "/scada/run/topics/new", "bob", nil)
	if !strings.Contains(p.body, `id="stage-confirm"`) || strings.Contains(p.body, `id="write-refused"`) || !strings.Contains(p.body, `id="stage-band"`) {
		t.Error("bob in run is not asked to type the stage, or the band is missing")
	}
}

// TestStageConfirmation: bob's create in run with the stage mistyped is
// refused and changes nothing; typed right, it is made.
func TestStageConfirmation(t *testing.T) {
	s := newSite(t)
	name := "confirmed-" + strings.ReplaceAll(t.Name(), "/", "-")
	form := func(typed string) url.Values {
		return url.Values{"name": {strings.ToLower(name)}, "partitions_count": {"1"}, "confirm_stage_required": {"1"}, "confirm_stage": {typed}}
	}
	if p := s.do(http.MethodPost, "/scada/run/topics", "bob", form("dev")); p.status != http.StatusBadRequest || !strings.Contains(p.body, "type run to confirm") {
		t.Fatalf("mistyped: %d", p.status)
	}
	if s.w.Cluster("edh-shared", "run").Has("edh-shared-scada-run-" + strings.ToLower(name)) {
		t.Fatal("a mistyped confirmation created the topic")
	}
	if p := s.do(http.MethodPost, "/scada/run/topics", "bob", form("run")); p.status >= 400 {
		t.Fatalf("confirmed: %d", p.status)
	}
	if !s.w.Cluster("edh-shared", "run").Has("edh-shared-scada-run-" + strings.ToLower(name)) {
		t.Error("the confirmed create did not happen")
	}
}

// TestBulkProblemsByLine: a refused batch names its rows by line (the
// header counted), and a semicolon-separated list is read as such.
func TestBulkProblemsByLine(t *testing.T) {
	s := newSite(t)
	text := "name;type;description\ngood-one;producer;first\nbad name!;producer;x\ngood-two;nonsense;y\n"
	p := s.do(http.MethodPost, "/scada/dev/service-accounts/bulk", "bob", url.Values{"accounts": {text}})
	if p.status != http.StatusUnprocessableEntity && p.status != http.StatusBadRequest {
		t.Fatalf("status %d", p.status)
	}
	for _, want := range []string{"line 3 · name", "line 4 · type"} {
		if !strings.Contains(p.body, want) {
			t.Errorf("no %q in the problems", want)
		}
	}
	if strings.Contains(p.body, "items[") {
		t.Error("the problems name items[i]")
	}
}

// TestTopicPager: pages by number with Previous and Next, a count, the
// page size and the sort (by partitions too) kept in every link.
func TestTopicPager(t *testing.T) {
	s := newSite(t)
	c := s.w.Cluster("edh-shared", "dev")
	for i := range 60 {
		if err := c.CreateTopic(context.Background(), platform.TopicSpec{Name: fmt.Sprintf("edh-shared-scada-dev-pager-%02d", i), Partitions: i%7 + 1}); err != nil {
			t.Fatal(err)
		}
	}
	p := s.do(http.MethodGet, "/scada/dev/topics?q=pager&page_size=25&page=2&sort=partitions&order=desc", "carol", nil)
	if p.status != http.StatusOK {
		t.Fatalf("status %d", p.status)
	}
	for _, want := range []string{"Showing 26–50 of 60 topics", `aria-current="page">2<`, `id="prev-page"`, `id="next-page"`,
		`href="/scada/dev/topics?order=desc&amp;page=3&amp;page_size=25&amp;q=pager&amp;sort=partitions"`, `aria-sort="descending"`} {
		if !strings.Contains(p.body, want) {
			t.Errorf("page 2 lacks %s", want)
		}
	}
	first := strings.Index(p.body, `data-topic="`)
	if first < 0 || !strings.Contains(p.body[first:first+60], "pager-") {
		t.Fatal("no topic rows")
	}
	// By partitions, descending: page 2 of 25 starts among the 4s (9 of
	// each count from 7 down: 7, 6 and most of the 5s fill page 1).
	if got := p.body[first+12 : first+12+len("edh-shared-scada-dev-pager-00")]; !strings.HasPrefix(got, "edh-shared-scada-dev-pager-") {
		t.Errorf("first row %s", got)
	}
	p = s.do(http.MethodGet, "/scada/dev/topics?q=pager&page=9", "carol", nil)
	if !strings.Contains(p.body, "Page 9 is past the end: there are 2 pages.") {
		t.Error("a page past the end is not explained")
	}
}

// TestTopicPageLinks: a topic's page links the connectors that write it
// and its schema subjects; a connector's page links its topics.
func TestTopicPageLinks(t *testing.T) {
	s := newSite(t)
	sd := s.w.Seed(t, "scada", "dev")
	p := s.do(http.MethodGet, "/scada/dev/topic/"+sd.Topic, "carol", nil)
	if p.status != http.StatusOK {
		t.Fatalf("topic page: %d", p.status)
	}
	for _, want := range []string{`data-connector="` + sd.Connector + `"`, "writes it", `data-subject="` + sd.Topic + `-value"`} {
		if !strings.Contains(p.body, want) {
			t.Errorf("the topic page lacks %s", want)
		}
	}
	p = s.do(http.MethodGet, "/scada/dev/connector/"+sd.Connector, "carol", nil)
	if !strings.Contains(p.body, `data-topic-link="`) {
		t.Error("the connector page does not link its topic")
	}
}

// TestTopicPickers: the schema and connector forms suggest the unit's
// topics, and warn (once) before saving for a topic that does not exist.
func TestTopicPickers(t *testing.T) {
	s := newSite(t)
	s.w.Seed(t, "scada", "dev")
	p := s.do(http.MethodGet, "/scada/dev/schemas/new", "carol", nil)
	if !strings.Contains(p.body, `<datalist id="unit-topics"><option value="existing">`) || !strings.Contains(p.body, `list="unit-topics"`) {
		t.Error("the schema form suggests no topics")
	}
	form := url.Values{"topic": {"no-such-topic"}, "subject_type": {"value"}, "schema_type": {"AVRO"}, "schema": {`"string"`}}
	p = s.do(http.MethodPost, "/scada/dev/schemas", "carol", form)
	if p.status != http.StatusUnprocessableEntity && p.status != http.StatusBadRequest || !strings.Contains(p.body, "no such topic in scada/dev") || !strings.Contains(p.body, `id="save-anyway"`) {
		t.Fatalf("a schema for a missing topic: %d", p.status)
	}
	form.Set("allow_missing_topics", "1")
	if p = s.do(http.MethodPost, "/scada/dev/schemas", "carol", form); p.status >= 400 {
		t.Errorf("saved anyway: %d", p.status)
	}
	cfg := url.Values{"name": {"picky"}, "config_json": {`{"connector.class": "DatagenSource", "kafka.topic": "typo-topic", "quickstart": "USERS", "output.data.format": "JSON", "kafka.api.key": "K", "kafka.api.secret": "S"}`}}
	p = s.do(http.MethodPost, "/scada/dev/connectors", "carol", cfg)
	if !strings.Contains(p.body, "typo-topic: no such topic in scada/dev") {
		t.Errorf("a connector for a missing topic: %d", p.status)
	}
}

// TestWholeClusterViews: on the main unit alice sees every unit's
// resources with a Business unit column and short names, and can narrow
// each list to one unit or to what is outside the convention.
func TestWholeClusterViews(t *testing.T) {
	s := newSite(t)
	s.w.Seed(t, "scada", "dev")
	s.w.Seed(t, "crm", "dev")
	for _, res := range []string{"topics", "connectors", "schemas", "service-accounts", "identity-pools"} {
		p := s.do(http.MethodGet, "/platform/dev/"+res, "alice", nil)
		if p.status != http.StatusOK || !strings.Contains(p.body, `id="unit-filter"`) || !strings.Contains(p.body, `data-unit="scada"`) || !strings.Contains(p.body, `data-unit="crm"`) {
			t.Errorf("%s, whole cluster: %d, filter or units missing", res, p.status)
		}
		p = s.do(http.MethodGet, "/platform/dev/"+res+"?unit=crm", "alice", nil)
		if p.status != http.StatusOK || strings.Contains(p.body, `data-unit="scada"`) || !strings.Contains(p.body, `data-unit="crm"`) {
			t.Errorf("%s narrowed to crm: %d", res, p.status)
		}
		if p := s.do(http.MethodGet, "/scada/dev/"+res, "carol", nil); strings.Contains(p.body, `id="unit-filter"`) {
			t.Errorf("%s: a unit's own view offers the filter", res)
		}
	}
	p := s.do(http.MethodGet, "/platform/dev/connectors?unit=crm", "alice", nil)
	if !strings.Contains(p.body, ">existing</a>") {
		t.Error("connectors of another unit are not shown by their short name")
	}
}
