package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// browser is a headless Chromium session against a test portal.
type browser struct {
	t   *testing.T
	ctx context.Context
	url string
}

// chromium finds Debian's Chromium. A missing browser fails the test
// rather than skipping it: `make test` installs it (make browser).
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Fatal("browser tests need Chromium: run `make browser` (Debian: apt-get install chromium) or put chromium on PATH")
	return ""
}

func newBrowser(t *testing.T, tp *testPortal) *browser {
	t.Helper()
	// Not t.TempDir: Chromium may still write its profile while the test's
	// own cleanup removes it, which fails the test.
	profile, err := os.MkdirTemp("", "portal-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	out := &logBuffer{}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium(t)),
		chromedp.NoSandbox, chromedp.Headless, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1440, 1100),
		chromedp.CombinedOutput(out),
	)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(alloc)
	ctx, cancelTimeout := context.WithDeadline(ctx, browserDeadline(t))
	// chromedp starts Chromium with Pdeathsig, which Linux sends when the
	// OS thread that started it ends, not the process: the Go runtime
	// ends threads at will (a goroutine that exits locked to one, as
	// cgo's callbacks from librdkafka may), and Chromium died mid-test,
	// a read of its DevTools socket ending in EOF and every step after
	// in "context canceled". Chromium is started from a goroutine locked
	// to its thread that lives until the browser is closed.
	started := make(chan error, 1)
	closed := make(chan struct{})
	go func() {
		goruntime.LockOSThread()
		started <- chromedp.Run(ctx)
		<-closed
	}()
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("Chromium's output:\n%s", out.String())
		}
		cancelTimeout()
		cancelCtx()
		cancelAlloc()
		close(closed)
		for i := 0; i < 20 && os.RemoveAll(profile) != nil; i++ {
			time.Sleep(100 * time.Millisecond)
		}
	})
	if err := <-started; err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}
	return &browser{t: t, ctx: ctx, url: tp.url}
}

// browserDeadline bounds a browser's session by the test binary's own
// deadline (go test -timeout), less a minute for the other cleanups, so
// that a slow machine makes a browser test slower, never a failure, and
// a hang still fails with the step it hung at rather than a panic.
func browserDeadline(t *testing.T) time.Time {
	if d, ok := t.Deadline(); ok {
		return d.Add(-time.Minute)
	}
	return time.Now().Add(10 * time.Minute)
}

func (b *browser) run(actions ...chromedp.Action) {
	b.t.Helper()
	if err := chromedp.Run(b.ctx, actions...); err != nil {
		b.t.Fatal(err)
	}
}

// signIn goes through the sign-in page and the provider's user picker.
func (b *browser) signIn(user string) {
	b.t.Helper()
	b.run(
		chromedp.Navigate(b.url+"/"),
		chromedp.WaitVisible("#sign-in", chromedp.ByID),
		chromedp.Click("#sign-in", chromedp.ByID),
		chromedp.WaitVisible(`button[data-user="`+user+`"]`),
		chromedp.Click(`button[data-user="`+user+`"]`),
		chromedp.WaitVisible(`p[data-user="`+user+`"]`),
		// The landing page loaded whole, so that the next step's nodes
		// are the page's, not a document on its way out.
		chromedp.Poll(`document.readyState === "complete" && !document.querySelector(".htmx-request")`, nil,
			chromedp.WithPollingInterval(20*time.Millisecond)),
	)
}

// submit submits the form sel belongs to as a whole-page navigation and
// waits for the new page to load: a wait for an element alone may match
// the page on its way out, and a query that straddles the navigation
// ends with "context canceled".
func (b *browser) submit(sel string) {
	b.t.Helper()
	if _, err := chromedp.RunResponse(b.ctx, chromedp.Submit(sel, chromedp.ByQuery)); err != nil {
		b.t.Fatalf("submitting %s: %v", sel, err)
	}
	b.run(chromedp.Poll(`document.readyState === "complete"`, nil, chromedp.WithPollingInterval(20*time.Millisecond)))
}

func (b *browser) attr(sel, name string) string {
	b.t.Helper()
	var v string
	var ok bool
	b.run(chromedp.AttributeValue(sel, name, &v, &ok, chromedp.ByQuery))
	return v
}

func (b *browser) value(sel string) string {
	b.t.Helper()
	var v string
	b.run(chromedp.Value(sel, &v, chromedp.ByQuery))
	return v
}

func (b *browser) count(sel string) int {
	b.t.Helper()
	var n int
	b.run(chromedp.Evaluate(`document.querySelectorAll(`+strconvQuote(sel)+`).length`, &n))
	return n
}

