package main

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserBulkServiceAccounts: bob pastes five accounts, one of which
// exists already, watches the progress, and reads each row's outcome; carol
// sees the accounts without write controls.
func TestBrowserBulkServiceAccounts(t *testing.T) {
	t.Parallel()
	tp := startPortal(t, nil)
	// Confluent Cloud takes a few hundred milliseconds per IAM change; a
	// slower stand-in makes the progress visible.
	tp.app.dev.platform.Org.SetLatency(120 * time.Millisecond)
	b := newBrowser(t, tp)
	b.signIn("bob")
	b.run(chromedp.Navigate(tp.url+"/scada/dev/service-accounts"), chromedp.WaitVisible(`tr[data-account]`))
	b.screenshot("40-service-accounts")
	b.run(chromedp.Click("#bulk-button", chromedp.ByID), chromedp.WaitVisible("#accounts-text", chromedp.ByID),
		chromedp.SetValue("#accounts-text", "name,type,description\norders-writer,producer,Writes orders\norders-reader,consumer\n"+
			"demo-app,producer\nenricher,stream-processor\nprometheus,metrics", chromedp.ByID))
	b.screenshot("41-bulk-paste")
	b.run(chromedp.Click("#bulk-submit", chromedp.ByID), chromedp.WaitVisible("#bulk-progress", chromedp.ByID))
	if !b.visible("#bulk-results") {
		t.Error("no rows while in progress")
	}
	b.screenshot("42-bulk-progress")
	b.waitFor(`document.querySelector("#bulk-progress") === null && document.querySelectorAll("#bulk-results tr[data-status]").length === 5`)
	b.screenshot("43-bulk-results")
	var got []string
	for _, row := range []string{"0", "1", "2", "3", "4"} {
		got = append(got, b.attr(`#bulk-results tr[data-row="`+row+`"]`, "data-status"))
	}
	if strings.Join(got, " ") != "201 201 409 201 201" {
		t.Errorf("row statuses %v", got)
	}
	if msg := b.text(`#bulk-results tr[data-row="2"]`); !strings.Contains(msg, "already exists") || !strings.Contains(msg, "demo-app-producer") {
		t.Errorf("the existing account's row says %q", msg)
	}
	b.waitFor(`[...document.querySelectorAll(".toast")].some(t => t.textContent.includes("4 of 5 service accounts created"))`)

	b.run(chromedp.Navigate(tp.url+"/scada/dev/service-accounts?q=enricher"), chromedp.WaitVisible(`tr[data-account="sa-edh-shared-scada-dev-usr-enricher-stream-processor"] a`),
		chromedp.Click(`tr[data-account="sa-edh-shared-scada-dev-usr-enricher-stream-processor"] a`), chromedp.WaitVisible("#role-bindings", chromedp.ByID))
	if n := b.count("#role-bindings tr[data-role]"); n != 9 {
		t.Errorf("the stream processor shows %d bindings", n)
	}
	b.screenshot("44-service-account")

	c := newBrowser(t, tp)
	c.signIn("carol")
	c.run(chromedp.Navigate(tp.url+"/scada/dev/service-accounts"), chromedp.WaitVisible(`tr[data-account="sa-edh-shared-scada-dev-usr-orders-writer-producer"]`))
	if c.count("#bulk-button, #create-button") != 0 {
		t.Error("a developer sees the create buttons")
	}
}

// TestBrowserIdentityPool: bob creates a pool, is refused a filter that
// does not parse, tests a filter on sample claims and saves it.
func TestBrowserIdentityPool(t *testing.T) {
	t.Parallel()
	tp := startPortal(t, nil)
	b := newBrowser(t, tp)
	b.signIn("bob")
	b.run(chromedp.Navigate(tp.url+"/scada/dev/identity-pools"), chromedp.WaitVisible(`tr[data-pool]`))
	b.screenshot("50-identity-pools")
	b.run(chromedp.Click("#create-button", chromedp.ByID), chromedp.WaitVisible("#pool-form", chromedp.ByID),
		chromedp.SendKeys("#name", "gitlab deploy", chromedp.ByID),
		chromedp.Click(`input[name="type"][value="producer"]`, chromedp.ByQuery))
	if got := b.text("#name-preview"); got != "edh-shared-scada-dev-gitlab-deploy-producer" {
		t.Errorf("name preview %q", got)
	}
	b.run(chromedp.SetValue("#filter", `claims.iss == "https://gitlab.example.com`, chromedp.ByID),
		chromedp.Click(`#pool-form button[type="submit"]`, chromedp.ByQuery),
		chromedp.WaitVisible(`#pool-form .field-error[data-field="filter"]`, chromedp.ByQuery))
	if msg := b.text(`#pool-form .field-error[data-field="filter"]`); !strings.Contains(msg, "not valid CEL") {
		t.Errorf("filter error %q", msg)
	}
	b.screenshot("51-pool-bad-filter")
	b.run(chromedp.SetValue("#filter", `claims.iss == "https://gitlab.example.com"`, chromedp.ByID),
		chromedp.Click(`#pool-form button[type="submit"]`, chromedp.ByQuery),
		chromedp.WaitVisible("#filter-editor", chromedp.ByID))
	if loc := b.location(); !strings.HasPrefix(loc, "/scada/dev/identity-pool/pool-") {
		t.Fatalf("after create: %s", loc)
	}
	b.run(chromedp.SetValue("#filter", `claims.iss == "https://gitlab.example.com" && claims.project_path.startsWith("scada/")`, chromedp.ByID),
		chromedp.SetValue("#claims", `{"iss": "https://gitlab.example.com", "project_path": "scada/pumps", "sub": "project_path:scada/pumps"}`, chromedp.ByID),
		chromedp.Click("#test-filter", chromedp.ByID), chromedp.WaitVisible("#filter-verdict", chromedp.ByID))
	if m := b.attr("#filter-verdict", "data-matches"); m != "true" {
		t.Errorf("verdict %s", m)
	}
	b.screenshot("52-pool-filter-test")
	b.run(chromedp.SetValue("#claims", `{"iss": "https://gitlab.example.com", "project_path": "crm/web"}`, chromedp.ByID),
		chromedp.Click("#test-filter", chromedp.ByID))
	b.waitFor(`document.querySelector("#filter-verdict").dataset.matches === "false"`)
	b.run(chromedp.Click("#save-filter", chromedp.ByID))
	b.waitFor(`[...document.querySelectorAll(".toast")].some(t => t.textContent.includes("saved"))`)
	b.run(chromedp.Reload(), chromedp.WaitVisible("#filter", chromedp.ByID))
	if f := b.value("#filter"); !strings.Contains(f, `startsWith("scada/")`) {
		t.Errorf("saved filter %q", f)
	}
	b.screenshot("53-pool")
}
