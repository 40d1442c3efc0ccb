package main

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// TestBrowserRecords: carol produces a JSON record on a topic's Produce
// page, finds it in the record browser by a header and by a CEL
// expression, opens its row, sees a bad expression refused at its field,
// follows the topic while a pipeline writes and sees the new record come
// in, and downloads the records shown as JSON lines.
func TestBrowserRecords(t *testing.T) {
	t.Parallel()
	tp := startPortal(t, nil)
	b := newBrowser(t, tp)
	b.signIn("carol")
	topic := "/scada/dev/topic/sensor-readings"

	b.run(chromedp.Navigate(tp.url+topic), chromedp.Click("#produce-button", chromedp.ByID), chromedp.WaitVisible("#produce-form", chromedp.ByID),
		chromedp.Click(`input[name="value_format"][value="json"]`, chromedp.ByQuery),
		chromedp.SendKeys(`input[name="key"]`, "browser-1", chromedp.ByQuery),
		chromedp.SetValue(`textarea[name="value"]`, `{"sensor": "browser", "reading": 77}`, chromedp.ByQuery),
		chromedp.SetValue(`textarea[name="headers"]`, "origin: browser-test", chromedp.ByQuery),
		chromedp.Click(`#produce-form button[type="submit"]`, chromedp.ByQuery), chromedp.WaitVisible("#produced", chromedp.ByID))
	if got := b.text("#produced"); !strings.Contains(got, "1 of 1 record written") {
		t.Fatalf("produce: %s", got)
	}
	b.screenshot("40-produce")

	b.run(chromedp.Navigate(tp.url+topic+"/records?header=browser-test"), chromedp.WaitVisible("#records-summary", chromedp.ByID))
	if n := b.count("tr[data-record-row]"); n != 1 || !strings.Contains(b.text("#records-summary"), "looked at") {
		t.Errorf("by header: %d rows, %s", n, b.text("#records-summary"))
	}
	b.run(chromedp.Click("tr[data-record-row] summary", chromedp.ByQuery), chromedp.WaitVisible("tr[data-record-row] [data-headers]", chromedp.ByQuery))
	if got := b.text("tr[data-record-row] [data-headers]"); !strings.Contains(got, "origin") {
		t.Errorf("the opened row's headers: %s", got)
	}
	b.screenshot("41-records-open")

	b.run(chromedp.Navigate(tp.url+topic+"/records"), chromedp.WaitVisible("#records-form", chromedp.ByID),
		chromedp.SetValue("#record-filter", `value.reading == 77 && key.startsWith("browser")`, chromedp.ByID))
	b.submit("#record-filter")
	b.run(chromedp.WaitVisible("#records-summary", chromedp.ByID))
	if n := b.count("tr[data-record-row]"); n != 1 {
		t.Errorf("by CEL: %d rows", n)
	}
	b.run(chromedp.SetValue("#record-filter", `value.reading >`, chromedp.ByID))
	b.submit("#record-filter")
	b.run(chromedp.WaitVisible("#filter-error", chromedp.ByID))
	if got := b.text("#filter-error"); !strings.Contains(got, "not valid CEL") || b.attr("#record-filter", "aria-invalid") != "true" {
		t.Errorf("a bad expression: %q", got)
	}

	// Follow: a pipeline writes while the page follows the topic.
	b.run(chromedp.Navigate(tp.url+topic+"/records?key=tail-"), chromedp.WaitVisible("#records-summary", chromedp.ByID),
		chromedp.Click("#records-follow", chromedp.ByID))
	if !b.shown("#records-follow-state") {
		t.Fatal("following shows no state")
	}
	r := tp.call("POST", "/api/v1/scada/dev/topic/sensor-readings/records", "carol", map[string]any{"records": []any{map[string]any{"key": "tail-1", "value": "fresh"}}})
	if r.status != http.StatusOK {
		t.Fatalf("produce while following: %d %s", r.status, r.body)
	}
	if err := chromedp.Run(b.ctx, chromedp.WaitVisible(`tr[data-record-row] td[title="tail-1"]`, chromedp.ByQuery)); err != nil {
		t.Errorf("the new record did not come in: %v", err)
	}
	// The count says the rows shown; times are UTC to the millisecond,
	// the check's too.
	if rows, got := b.count("tr[data-record-row]"), b.text("#records-count"); got != fmt.Sprintf("%d record", rows) && got != fmt.Sprintf("%d records", rows) {
		t.Errorf("%d rows shown, the count says %q", rows, got)
	}
	if got := b.text(`tr[data-record-row] time`); !millisUTC.MatchString(got) {
		t.Errorf("a record's time: %q", got)
	}
	if got := b.text("#records-follow-state"); !strings.Contains(got, "checked at") || !millisUTC.MatchString(got) {
		t.Errorf("the tail's state: %q", got)
	}
	b.run(chromedp.Click("#records-follow", chromedp.ByID))
	b.screenshot("42-records-follow")

	var lines string
	b.run(chromedp.Navigate(tp.url+topic+"/records?key=tail-"), chromedp.WaitVisible("#records-download", chromedp.ByID),
		chromedp.Evaluate(`fetch(document.getElementById("records-download").href).then(function(r){return r.text()})`, &lines,
			func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
	if !strings.Contains(lines, `"key":"tail-1"`) || strings.Count(strings.TrimSpace(lines), "\n") != 0 {
		t.Errorf("download: %q", lines)
	}
}

// millisUTC is a time to the millisecond in UTC, as the records show it.
var millisUTC = regexp.MustCompile(`\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} UTC`)

// TestBrowserTheme: the theme follows the system, and the sidebar's
// button chooses dark or light for this browser, kept across pages.
func TestBrowserTheme(t *testing.T) {
	t.Parallel()
	tp := startPortal(t, nil)
	b := newBrowser(t, tp)
	b.signIn("carol")
	dark := func() bool {
		var on bool
		b.run(chromedp.Evaluate(`document.documentElement.classList.contains("dark")`, &on))
		return on
	}
	b.run(chromedp.Navigate(tp.url+"/scada/dev/topics"), chromedp.WaitVisible("#theme-toggle", chromedp.ByID))
	if dark() || b.text("#theme-name") != "system" {
		t.Errorf("a light system: dark %v, %s", dark(), b.text("#theme-name"))
	}
	b.run(chromedp.Click("#theme-toggle", chromedp.ByID))
	if !dark() || b.text("#theme-name") != "dark" {
		t.Errorf("after choosing dark: dark %v, %s", dark(), b.text("#theme-name"))
	}
	b.run(chromedp.Navigate(tp.url+"/scada/dev/consumer-groups"), chromedp.WaitVisible("#theme-toggle", chromedp.ByID))
	if !dark() {
		t.Error("the choice did not last to the next page")
	}
	b.screenshot("43-dark")
	b.run(chromedp.Click("#theme-toggle", chromedp.ByID))
	if dark() || b.text("#theme-name") != "light" {
		t.Errorf("after choosing light: dark %v", dark())
	}
}