// text reads the element's visible text in one evaluation inside the
// page: reading through a DevTools node id fails with "No node with given
// id found" when htmx settles or swaps the node between the query and the
// read.
func (b *browser) text(sel string) string {
	b.t.Helper()
	var s string
	b.run(chromedp.WaitVisible(sel), chromedp.Evaluate(`(function(){var e=document.querySelector(`+strconvQuote(sel)+`);return e?e.innerText:""})()`, &s))
	return strings.TrimSpace(s)
}

// screenshot saves the page under $SCREENSHOTS (make screenshots) or the
// test's temporary directory.
func (b *browser) screenshot(name string) {
	b.t.Helper()
	dir := os.Getenv("SCREENSHOTS")
	if dir == "" {
		dir = b.t.TempDir()
	}
	var buf []byte
	// The viewport as a person sees it (a full-page capture would draw the
	// fixed sidebar cut short), after htmx's class swaps settle.
	b.run(chromedp.Evaluate(`window.scrollTo(0, 0)`, nil),
		chromedp.Evaluate(`new Promise(function(r){requestAnimationFrame(function(){requestAnimationFrame(r)})})`, nil,
			func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }),
		chromedp.CaptureScreenshot(&buf))
	if err := os.WriteFile(filepath.Join(dir, name+".png"), buf, 0o644); err != nil {
		b.t.Fatal(err)
	}
}

// choose changes a select as a person would, firing its change event.
func (b *browser) choose(id, value string) {
	b.t.Helper()
	js := `(function(){var s=document.getElementById(` + strconvQuote(id) + `);s.value=` + strconvQuote(value) +
		`;s.dispatchEvent(new Event("change",{bubbles:true}));})()`
	b.run(chromedp.Evaluate(js, nil))
}

func (b *browser) visible(sel string) bool {
	b.t.Helper()
	var hidden bool
	b.run(chromedp.Evaluate(`(function(){var e=document.querySelector(`+strconvQuote(sel)+`);return !e||e.offsetParent===null||e.classList.contains("hidden")})()`, &hidden))
	return !hidden
}

// shown waits (up to thirty seconds: a busy machine is slow, and only a
// failing test waits that long) for sel to be visible.
func (b *browser) shown(sel string) bool {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	js := `(function(){var e=document.querySelector(` + strconvQuote(sel) + `);return !!e&&e.offsetParent!==null&&!e.classList.contains("hidden")})()`
	return chromedp.Run(ctx, chromedp.Poll(js, nil, chromedp.WithPollingInterval(20*time.Millisecond))) == nil
}

func (b *browser) location() string {
	b.t.Helper()
	var u string
	b.run(chromedp.Location(&u))
	return strings.TrimPrefix(u, b.url)
}

func (b *browser) options(id string) []string {
	b.t.Helper()
	var vals []string
	b.run(chromedp.Evaluate(`Array.from(document.querySelectorAll("#`+id+` option")).map(function(o){return o.value})`, &vals))
	return vals
}

func strconvQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// TestBrowserCarol follows carol, a Developer of scada and Viewer of crm,
// through the portal in Chromium.
func TestBrowserCarol(t *testing.T) {
	t.Parallel()
	tp := startPortal(t, nil)
	b := newBrowser(t, tp)
	b.screenshot("00-sign-in")
	b.signIn("carol")
	if got := strings.Join(b.options("context-bu"), ","); got != "crm,scada" {
		t.Fatalf("business units offered: %s", got)
	}
	b.screenshot("01-home")

	// Auto reload on: a stage change loads the other stage's topics at once.
	b.run(chromedp.Navigate(tp.url+"/scada/dev/topics"), chromedp.WaitVisible(`#page[data-stage="dev"]`))
	b.choose("context-stage", "qas")
	b.run(chromedp.WaitVisible(`#page[data-stage="qas"]`), chromedp.WaitVisible(`tr[data-topic="edh-shared-scada-qas-alarms"]`))
	if loc := b.location(); loc != "/scada/qas/topics" {
		t.Errorf("after the stage change the address is %s", loc)
	}
	if b.visible("#reload-dot") {
		t.Error("the reload dot shows with Auto reload on")
	}

	// Auto reload off: a change only marks the Reload button.
	b.run(chromedp.Click("#auto-reload", chromedp.ByID))
	b.choose("context-stage", "dev")
	if !b.shown("#reload-dot") {
		t.Error("no dot on Reload after a change with Auto reload off")
	}
	if stage := b.attr("#page", "data-stage"); stage != "qas" {
		t.Errorf("the page changed to %s without Reload", stage)
	}
	b.screenshot("02-reload-pending")
	b.run(chromedp.Click("#reload", chromedp.ByID), chromedp.WaitVisible(`#page[data-stage="dev"]`))
	if b.visible("#reload-dot") {
		t.Error("Reload did not clear the dot")
	}
	b.screenshot("03-topics")

	// The choice persists: home shows the stored context, and a deep link wins.
	b.choose("context-bu", "crm")
	b.run(chromedp.Click("#reload", chromedp.ByID), chromedp.WaitVisible(`#page[data-bu="crm"]`))
	b.run(chromedp.Navigate(tp.url+"/"), chromedp.WaitVisible(`[data-unit="scada"]`))
	if bu := b.value("#context-bu"); bu != "crm" {
		t.Errorf("home forgot the context: %s", bu)
	}
	b.run(chromedp.Navigate(tp.url+"/scada/qas/metrics"), chromedp.WaitVisible("#cluster-topics", chromedp.ByID))
	b.run(chromedp.Navigate(tp.url+"/"), chromedp.WaitVisible(`[data-unit="scada"]`))
	if bu, st := b.value("#context-bu"), b.value("#context-stage"); bu != "scada" || st != "qas" {
		t.Errorf("a deep link did not update the stored context: %s/%s", bu, st)
	}
	b.run(chromedp.Click("#auto-reload", chromedp.ByID))

	// Create a topic through the form and find it in the list.
	b.run(chromedp.Navigate(tp.url+"/scada/dev/topics"), chromedp.WaitVisible("#create-button", chromedp.ByID),
		chromedp.Click("#create-button", chromedp.ByID), chromedp.WaitVisible("#topic-form", chromedp.ByID),
		chromedp.SendKeys("#name", "Browser_Made", chromedp.ByID))
	if got := b.text("#name-preview"); got != "edh-shared-scada-dev-browser-made" {
		t.Errorf("full-name preview %q", got)
	}
	b.run(chromedp.SetValue("#partitions_count", "3", chromedp.ByID),
		chromedp.SetValue(`[name="config.retention.ms"]`, "-5", chromedp.ByQuery),
		chromedp.Click(`#topic-form button[type="submit"]`, chromedp.ByQuery),
		chromedp.WaitVisible(`.field-error[data-field="config.retention.ms"]`, chromedp.ByQuery))
	b.screenshot("04-form-errors")
	b.run(chromedp.SetValue(`[name="config.retention.ms"]`, "86400000", chromedp.ByQuery),
		chromedp.Click(`#topic-form button[type="submit"]`, chromedp.ByQuery),
		chromedp.WaitVisible("#settings", chromedp.ByID), chromedp.WaitVisible(".toast", chromedp.ByQuery))
	if toast := b.text(".toast"); !strings.Contains(toast, "edh-shared-scada-dev-browser-made created") {
		t.Errorf("toast %q", toast)
	}
	if loc := b.location(); loc != "/scada/dev/topic/edh-shared-scada-dev-browser-made" {
		t.Errorf("after creating: %s", loc)
	}
	// Keyboard focus starts from the result: the new topic's heading.
	var focused string
	b.run(chromedp.Poll(`document.activeElement && document.activeElement.id === "page-title"`, nil, chromedp.WithPollingTimeout(5*time.Second)))
	b.run(chromedp.Evaluate(`document.activeElement && document.activeElement.id`, &focused))
	if focused != "page-title" {
		t.Errorf("focus after a save is on %q, not the page's heading", focused)
	}
	b.screenshot("05-topic")
	b.run(chromedp.Navigate(tp.url+"/scada/dev/topics"), chromedp.WaitVisible("#topic-search", chromedp.ByID),
		chromedp.SendKeys("#topic-search", "browser", chromedp.ByID),
		// The search follows the keys as they come: a prefix ("brow") may
		// already leave one row, so the wait is for the whole word's answer.
		chromedp.Poll(`document.querySelectorAll("#topic-results tbody tr").length === 1 && location.search.includes("q=browser")`, nil, chromedp.WithPollingTimeout(0)))
	if b.count(`tr[data-topic="edh-shared-scada-dev-browser-made"]`) != 1 || !strings.Contains(b.location(), "q=browser") {
		t.Errorf("search: %s", b.location())
	}

	// Read-only stage: the banner, and create offered as a request.
	b.run(chromedp.Navigate(tp.url+"/scada/run/topics"), chromedp.WaitVisible("#read-only-banner", chromedp.ByID))
	if text := b.text("#create-button"); !strings.Contains(text, "as a request") || b.attr("#create-button", "href") != "/scada/run/topics/new" {
		t.Errorf("create in run reads %q", text)
	}
	b.screenshot("06-run-read-only")

	b.run(chromedp.Navigate(tp.url+"/scada/dev/topic/edh-shared-scada-dev-sensor-readings/metrics"), chromedp.WaitVisible("#partition-offsets", chromedp.ByID))
	b.screenshot("07-topic-metrics")
	b.run(chromedp.Navigate(tp.url+"/scada/dev/metrics"), chromedp.WaitVisible("#cluster-topics", chromedp.ByID))
	b.screenshot("08-cluster-metrics")
}

