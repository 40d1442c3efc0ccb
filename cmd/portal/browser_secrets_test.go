package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// TestBrowserSecretPagesNeverComeBack is the check, in Chromium
// with its back/forward cache on as a person has it (which restores even
// a no-store page): after each page that shows a secret (a new API key,
// a webhook, an alert channel) is left by a sidebar link, by typing an
// address, or for another site, Back, Forward and Back again, and a reload, never show the
// secret again, with scripts on or off.
func TestBrowserSecretPagesNeverComeBack(t *testing.T) {
	t.Parallel()
	tp := startPortal(t, nil)
	rcv := newReceiver(t)
	// Another site, which knows nothing of the portal's cookies.
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(`<!doctype html><title>elsewhere</title><main id="page">another site</main>`))
	}))
	t.Cleanup(elsewhere.Close)
	sfx := suffix()
	a := tp.call("POST", "/api/v1/scada/dev/service-account", "bob", map[string]any{"name": "secrets-" + sfx, "type": "consumer"})
	if a.status != http.StatusCreated {
		t.Fatalf("the account: %d %s", a.status, a.body)
	}
	acct := a.json(t)["id"].(string)
	t.Cleanup(func() {
		if r := tp.call("DELETE", "/api/v1/scada/dev/service-account/"+acct+"?delete_api_keys=true", "bob", nil); r.status != http.StatusOK {
			t.Errorf("removing the account: %d %s", r.status, r.body)
		}
	})

	// Each kind of secret page, made by its form: the secret and where it
	// was shown.
	type secretPage struct {
		user string
		make func(b *browser, n int) (secret string)
	}
	pages := map[string]secretPage{
		"api key": {"bob", func(b *browser, _ int) string {
			b.run(chromedp.Navigate(tp.url+"/scada/dev/service-account/"+acct), chromedp.WaitVisible("#key-form", chromedp.ByID))
			b.submit(`#key-form button[type="submit"]`)
			b.run(chromedp.WaitVisible("#key-created", chromedp.ByID))
			return b.value("#key-secret")
		}},
		"webhook": {"frank", func(b *browser, n int) string {
			b.run(chromedp.Navigate(tp.url+"/admin/webhooks"), chromedp.WaitVisible("#webhook-form", chromedp.ByID),
				chromedp.SetValue(`#webhook-form input[name="business_unit"]`, "scada", chromedp.ByQuery),
				chromedp.SetValue(`#webhook-form input[name="url"]`, rcv.srv.URL+"/secret-"+sfx+"-"+string(rune('a'+n)), chromedp.ByQuery))
			b.submit(`#webhook-form button[type="submit"]`)
			b.run(chromedp.WaitVisible("#webhook-secret", chromedp.ByID))
			id := queryParam(t, b.location(), "created")
			t.Cleanup(func() { tp.call("DELETE", "/api/v1/admin/webhook/"+id, "frank", nil) })
			return b.value("#webhook-secret-value")
		}},
		"alert channel": {"bob", func(b *browser, n int) string {
			b.run(chromedp.Navigate(tp.url+"/scada/dev/alerts"), chromedp.WaitVisible("#channel-form", chromedp.ByID),
				chromedp.SetValue(`#channel-form select[name="format"]`, "cloudevents", chromedp.ByQuery),
				chromedp.SetValue(`#channel-form input[name="url"]`, rcv.srv.URL+"/channel-"+sfx+"-"+string(rune('a'+n)), chromedp.ByQuery))
			b.submit(`#channel-form button[type="submit"]`)
			b.run(chromedp.WaitVisible("#channel-secret", chromedp.ByID))
			id := queryParam(t, b.location(), "created")
			t.Cleanup(func() { tp.call("DELETE", "/api/v1/scada/dev/alert-channel/"+id, "bob", nil) })
			return b.text("#channel-secret code")
		}},
	}
	for name, sp := range pages {
		t.Run(name, func(t *testing.T) {
			b := newBrowser(t, tp)
			b.signIn(sp.user)
			ways := []struct {
				name    string
				scripts bool
				leave   func()
			}{
				{"a sidebar link", true, func() {
					if _, err := chromedp.RunResponse(b.ctx, chromedp.Click(`#resource-nav a[data-nav="home"]`, chromedp.ByQuery)); err != nil {
						t.Fatal(err)
					}
					b.settled(tp.url + "/")
				}},
				{"a typed address", true, func() { b.run(chromedp.Navigate(tp.url + "/me/access")); b.settled(tp.url + "/me/access") }},
				{"another site's address", true, func() { b.run(chromedp.Navigate(elsewhere.URL + "/")); b.settled(elsewhere.URL + "/") }},
				{"a typed address, scripts off", false, func() { b.run(chromedp.Navigate(tp.url + "/me/access")); b.settled(tp.url + "/me/access") }},
			}
			for i, w := range ways {
				b.scripts(w.scripts)
				secret := sp.make(b, i)
				if len(secret) < 16 {
					t.Fatalf("%s: the page shows no secret (%q)", w.name, secret)
				}
				shownAt := b.location()
				w.leave()
				check := func(step string) {
					t.Helper()
					if where, found := b.holds(secret); found {
						t.Errorf("left by %s, %s: the secret is back (at %s)", w.name, step, where)
					}
				}
				b.history(-1, shownAt)
				check("then Back")
				b.history(+1, "")
				b.history(-1, shownAt)
				check("then Forward and Back")
				b.run(chromedp.Reload())
				b.settled(shownAt)
				check("then a reload")
			}
			b.scripts(true)
		})
	}
}

