package main

import (
	"strings"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// TestBrowserContextNeverLies walks the findings as carol and
// dave in Chromium: after Back the selector, the saved context and the
// page agree; while a context loads (2 s of latency) the old content is
// stale and inert with a progress bar; a change waiting for Reload is
// kept by the sidebar's links; a form with problems shows them all and
// focuses the first; a form dave may not send says so and is disabled.
func TestBrowserContextNeverLies(t *testing.T) {
	t.Parallel()
	tp := startPortal(t, nil)
	b := newBrowser(t, tp)
	b.signIn("carol")
	stored := func() string {
		var s string
		b.run(chromedp.Evaluate(`(JSON.parse(localStorage.getItem("rms.context")||"{}")).stage||""`, &s))
		return s
	}

	// 1. Back after dev → qas → run shows qas everywhere.
	b.run(chromedp.Navigate(tp.url+"/scada/dev/topics"), chromedp.WaitVisible(`#page[data-stage="dev"]`))
	b.choose("context-stage", "qas")
	b.run(chromedp.WaitVisible(`#page[data-stage="qas"]`))
	b.choose("context-stage", "run")
	b.run(chromedp.WaitVisible(`#page[data-stage="run"]`))
	b.run(chromedp.NavigateBack(), chromedp.WaitVisible(`#page[data-stage="qas"]`))
	if sel, loc, saved := b.value("#context-stage"), b.location(), stored(); sel != "qas" || loc != "/scada/qas/topics" || saved != "qas" {
		t.Errorf("after Back: selector %s, address %s, saved %s", sel, loc, saved)
	}
	b.run(chromedp.NavigateForward(), chromedp.WaitVisible(`#page[data-stage="run"]`))
	if sel, saved := b.value("#context-stage"), stored(); sel != "run" || saved != "run" {
		t.Errorf("after Forward: selector %s, saved %s", sel, saved)
	}

	// 2. With 2 s of latency the old content is stale and inert meanwhile.
	b.run(chromedp.Navigate(tp.url+"/scada/dev/topics"), chromedp.WaitVisible(`#page[data-stage="dev"]`),
		network.Enable(), network.EmulateNetworkConditions(false, 2000, -1, -1))
	b.choose("context-stage", "qas")
	var stale bool
	b.run(chromedp.Evaluate(`document.getElementById("main").classList.contains("is-stale") &&
		document.getElementById("main").getAttribute("aria-busy") === "true" &&
		document.documentElement.classList.contains("is-loading") &&
		getComputedStyle(document.getElementById("main")).pointerEvents === "none"`, &stale))
	if !stale {
		t.Error("while qas loads, dev's content is not marked stale and inert")
	}
	b.screenshot("ux-01-loading")
	b.run(chromedp.WaitVisible(`#page[data-stage="qas"]`), network.EmulateNetworkConditions(false, 0, -1, -1))
	if b.visible(`#main.is-stale`) {
		t.Error("the new content is still marked stale")
	}

	// 3. Auto reload off: the pending stage is kept by a sidebar link.
	b.run(chromedp.Click("#auto-reload", chromedp.ByID))
	b.choose("context-stage", "run")
	if !b.shown("#reload-dot") || b.attr("#page", "data-stage") != "qas" {
		t.Fatal("with Auto reload off the change is not pending")
	}
	b.run(chromedp.Click(`#resource-nav a[data-nav="consumer-groups"]`), chromedp.WaitVisible(`#page[data-stage="run"]`))
	if loc := b.location(); loc != "/scada/run/consumer-groups" {
		t.Errorf("the sidebar link went to %s", loc)
	}
	b.run(chromedp.Click("#auto-reload", chromedp.ByID))

	// 10. Every problem at once, the first one focused.
	b.run(chromedp.Navigate(tp.url+"/scada/dev/topics/new"), chromedp.WaitVisible("#topic-form", chromedp.ByID),
		chromedp.SetValue("#name", "Bad Name!", chromedp.ByQuery), chromedp.SetValue("#partitions_count", "0", chromedp.ByQuery),
		chromedp.Click(`#topic-form button[type="submit"]`, chromedp.ByQuery),
		chromedp.WaitVisible(`#name[aria-invalid="true"]`, chromedp.ByQuery))
	var focused string
	b.run(chromedp.Evaluate(`document.activeElement && document.activeElement.id`, &focused))
	if b.attr("#partitions_count", "aria-invalid") != "true" || focused != "name" {
		t.Errorf("problems: partitions invalid %q, focus on %q", b.attr("#partitions_count", "aria-invalid"), focused)
	}
	b.screenshot("ux-02-form-problems")

	// 12. dave opens the create form by its address.
	d := newBrowser(t, tp)
	d.signIn("dave")
	d.run(chromedp.Navigate(tp.url+"/scada/dev/topics/new"), chromedp.WaitVisible("#write-refused", chromedp.ByID))
	var disabled bool
	d.run(chromedp.Evaluate(`document.querySelector('#topic-form button[type="submit"]').disabled`, &disabled))
	if !disabled || !strings.Contains(d.text("#write-refused"), "you may read here") {
		t.Errorf("dave's form: submit disabled %v, %q", disabled, d.text("#write-refused"))
	}
	d.screenshot("ux-03-form-refused")
}
