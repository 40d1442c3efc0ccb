package main

import (
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserBackIsLiveAndForgetsSecrets is the check of what
// people do without thinking, in Chromium: Back after a context change
// restores a live page (nothing dimmed, busy or inert, its links work);
// a new API key's secret never returns, by Back after a context change
// or after a sidebar link (no resubmission either), and is in no storage;
// Enter in a read-only stage's form without the confirmation stops at the
// confirmation, which is the first field, focused and marked, with no
// toast.
func TestBrowserBackIsLiveAndForgetsSecrets(t *testing.T) {
	t.Parallel()
	tp := startPortal(t, nil)
	b := newBrowser(t, tp)
	b.signIn("bob")

	// 1. Back after a context change: the page is live.
	b.run(chromedp.Navigate(tp.url+"/scada/dev/topics"), chromedp.WaitVisible(`#page[data-stage="dev"]`))
	b.choose("context-stage", "qas")
	b.run(chromedp.WaitVisible(`#page[data-stage="qas"]`))
	b.run(chromedp.NavigateBack(), chromedp.WaitVisible(`#page[data-stage="dev"]`))
	var dead string
	b.run(chromedp.Evaluate(`(function(){
		var m = document.getElementById("main");
		var marks = document.querySelectorAll(".is-stale, [aria-busy]").length;
		if (marks) return marks + " elements marked busy";
		if (getComputedStyle(m).pointerEvents === "none") return "main is inert";
		if (getComputedStyle(m).opacity !== "1") return "main is dimmed to " + getComputedStyle(m).opacity;
		if (document.documentElement.classList.contains("is-loading")) return "the page says it is loading";
		return "";
	})()`, &dead))
	if dead != "" {
		t.Errorf("after Back: %s", dead)
	}
	b.run(chromedp.Click(`#resource-nav a[data-nav="consumer-groups"]`), chromedp.WaitVisible(`#page[data-resource="consumer-groups"]`))

	// 2. A key's secret is shown once.
	sfx := suffix()
	a := tp.call("POST", "/api/v1/scada/dev/service-account", "bob", map[string]any{"name": "backed-" + sfx, "type": "consumer"})
	if a.status != http.StatusCreated {
		t.Fatalf("the account: %d %s", a.status, a.body)
	}
	acct := a.json(t)["id"].(string)
	t.Cleanup(func() {
		if r := tp.call("DELETE", "/api/v1/scada/dev/service-account/"+acct+"?delete_api_keys=true", "bob", nil); r.status != http.StatusOK {
			t.Errorf("removing the account: %d %s", r.status, r.body)
		}
	})
	b.run(chromedp.Navigate(tp.url+"/scada/dev/service-account/"+acct), chromedp.WaitVisible("#key-form", chromedp.ByID),
		chromedp.Click(`#key-form button[type="submit"]`, chromedp.ByQuery), chromedp.WaitVisible("#key-created", chromedp.ByID))
	secret := b.value("#key-secret")
	if len(secret) < 16 || !strings.HasSuffix(b.location(), "/secret") {
		t.Fatalf("the secret page: %q at %s", secret, b.location())
	}
	secretPage := b.location()
	inStorage := func() string {
		var s string
		b.run(chromedp.Evaluate(`JSON.stringify(sessionStorage) + JSON.stringify(localStorage) + document.documentElement.outerHTML`, &s))
		return s
	}
	// Back after a context change.
	b.choose("context-stage", "qas")
	b.run(chromedp.WaitVisible(`#page[data-stage="qas"]`))
	if strings.Contains(inStorage(), secret) {
		t.Error("the secret is in the browser's storage after leaving its page")
	}
	b.run(chromedp.NavigateBack(), chromedp.WaitVisible("#key-secret-shown", chromedp.ByID))
	if strings.Contains(inStorage(), secret) || b.location() != secretPage {
		t.Errorf("Back after a context change shows the secret again, or another page (%s)", b.location())
	}
	// Back after a sidebar link: the page, not a resubmission.
	b.run(chromedp.Click(`#resource-nav a[data-nav="topics"]`), chromedp.WaitVisible(`#page[data-resource="topics"]`))
	b.run(chromedp.NavigateBack(), chromedp.WaitVisible("#key-secret-shown", chromedp.ByID))
	if strings.Contains(inStorage(), secret) {
		t.Error("Back after a sidebar link shows the secret again")
	}

	// 3. Enter in a read-only stage's form without the confirmation.
	b.run(chromedp.Navigate(tp.url+"/scada/run/topics/new"), chromedp.WaitVisible("#topic-form", chromedp.ByID))
	var focused string
	b.run(chromedp.Evaluate(`document.activeElement && document.activeElement.id`, &focused))
	var first string
	b.run(chromedp.Evaluate(`document.querySelector("#topic-form input:not([type=hidden]), #topic-form select").id`, &first))
	if focused != "confirm-stage" || first != "confirm-stage" {
		t.Errorf("the confirmation is not the first field (%s) or not focused (%s)", first, focused)
	}
	name := "entered-" + sfx
	b.run(chromedp.SendKeys("#name", name+"\r", chromedp.ByID))
	if !b.shown(`#confirm-stage[aria-invalid="true"]`) || !b.shown("#confirm-stage-error") {
		t.Fatal("Enter without the confirmation does not mark it")
	}
	b.run(chromedp.Evaluate(`document.activeElement && document.activeElement.id`, &focused))
	if focused != "confirm-stage" || b.count("#toasts .toast") != 0 || b.location() != "/scada/run/topics/new" {
		t.Errorf("after Enter: focus on %s, %d toasts, at %s", focused, b.count("#toasts .toast"), b.location())
	}
	tp.removeAfter("/api/v1/scada/run/topic/" + name)
	// The form's own page is a topics page too: wait for the created topic's.
	b.run(chromedp.SendKeys("#confirm-stage", "run\r", chromedp.ByID), chromedp.WaitVisible("#settings", chromedp.ByID))
	if loc := b.location(); loc != "/scada/run/topic/edh-shared-scada-run-"+name {
		t.Errorf("after the confirmed create: at %s", loc)
	}
	if r := tp.call("GET", "/api/v1/scada/run/topic/"+name, "bob", nil); r.status != http.StatusOK {
		t.Errorf("the confirmed create: %d %s", r.status, r.body)
	}
}
