package main

import (
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// setRow fills the value of a configuration row by its key.
func (b *browser) setRow(key, value string) {
	b.t.Helper()
	js := `(function(){var r=document.querySelector('#config-rows tr[data-key=` + strconvQuote(key) + `]');` +
		`var v=r.querySelector('[name=value]');v.value=` + strconvQuote(value) + `;return true})()`
	var ok bool
	b.run(chromedp.Evaluate(js, &ok))
}

func (b *browser) waitFor(js string) {
	b.t.Helper()
	b.run(chromedp.Poll(js, nil, chromedp.WithPollingTimeout(0)))
}

// TestBrowserConnector: carol creates a connector through the form, sees
// it provision then run, pauses and resumes it, and reads its masked
// configuration.
func TestBrowserConnector(t *testing.T) {
	t.Parallel()
	tp := startPortal(t, nil)
	quickConnect(t, tp, "edh-shared/dev")
	// The connector's topic exists first: the form warns about one that
	// does not (TestTopicPickers).
	if r := tp.call("POST", "/api/v1/scada/dev/topic", "carol", map[string]any{"name": "browser_feed"}); r.status != http.StatusCreated {
		t.Fatalf("topic: %d %s", r.status, r.body)
	}
	tp.removeAfter("/api/v1/scada/dev/topic/browser-feed")
	b := newBrowser(t, tp)
	b.signIn("carol")
	b.run(chromedp.Navigate(tp.url+"/scada/dev/connectors"), chromedp.WaitVisible(`tr[data-connector]`))
	b.screenshot("20-connectors")
	b.run(chromedp.Click("#create-button", chromedp.ByID), chromedp.WaitVisible("#connector-form", chromedp.ByID))
	b.choose("connector-class", "DatagenSource")
	b.run(chromedp.WaitVisible(`#config-rows tr[data-key="quickstart"]`))
	b.run(chromedp.SendKeys("#name", "browser feed", chromedp.ByID))
	if got := b.text("#name-preview"); got != "edh-shared-scada-dev-browser-feed-connector" {
		t.Errorf("name preview %q", got)
	}
	b.setRow("kafka.topic", "browser_feed")
	b.setRow("quickstart", "ORDERS")
	b.setRow("kafka.api.key", "BKEY")
	b.setRow("kafka.api.secret", "B-SECRET")
	b.screenshot("21-connector-form")
	// output.data.format is missing: the plugin says so on its row.
	b.run(chromedp.Click(`#connector-form button[type="submit"]:not(.no-js)`, chromedp.ByQuery),
		chromedp.WaitVisible(`.field-error[data-field="config.output.data.format"]`, chromedp.ByQuery))
	// The refused form does not show the secrets again: they are typed anew.
	if b.value(`#config-rows tr[data-key="kafka.api.secret"] [name="value"]`) != "" {
		t.Error("the refused form shows the secret again")
	}
	b.setRow("output.data.format", "JSON")
	b.setRow("kafka.api.key", "BKEY")
	b.setRow("kafka.api.secret", "B-SECRET")
	b.run(chromedp.Click(`#connector-form button[type="submit"]:not(.no-js)`, chromedp.ByQuery),
		chromedp.WaitVisible("#connector-status", chromedp.ByID))
	if loc := b.location(); loc != "/scada/dev/connector/edh-shared-scada-dev-browser-feed-connector" {
		t.Fatalf("after create: %s", loc)
	}
	b.waitFor(`document.querySelector('#connector-status [data-state-badge]').dataset.stateBadge === "RUNNING"`)
	b.screenshot("22-connector-running")
	if secret := b.text(`#connector-config tr[data-key="kafka.api.secret"] td`); !strings.HasPrefix(secret, "********") {
		t.Errorf("secret shown as %q", secret)
	}
	b.run(chromedp.Click("#pause-button", chromedp.ByID))
	b.waitFor(`document.querySelector('#connector-status [data-state-badge]').dataset.stateBadge === "PAUSED"`)
	b.run(chromedp.Click("#resume-button", chromedp.ByID))
	b.waitFor(`document.querySelector('#connector-status [data-state-badge]').dataset.stateBadge === "RUNNING"`)
	if toast := b.text(".toast:last-child"); !strings.Contains(toast, "Resume requested") {
		t.Errorf("toast %q", toast)
	}
}

// TestBrowserSchemas: register an Avro subject, evolve it after a
// compatibility check, see an incompatible change refused, compare
// versions.
func TestBrowserSchemas(t *testing.T) {
	t.Parallel()
	tp := startPortal(t, nil)
	if r := tp.call("POST", "/api/v1/scada/dev/topic", "carol", map[string]any{"name": "gauges"}); r.status != http.StatusCreated {
		t.Fatalf("topic: %d %s", r.status, r.body)
	}
	tp.removeAfter("/api/v1/scada/dev/topic/gauges")
	b := newBrowser(t, tp)
	b.signIn("carol")
	b.run(chromedp.Navigate(tp.url+"/scada/dev/schemas"), chromedp.WaitVisible(`tr[data-subject]`))
	b.screenshot("30-schemas")
	b.run(chromedp.Click("#create-button", chromedp.ByID), chromedp.WaitVisible("#schema-form", chromedp.ByID),
		chromedp.SendKeys("#name", "gauges", chromedp.ByID),
		chromedp.SetValue("#schema", `{"type":"record","name":"Gauge","namespace":"scada","fields":[{"name":"id","type":"string"}]}`, chromedp.ByID),
		chromedp.Click("#register-button", chromedp.ByID), chromedp.WaitVisible("#schema-text", chromedp.ByID))
	if loc := b.location(); loc != "/scada/dev/schema/edh-shared-scada-dev-gauges-value" {
		t.Fatalf("after register: %s", loc)
	}
	b.run(chromedp.Click("#new-version", chromedp.ByID), chromedp.WaitVisible("#schema-form", chromedp.ByID),
		chromedp.SetValue("#schema", `{"type":"record","name":"Gauge","namespace":"scada","fields":[{"name":"id","type":"string"},{"name":"level","type":"double","default":0}]}`, chromedp.ByID),
		chromedp.Click("#check-button", chromedp.ByID), chromedp.WaitVisible("#compat-verdict", chromedp.ByID))
	if ok := b.attr("#compat-verdict", "data-compatible"); ok != "true" {
		t.Errorf("compatible change judged %s", ok)
	}
	b.run(chromedp.Click("#register-button", chromedp.ByID), chromedp.WaitVisible("#schema-text", chromedp.ByID))
	b.run(chromedp.Click("#new-version", chromedp.ByID), chromedp.WaitVisible("#schema-form", chromedp.ByID),
		chromedp.SetValue("#schema", `{"type":"record","name":"Gauge","namespace":"scada","fields":[{"name":"id","type":"string"},{"name":"level","type":"double","default":0},{"name":"unit","type":"string"}]}`, chromedp.ByID),
		chromedp.Click("#check-button", chromedp.ByID), chromedp.WaitVisible("#compat-verdict", chromedp.ByID))
	if verdict := b.text("#compat-verdict"); !strings.Contains(verdict, "Not compatible") || !strings.Contains(verdict, "field unit was added without a default") {
		t.Errorf("verdict %q", verdict)
	}
	b.screenshot("31-schema-incompatible")
	b.run(chromedp.Click("#register-button", chromedp.ByID), chromedp.WaitVisible(`#schema-form [role="alert"]`, chromedp.ByQuery))
	if msg := b.text(`#schema-form [role="alert"]`); !strings.Contains(msg, "incompatible") {
		t.Errorf("refusal %q", msg)
	}
	// Fixed (the new field gets a default), the check says compatible and
	// the refusal's banner goes: the page never says both.
	b.run(chromedp.SetValue("#schema", `{"type":"record","name":"Gauge","namespace":"scada","fields":[{"name":"id","type":"string"},{"name":"level","type":"double","default":0},{"name":"unit","type":"string","default":"C"}]}`, chromedp.ByID),
		chromedp.Click("#check-button", chromedp.ByID), chromedp.WaitVisible(`#compat-verdict[data-compatible="true"]`, chromedp.ByQuery))
	if n := b.count(`#schema-form [role="alert"]`) + b.count(`#schema-problem .field-error`); n != 0 {
		t.Errorf("after a compatible check %d refusal(s) still show", n)
	}
	b.run(chromedp.Navigate(tp.url+"/scada/dev/schema/gauges-value?from=1&to=2"), chromedp.WaitVisible("#schema-diff", chromedp.ByID))
	if n := b.count(`#schema-diff [data-diff="+"]`); n == 0 {
		t.Error("the diff shows no added line")
	}
	b.screenshot("32-schema-diff")
	b.run(chromedp.Navigate(tp.url+"/scada/dev/schema/gauges-value"), chromedp.WaitVisible("#schema-text", chromedp.ByID))
	b.screenshot("33-schema")
	b.run(chromedp.Navigate(tp.url+"/scada/dev/schemas?all=1"), chromedp.WaitVisible(`tr[data-subject]`))
	if n := b.count(`tr[data-subject="edh-shared-scada-dev-gauges-value"]`); n != 2 {
		t.Errorf("all versions shows %d rows for gauges", n)
	}
}
