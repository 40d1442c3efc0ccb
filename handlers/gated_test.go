package handlers_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/servicetest"
)

// TestReadOnlyStageGuidesDevelopersToARequest: in a read-only stage, a
// Developer is offered the create and edit forms as requests; the filled
// form becomes a change request's document to review (nothing changed,
// nothing filed); the banner points at a request instead of saying
// changes are reserved to Admins; what was filed is counted in the
// sidebar of the Admin who reviews it.
func TestReadOnlyStageGuidesDevelopersToARequest(t *testing.T) {
	s := newSite(t)
	p := s.do(http.MethodGet, "/scada/run/topics", "carol", nil)
	if p.status != 200 || !strings.Contains(p.body, "(as a request)") || strings.Contains(p.body, "reserved to Admins") ||
		!strings.Contains(p.body, `id="read-only-request"`) {
		t.Fatalf("carol's read-only topics page: %d\n%s", p.status, between(p.body, `id="read-only-banner"`, "</div>"))
	}
	if p = s.do(http.MethodGet, "/scada/run/topics", "dave", nil); strings.Contains(p.body, "(as a request)") || strings.Contains(p.body, `id="read-only-request"`) {
		t.Error("a Viewer is offered a request")
	}
	p = s.do(http.MethodGet, "/scada/run/topics/new", "carol", nil)
	if p.status != 200 || !strings.Contains(p.body, `id="request-change"`) || strings.Contains(p.body, `id="write-refused"`) {
		t.Fatalf("carol's topic form in run: %d", p.status)
	}
	p = s.do(http.MethodPost, "/scada/run/change-requests/draft", "carol", url.Values{"name": {"Billing Events"}, "partitions_count": {"6"},
		"config.retention.ms": {"86400000"}})
	doc := between(p.body, `id="request-document"`, "</textarea>")
	if p.status != 200 || !strings.Contains(doc, "kind: Topic") || !strings.Contains(doc, "name: Billing Events") ||
		!strings.Contains(doc, "partitions: 6") || !strings.Contains(doc, "retention.ms") || !strings.Contains(p.body, `id="request-drafted"`) {
		t.Fatalf("the drafted request: %d\n%s", p.status, doc)
	}
	if _, err := s.w.Topics.Get(servicetest.As("scada", portal.Admin), portal.Scope{BU: "scada", Stage: "run"}, "edh-shared-scada-run-billing-events", false); !portal.Is(err, portal.NotFound) {
		t.Errorf("drafting made the topic: %v", err)
	}
	if open, _ := s.w.Requests.Requests(servicetest.As("scada", portal.Admin), portal.Scope{BU: "scada", Stage: "run"}, ""); len(open) != 0 {
		t.Errorf("drafting filed %d requests", len(open))
	}
	// Filed as drafted: bob's sidebar counts it.
	if p = s.do(http.MethodGet, "/", "bob", nil); strings.Contains(p.body, `data-reviews=`) {
		t.Fatal("reviews counted before any was filed")
	}
	p = s.do(http.MethodPost, "/scada/run/change-requests", "carol", url.Values{"document": {html(doc)}, "reason": {"billing needs it"}})
	if p.status != http.StatusSeeOther && p.status != http.StatusOK {
		t.Fatalf("filing: %d\n%s", p.status, p.body)
	}
	p = s.do(http.MethodGet, "/scada/dev/topics", "bob", nil)
	if !strings.Contains(p.body, `data-reviews="change-requests"`) || !strings.Contains(p.body, `data-reviews="all"`) {
		t.Errorf("bob's sidebar does not count the request:\n%s", between(p.body, `id="resource-nav"`, "</nav>"))
	}
	if p = s.do(http.MethodGet, "/scada/dev/topics", "carol", nil); strings.Contains(p.body, `data-reviews="change-requests"`) {
		t.Error("the requester is counted as its reviewer")
	}
}

// html undoes the escaping of a textarea's text.
func html(s string) string {
	s = s[strings.Index(s, ">")+1:]
	return strings.NewReplacer("&lt;", "<", "&gt;", ">", "&#34;", `"`, "&#39;", "'", "&amp;", "&").Replace(s)
}