// TestBrowserBobAndErin: an Admin creates in the read-only stage; someone
// without groups sees how to get onboarded.
func TestBrowserBobAndErin(t *testing.T) {
	t.Parallel()
	tp := startPortal(t, nil)
	b := newBrowser(t, tp)
	b.signIn("bob")
	if got := strings.Join(b.options("context-bu"), ","); got != "scada" {
		t.Errorf("bob's units: %s", got)
	}
	b.run(chromedp.Navigate(tp.url+"/scada/run/topics"), chromedp.WaitVisible("#read-only-banner", chromedp.ByID))
	if banner := b.text("#read-only-banner"); !strings.Contains(banner, "bypassing") {
		t.Errorf("banner %q", banner)
	}
	// The band marks the read-only stage, and bob confirms his write by
	// typing its name.
	if !b.shown("#stage-band") {
		t.Error("no band on the read-only stage")
	}
	b.run(chromedp.Click("#create-button", chromedp.ByID), chromedp.WaitVisible("#topic-form", chromedp.ByID),
		chromedp.SendKeys("#name", "hotfix", chromedp.ByID),
		chromedp.SendKeys("#confirm-stage", "run", chromedp.ByID),
		chromedp.Click(`#topic-form button[type="submit"]`, chromedp.ByQuery),
		chromedp.WaitVisible("#settings", chromedp.ByID))
	if loc := b.location(); loc != "/scada/run/topic/edh-shared-scada-run-hotfix" {
		t.Errorf("bob's create in run ended at %s", loc)
	}
	b.screenshot("09-admin-bypass")
	b.run(chromedp.Click("#delete-button", chromedp.ByID), chromedp.WaitVisible("#delete-form", chromedp.ByID))
	if h := b.text("#delete-form h2"); h != "Delete topic hotfix?" {
		t.Errorf("confirmation %q", h)
	}
	b.screenshot("10-delete-confirm")

	e := newBrowser(t, tp)
	e.signIn("erin")
	e.run(chromedp.WaitVisible("#not-onboarded", chromedp.ByID))
	e.screenshot("11-not-onboarded")
}

// TestBrowserContentSecurityPolicy: pages work under the policy (htmx and
// the portal's script load, Swagger UI renders), and script injected into
// a page does not run: neither an inline script nor an event handler.
func TestBrowserContentSecurityPolicy(t *testing.T) {
	tp := sharedPortal(t)
	b := newBrowser(t, tp)
	b.signIn("carol")
	b.run(chromedp.Navigate(tp.url+"/scada/dev/topics"), chromedp.WaitVisible("#topic-results", chromedp.ByID))
	var loaded bool
	b.run(chromedp.Evaluate(`typeof htmx === "object"`, &loaded))
	if !loaded {
		t.Fatal("htmx did not load under the policy")
	}
	var result struct {
		Script     bool `json:"script"`
		Handler    bool `json:"handler"`
		Violations int  `json:"violations"`
	}
	b.run(chromedp.Evaluate(`new Promise(function(done){
		var violations = 0;
		var finish = function(){ done({script: !!window.__scriptRan, handler: !!window.__handlerRan, violations: violations}); };
		document.addEventListener("securitypolicyviolation", function(){ if (++violations === 2) finish(); });
		var s = document.createElement("script");
		s.textContent = "window.__scriptRan = true";
		document.body.appendChild(s);
		var img = document.createElement("img");
		img.setAttribute("onerror", "window.__handlerRan = true");
		img.src = "data:,not-an-image";
		document.body.appendChild(img);
		setTimeout(finish, 5000); // only if the policy failed to report
	})`, &result, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
	if result.Script || result.Handler || result.Violations < 2 {
		t.Errorf("injected code: %+v", result)
	}
	b.run(chromedp.Navigate(tp.url+"/api-docs/"), chromedp.WaitVisible(".swagger-ui .info", chromedp.ByQuery))
}
