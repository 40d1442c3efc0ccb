package main

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserContextSearchAndGuidedRequests is the check of what
// guides people, in Chromium: the unit, stage and Reload stand in the
// first screen at 1440x900 and on a phone; Ctrl+K puts the cursor in the
// search box, results come as one types and the arrow keys and Enter
// open one; a Developer in a read-only stage fills the topic form and
// requests the change, which arrives pre-filled with the reason field
// focused, and is counted in the sidebar of the Admin who reviews it; the
// grant form offers the zone's units and the chosen unit's topics; the
// resource icons are distinct; the admin area's tabs stand on one line.
func TestBrowserContextSearchAndGuidedRequests(t *testing.T) {
	t.Parallel()
	tp := startPortal(t, nil)
	b := newBrowser(t, tp)
	b.signIn("carol")

	// 1. The context in the first screen.
	for _, size := range [][2]int64{{1440, 900}, {390, 844}} {
		b.run(chromedp.EmulateViewport(size[0], size[1]), chromedp.Navigate(tp.url+"/scada/dev/topics"), chromedp.WaitVisible(`#page[data-stage="dev"]`))
		var where string
		b.run(chromedp.Evaluate(`(function(){
			var out = [];
			["context-bu", "context-stage", "reload", "search-q"].forEach(function(id){
				var r = document.getElementById(id).getBoundingClientRect();
				if (r.height === 0 || r.bottom > window.innerHeight || r.top < 0) out.push(id + " at " + Math.round(r.top) + "-" + Math.round(r.bottom));
			});
			return out.join(", ");
		})()`, &where))
		if where != "" {
			t.Errorf("at %dx%d outside the first screen: %s", size[0], size[1], where)
		}
	}
	b.run(chromedp.EmulateViewport(1440, 900))

	// 2. Ctrl+K, type, arrows, and the focused hit followed.
	b.run(chromedp.Navigate(tp.url+"/scada/dev/consumer-groups"), chromedp.WaitVisible(`#page[data-resource="consumer-groups"]`),
		chromedp.KeyEvent("k", chromedp.KeyModifiers(input.ModifierCtrl)))
	var focused string
	b.run(chromedp.Evaluate(`document.activeElement && document.activeElement.id`, &focused))
	if focused != "search-q" {
		t.Fatalf("Ctrl+K focused %q", focused)
	}
	// The results of the whole query, not of the letters typed so far:
	// a later answer would replace the hit focused in an earlier one.
	b.run(chromedp.SendKeys("#search-q", "sensor-read"), chromedp.WaitVisible(`#search-results [data-search="sensor-read"] a[data-hit="topic"]`),
		chromedp.KeyEvent(kb.ArrowDown),
	)
	b.run(chromedp.Evaluate(`document.activeElement && document.activeElement.getAttribute("data-hit")`, &focused))
	if focused != "topic" {
		t.Fatalf("ArrowDown focused %q, not the first topic", focused)
	}
	// Enter on a focused link follows it; DevTools' key events hang
	// when a key starts a navigation, so the link is followed as Enter
	// does.
	b.run(chromedp.Evaluate(`document.activeElement.click()`, nil))
	if !b.until(`!!document.querySelector('#page[data-resource="topics"] #page-title') && document.readyState === "complete"`) {
		t.Fatalf("following the hit: at %s", b.location())
	}
	if loc := b.location(); !strings.Contains(loc, "/scada/dev/topic/edh-shared-scada-dev-sensor-readings") {
		t.Errorf("Enter on the hit opened %s", loc)
	}

	// 3. A Developer in the read-only stage requests the change.
	name := "requested-" + suffix()
	b.run(chromedp.Navigate(tp.url+"/scada/run/topics"), chromedp.WaitVisible(`#page[data-stage="run"]`))
	// DevTools loses track of a page that a click replaced: the create
	// button's page is opened by its address, and what a person types and
	// clicks is done in the page.
	if href := b.attr("#create-button", "href"); href != "/scada/run/topics/new" {
		t.Fatalf("carol's create button in run leads to %q", href)
	}
	b.run(chromedp.Navigate(tp.url + "/scada/run/topics/new"))
	if !b.until(`!!document.getElementById("request-change")`) {
		var dbg string
		b.run(chromedp.Evaluate(`document.getElementById("main").innerHTML.slice(-1500)`, &dbg))
		t.Fatalf("no request button:\n%s", dbg)
	}
	b.run(
		chromedp.Evaluate(`document.getElementById("name").value = `+strconvQuote(name)+`; document.getElementById("request-change").click()`, nil))
	if !b.until(`!!document.getElementById("request-drafted")`) {
		var dbg string
		b.run(chromedp.Evaluate(`location.pathname + " | " + document.getElementById("toasts").innerText + " | " + document.getElementById("main").innerText.slice(0, 400)`, &dbg))
		t.Fatalf("no draft: %s", dbg)
	}
	if doc := b.value("#request-document"); !strings.Contains(doc, "kind: Topic") || !strings.Contains(doc, "name: "+name) {
		t.Fatalf("the drafted document:\n%s", doc)
	}
	b.run(chromedp.Evaluate(`document.activeElement && document.activeElement.id`, &focused))
	if focused != "request-reason" {
		t.Errorf("after drafting the focus is on %q, not the reason", focused)
	}
	b.run(chromedp.Evaluate(`document.getElementById("request-reason").value = "needed in run"; document.getElementById("request-form").requestSubmit()`, nil))
	if !b.until(`/\/change-request\/cr-/.test(location.pathname) && document.readyState === "complete"`) {
		t.Fatalf("filing: at %s", b.location())
	}
	loc := b.location()
	id := loc[strings.LastIndex(loc, "/")+1:]
	if !strings.HasPrefix(id, "cr-") {
		t.Fatalf("filed at %s", loc)
	}
	t.Cleanup(func() {
		if r := tp.call("POST", "/api/v1/scada/run/change-request/"+id+"/withdraw", "carol", nil); r.status != http.StatusOK {
			t.Errorf("withdrawing %s: %d %s", id, r.status, r.body)
		}
	})

	// 4. Bob's sidebar counts it; the grant form offers lists.
	bob := newBrowser(t, tp)
	bob.signIn("bob")
	bob.run(chromedp.Navigate(tp.url+"/scada/dev/grants/new"), chromedp.WaitVisible("#grant-owner", chromedp.ByID))
	if n := bob.text(`#resource-nav [data-reviews="change-requests"]`); n == "" || n == "0" {
		t.Errorf("bob's sidebar counts %q change requests", n)
	}
	bob.choose("grant-owner", "crm")
	if !bob.shown(`#grant-topics-help`) || bob.count(`#grant-topics option`) == 0 {
		t.Errorf("choosing crm offers %d topics", bob.count(`#grant-topics option`))
	}

	// 5. Distinct icons; admin tabs on one line at 1440 px.
	var icons []string
	bob.run(chromedp.Evaluate(`Array.prototype.map.call(document.querySelectorAll('#resource-nav a[data-scoped] svg path'), function(p){return p.getAttribute("d")})`, &icons))
	seen := map[string]bool{}
	for _, d := range icons {
		if seen[d] {
			t.Errorf("an icon is used twice in the navigation: %.40s", d)
		}
		seen[d] = true
	}
	frank := newBrowser(t, tp)
	frank.signIn("frank")
	frank.run(chromedp.EmulateViewport(1440, 900), chromedp.Navigate(tp.url+"/admin/audit"), chromedp.WaitVisible(`[data-admin-tab="audit"]`))
	var rows int
	frank.run(chromedp.Evaluate(`new Set(Array.prototype.map.call(document.querySelectorAll('[data-admin-tab]'), function(a){return a.getBoundingClientRect().top})).size`, &rows))
	if rows != 1 {
		t.Errorf("the admin tabs stand on %d lines at 1440 px", rows)
	}
}

// until waits (up to thirty seconds) for a condition of the page, across
// navigations: a script that runs while the page is being replaced fails
// and is tried again.
func (b *browser) until(cond string) bool {
	b.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(b.ctx, 2*time.Second)
		var ok bool
		err := chromedp.Run(ctx, chromedp.Evaluate(cond, &ok))
		cancel()
		if err == nil && ok {
			return true
		}
		<-tick.C
	}
	return false
}
