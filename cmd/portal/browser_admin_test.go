package main

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserAdmin: frank onboards a unit through the form (htmx), edits
// its groups, switches a stage read-only, reads the trail with a diff,
// watches upstream health refresh, and previews access; carol then sees
// the banner's reason. Every admin page is captured (make screenshots).
func TestBrowserAdmin(t *testing.T) {
	t.Parallel()
	tp := startPortal(t, nil)
	b := newBrowser(t, tp)
	b.signIn("frank")
	if href := b.attr(`[data-nav="admin"]`, "href"); href != "/admin" {
		t.Fatalf("the sidebar's Admin link goes to %q", href)
	}
	b.run(chromedp.Navigate(tp.url+"/admin"), chromedp.WaitVisible("#admin-units", chromedp.ByID))
	b.screenshot("admin-01-business-units")
	if b.visible("#nav-toggle") {
		t.Error("the narrow screens' Menu button shows at 1440 px")
	}
	// The context selector in the admin area changes where unit pages go,
	// not the admin area or my access.
	b.choose("context-bu", "crm")
	if loc := b.location(); loc != "/admin" && !strings.HasPrefix(loc, "/admin/") {
		t.Errorf("choosing a context in the admin area went to %s", loc)
	}
	if a, m, topics := b.attr(`[data-nav="admin"]`, "href"), b.attr(`[data-nav="my-access"]`, "href"), b.attr(`[data-nav="topics"]`, "href"); a != "/admin" || m != "/me/access" || !strings.HasPrefix(topics, "/crm/") {
		t.Errorf("navigation after choosing crm: admin %s, my access %s, topics %s", a, m, topics)
	}

	b.run(chromedp.SendKeys("#unit-id", "billing", chromedp.ByID),
		chromedp.SendKeys(`textarea[name="groups.developer"]`, "sg-scada-developers"),
		chromedp.SendKeys(`textarea[name="groups.viewer"]`, "sg-crm-viewers"),
		chromedp.Click(`#unit-form button[type="submit"]`), chromedp.WaitVisible("#unit-stages", chromedp.ByID))
	if loc := b.location(); loc != "/admin/business-unit/billing" {
		t.Errorf("after onboarding the address is %s", loc)
	}
	if !strings.Contains(b.text("#unit-stages"), "edh-shared-billing-dev-") {
		t.Errorf("billing's stages: %s", b.text("#unit-stages"))
	}
	b.screenshot("admin-02-business-unit")

	b.run(chromedp.Navigate(tp.url+"/admin/read-only"), chromedp.WaitVisible("#read-only", chromedp.ByID),
		chromedp.SetValue(`tr[data-switch="edh-shared/qas"] select[name="read_only"]`, "true"),
		chromedp.SendKeys(`tr[data-switch="edh-shared/qas"] input[name="reason"]`, "Quarterly release freeze"),
		chromedp.Click(`tr[data-switch="edh-shared/qas"] button[type="submit"]`),
		chromedp.WaitVisible(`tr[data-switch="edh-shared/qas"] [data-state="read-only"]`))
	b.screenshot("admin-03-read-only")

	b.run(chromedp.Navigate(tp.url+"/admin/audit?action=read_only.set"), chromedp.WaitVisible("#audit-events", chromedp.ByID),
		chromedp.Click(`#audit-events li summary`), chromedp.WaitVisible(`#audit-events table[data-diff]`))
	if !strings.Contains(b.text("#audit-events"), "Quarterly release freeze") {
		t.Errorf("the diff does not show the reason: %s", b.text("#audit-events"))
	}
	b.screenshot("admin-04-audit")

	b.run(chromedp.Navigate(tp.url+"/admin/upstreams"), chromedp.WaitVisible("#upstreams", chromedp.ByID))
	b.screenshot("admin-05-upstreams")
	b.run(chromedp.Navigate(tp.url+"/admin/sessions?user=frank"), chromedp.WaitVisible(`[data-session-user="frank"]`))
	b.screenshot("admin-06-sessions")
	b.run(chromedp.Navigate(tp.url+"/admin/access"), chromedp.WaitVisible("#access-form", chromedp.ByID),
		chromedp.SendKeys("#preview-groups", "sg-scada-developers\nsg-unknown", chromedp.ByID),
		chromedp.Click(`#access-form button[type="submit"]`), chromedp.WaitVisible("#access-report", chromedp.ByID))
	if got := b.text("#unmatched-groups"); got != "sg-unknown" {
		t.Errorf("unmatched groups %q", got)
	}
	b.screenshot("admin-07-access-preview")
	b.run(chromedp.Navigate(tp.url+"/admin/config"), chromedp.WaitVisible("#effective-config", chromedp.ByID))
	b.screenshot("admin-08-config")
	b.run(chromedp.Navigate(tp.url+"/me/access"), chromedp.WaitVisible("#access-report", chromedp.ByID))
	b.screenshot("admin-09-my-access")

	// carol sees the banner's reason in edh-shared's qas.
	c := newBrowser(t, tp)
	c.signIn("carol")
	c.run(chromedp.Navigate(tp.url+"/scada/qas/topics"), chromedp.WaitVisible("#read-only-banner", chromedp.ByID))
	if got := c.text("#read-only-reason"); !strings.Contains(got, "Quarterly release freeze") {
		t.Errorf("banner reason %q", got)
	}
	// The switch shows in the context selector and on the home cards too.
	var label string
	c.run(chromedp.Evaluate(`document.querySelector('#context-stage option[value="qas"]').textContent`, &label))
	if !strings.Contains(label, "read-only") {
		t.Errorf("the selector's qas option reads %q", label)
	}
	c.run(chromedp.Navigate(tp.url+"/"), chromedp.WaitVisible("#units-heading", chromedp.ByID))
	if c.count(`a[href="/scada/qas/topics"] [data-read-only]`) != 1 || c.count(`a[href="/scada/dev/topics"] [data-read-only]`) != 0 {
		t.Error("the home card does not mark scada's qas (and only it) read-only")
	}
	if c.count(`[data-nav="admin"]`) != 0 {
		t.Error("carol is offered the admin area")
	}
	c.screenshot("admin-10-banner")
}