// queryParam reads one parameter of a page's address.
func queryParam(t *testing.T, loc, name string) string {
	t.Helper()
	u, err := url.Parse(loc)
	if err != nil || u.Query().Get(name) == "" {
		t.Fatalf("no %s in %s", name, loc)
	}
	return u.Query().Get(name)
}

// scripts turns the page's scripts on or off, as a person who blocks
// them has it (the pages work without).
func (b *browser) scripts(on bool) {
	b.t.Helper()
	b.run(emulation.SetScriptExecutionDisabled(!on))
}

// history goes back (-1) or forward (+1) in the tab's history as the
// browser's buttons do, without waiting for a load that a page restored
// from the back/forward cache never fires, and waits until the page at
// want (any, when "") is shown whole.
func (b *browser) history(delta int, want string) {
	b.t.Helper()
	var target string
	b.run(chromedp.ActionFunc(func(ctx context.Context) error {
		cur, entries, err := page.GetNavigationHistory().Do(ctx)
		if err != nil {
			return err
		}
		e := entries[int(cur)+delta]
		target = e.URL
		return page.NavigateToHistoryEntry(e.ID).Do(ctx)
	}))
	if want != "" && !strings.HasSuffix(target, strings.TrimPrefix(want, b.url)) {
		b.t.Fatalf("the history holds %s where %s was", target, want)
	}
	b.settled(target)
}

// settled waits until the tab shows the page at loc loaded whole: a
// document that took a secret off as it was left (and reloads itself,
// restored) is still on its way.
func (b *browser) settled(loc string) {
	b.t.Helper()
	if !strings.HasPrefix(loc, "http") {
		loc = b.url + loc
	}
	// Asked afresh each time of the tab's current document: a poll inside
	// the page would wait on in a document frozen in the back/forward
	// cache, or end with a document that goes away under it.
	cond := `location.href === ` + strconvQuote(loc) + ` && document.readyState === "complete" && !document.documentElement.dataset.secretGone && !!document.getElementById("page")`
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		var ok bool
		err := chromedp.Run(b.ctx, chromedp.Evaluate(cond, &ok))
		if ok {
			return
		}
		if b.ctx.Err() != nil {
			b.t.Fatalf("waiting for %s: %v (last: %v)", loc, b.ctx.Err(), err)
		}
		<-tick.C
	}
}

// holds tells whether the tab still holds secret anywhere: the page,
// the form fields' values, or the browser's storage.
func (b *browser) holds(secret string) (string, bool) {
	b.t.Helper()
	var s string
	b.run(chromedp.Evaluate(`document.documentElement.outerHTML + JSON.stringify(sessionStorage) + JSON.stringify(localStorage) +
		Array.from(document.querySelectorAll("input, textarea")).map(function (e) { return e.value; }).join(" ")`, &s))
	return b.location(), strings.Contains(s, secret)
}