// TestBudgetsInHumanUnitsWithHeadroom: the admin form takes storage in
// GiB (or with a unit) and shows it back so; the topic form shows the
// room left before it is sent, and says when none is left.
func TestBudgetsInHumanUnitsWithHeadroom(t *testing.T) {
	s := newSite(t)
	b, err := s.w.Rules.UnitBudget(servicetest.As("scada", portal.Admin), portal.Scope{BU: "scada", Stage: "dev"}, false)
	if err != nil {
		t.Fatal(err)
	}
	var topics int64
	for _, l := range b.Lines {
		if l.Dimension == portal.BudgetTopics {
			topics = l.Use
		}
	}
	set := func(storage string, topicLimit int64) page {
		return s.do(http.MethodPost, "/admin/budgets/scada/dev", "frank", url.Values{"storage_bytes": {storage}, "topics": {fmt.Sprint(topicLimit)}})
	}
	if p := set("a lot", topics+1); p.status != http.StatusUnprocessableEntity || !strings.Contains(p.body, "500 GiB or 1.5 TB") {
		t.Fatalf("a storage limit in words: %d", p.status)
	}
	if p := set("1.5", topics+1); p.status >= 400 {
		t.Fatalf("1.5 GiB: %d %.300s", p.status, p.body)
	}
	b, _ = s.w.Rules.UnitBudget(servicetest.As("scada", portal.Admin), portal.Scope{BU: "scada", Stage: "dev"}, true)
	for _, l := range b.Lines {
		if l.Dimension == portal.BudgetStorageBytes && (l.Limit == nil || *l.Limit != 1610612736) {
			t.Errorf("1.5 (GiB) stored as %v bytes", l.Limit)
		}
	}
	if p := s.do(http.MethodGet, "/admin/budgets", "frank", nil); !strings.Contains(p.body, `value="1.5"`) || !strings.Contains(p.body, "storage (GiB)") {
		t.Error("the admin form does not show the storage limit in GiB")
	}
	p := s.do(http.MethodGet, "/scada/dev/budget?panel=headroom", "carol", nil)
	if !strings.Contains(p.body, `data-headroom="topics" data-left="1"`) || !strings.Contains(p.body, "1.5 GiB") || strings.Contains(p.body, "No topics left") {
		t.Errorf("the headroom with one topic left:\n%s", p.body)
	}
	if p := s.do(http.MethodGet, "/scada/dev/topics/new", "carol", nil); !strings.Contains(p.body, "panel=headroom") {
		t.Error("the topic form does not load the headroom")
	}
	set("", topics)
	if p = s.do(http.MethodGet, "/scada/dev/budget?panel=headroom", "carol", nil); !strings.Contains(p.body, "No topics left") {
		t.Errorf("the headroom with no topic left:\n%s", p.body)
	}
}

// TestSearchBox: every page of a context carries the box; typing asks
// for results under it (a fragment), and without JavaScript the form
// opens a results page; the admin area's pages are found by their title
// by those who may open them, and only by them.
func TestSearchBox(t *testing.T) {
	s := newSite(t)
	p := s.do(http.MethodGet, "/scada/dev/topics", "carol", nil)
	if !strings.Contains(p.body, `id="search-q"`) || !strings.Contains(p.body, `action="/scada/dev/search"`) {
		t.Fatal("no search box on the topics page")
	}
	frag := s.do(http.MethodGet, "/scada/dev/search?q=topic", "carol", nil, "HX-Request", "true", "HX-Target", "search-results")
	if frag.status != 200 || strings.Contains(frag.body, "<html") || !strings.Contains(frag.body, `data-hit="page"`) {
		t.Fatalf("the fragment: %d\n%.500s", frag.status, frag.body)
	}
	full := s.do(http.MethodGet, "/scada/dev/search?q=budget", "carol", nil)
	if full.status != 200 || !strings.Contains(full.body, "<html") || !strings.Contains(full.body, `href="/scada/dev/budget"`) {
		t.Fatalf("the page: %d", full.status)
	}
	if strings.Contains(s.do(http.MethodGet, "/scada/dev/search?q=webhooks", "carol", nil).body, `href="/admin/webhooks"`) {
		t.Error("carol finds an admin page")
	}
	if !strings.Contains(s.do(http.MethodGet, "/scada/dev/search?q=webhooks", "frank", nil).body, `href="/admin/webhooks"`) {
		t.Error("frank does not find the webhooks admin page")
	}
	if p := s.do(http.MethodGet, "/scada/dev/search?q=", "carol", nil, "HX-Request", "true", "HX-Target", "search-results"); p.status != 200 || p.body != "" {
		t.Errorf("an emptied box: %d %q", p.status, p.body)
	}
}

// TestNoRoleSaysSo: a unit of his landing zone in which dave has no role
// says so (still a 404, as the API answers); a unit that does not exist
// is not found.
func TestNoRoleSaysSo(t *testing.T) {
	s := newSite(t)
	p := s.do(http.MethodGet, "/crm/dev/topics", "dave", nil)
	if p.status != http.StatusNotFound || !strings.Contains(p.body, "you have no role in crm") {
		t.Errorf("crm for dave: %d\n%.400s", p.status, between(p.body, "<main", "</main>"))
	}
	if p = s.do(http.MethodGet, "/nowhere/dev/topics", "dave", nil); p.status != http.StatusNotFound || strings.Contains(p.body, "no role in") {
		t.Errorf("a unit that does not exist: %d", p.status)
	}
}
