package main

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/config"
)

// webClient is a cookie-keeping client signed in to the portal without a
// browser: it follows the same redirects a browser would.
type webClient struct {
	t    testing.TB
	base string
	http *http.Client
	csrf string
}

func (tp *testPortal) webClient(t *testing.T) *webClient {
	jar, _ := cookiejar.New(nil)
	return &webClient{t: t, base: tp.url, http: &http.Client{Jar: jar, Timeout: 20 * time.Second}}
}

// signIn signs user in through /auth/login with login_hint and returns the
// home page.
func (w *webClient) signIn(user string) string {
	w.t.Helper()
	page := w.get("/auth/login?next=/&login_hint=" + user)
	if page.status != http.StatusOK || !strings.Contains(page.body, `data-user="`+user+`"`) {
		w.t.Fatalf("sign-in as %s ended on %d:\n%.400s", user, page.status, page.body)
	}
	return page.body
}

type pageResponse struct {
	status int
	header http.Header
	body   string
	url    string
}

var csrfField = regexp.MustCompile(`name="_csrf" value="([^"]+)"`)

func (w *webClient) do(req *http.Request) pageResponse {
	w.t.Helper()
	resp, err := w.http.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if m := csrfField.FindStringSubmatch(string(b)); m != nil {
		w.csrf = m[1]
	}
	return pageResponse{status: resp.StatusCode, header: resp.Header, body: string(b), url: resp.Request.URL.String()}
}

func (w *webClient) get(path string, header ...string) pageResponse {
	w.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, w.base+path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return w.do(req)
}

// untilDone reloads a page that asks to be reloaded (Refresh), as a
// browser without JavaScript does, until it no longer asks.
func (w *webClient) untilDone(r pageResponse) pageResponse {
	w.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for r.header.Get("Refresh") != "" {
		if time.Now().After(deadline) {
			w.t.Fatalf("%s still asks to be reloaded after a minute", r.url)
		}
		time.Sleep(200 * time.Millisecond) // the browser's wait (Refresh: 2), shortened
		r = w.get(strings.TrimPrefix(r.url, w.base))
	}
	return r
}

// post submits a form; the CSRF token of the last page is added unless
// form already has one.
func (w *webClient) post(path string, form url.Values, header ...string) pageResponse {
	w.t.Helper()
	if _, ok := form["_csrf"]; !ok {
		form.Set("_csrf", w.csrf)
	}
	req, _ := http.NewRequest(http.MethodPost, w.base+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return w.do(req)
}

func TestPagesNeedASession(t *testing.T) {
	tp := sharedPortal(t)
	t.Parallel()
	w := tp.webClient(t)
	r := w.get("/scada/dev/topics?q=alarm")
	if r.status != 200 || !strings.Contains(r.body, `id="sign-in"`) || !strings.Contains(r.body, "next=%2Fscada%2Fdev%2Ftopics%3Fq%3Dalarm") {
		t.Errorf("anonymous page: %d\n%.300s", r.status, r.body)
	}
	// A context switch from qas to dev: after signing in, dev (what was
	// asked for) comes back, not the page the switch started from.
	hx := w.get("/scada/dev/topics", "HX-Request", "true", "HX-Target", "main", "HX-Current-URL", tp.url+"/scada/qas/topics")
	if hx.status != http.StatusUnauthorized || hx.header.Get("HX-Redirect") != "/auth/login?next=%2Fscada%2Fdev%2Ftopics" || hx.body != "" {
		t.Errorf("anonymous htmx request: %d %q %q", hx.status, hx.header.Get("HX-Redirect"), hx.body)
	}
	post := w.post("/scada/dev/topics", url.Values{"name": {"x"}})
	if post.status != http.StatusUnauthorized {
		t.Errorf("anonymous post: %d", post.status)
	}
}

func TestSignInSessionCookieAndSignOut(t *testing.T) {
	tp := sharedPortal(t)
	t.Parallel()
	w := tp.webClient(t)
	home := w.signIn("carol")
	for _, want := range []string{"Welcome, Carol Chen", `data-unit="scada"`, `data-unit="crm"`, `id="context-bu"`} {
		if !strings.Contains(home, want) {
			t.Errorf("home lacks %q", want)
		}
	}
	if strings.Contains(home, "eyJ") {
		t.Error("a token reached the page")
	}
	u, _ := url.Parse(tp.url)
	var session *http.Cookie
	for _, c := range w.http.Jar.Cookies(u) {
		if c.Name == "rms_session" {
			session = c
		}
	}
	if session == nil || len(session.Value) > 300 {
		t.Fatalf("session cookie %v", session)
	}

	// The cookie's attributes, as the server set them.
	req, _ := http.NewRequest(http.MethodGet, tp.url+"/auth/login?login_hint=carol", nil)
	jar, _ := cookiejar.New(nil)
	raw := &http.Client{Jar: jar}
	resp, err := raw.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	setCookie := strings.Join(resp.Request.Response.Header.Values("Set-Cookie"), "\n")
	if !strings.Contains(setCookie, "rms_session=") || !strings.Contains(setCookie, "HttpOnly") || !strings.Contains(setCookie, "SameSite=Lax") {
		t.Errorf("session cookie attributes: %s", setCookie)
	}

	// A new sign-in replaces the session id.
	w.signIn("carol")
	var again *http.Cookie
	for _, c := range w.http.Jar.Cookies(u) {
		if c.Name == "rms_session" {
			again = c
		}
	}
	if again == nil || again.Value == session.Value {
		t.Error("signing in again kept the session cookie")
	}
	old := &http.Client{Jar: mustJar(u, session)}
	if r, _ := old.Get(tp.url + "/"); r != nil {
		b, _ := io.ReadAll(r.Body)
		r.Body.Close()
		if !strings.Contains(string(b), `id="sign-in"`) {
			t.Error("the replaced session still works")
		}
	}

	out := w.post("/auth/logout", url.Values{})
	if out.status != 200 || !strings.Contains(out.body, "You are signed out") {
		t.Errorf("sign out: %d %.300s", out.status, out.body)
	}
	if r := w.get("/scada/dev/topics"); !strings.Contains(r.body, `id="sign-in"`) {
		t.Error("still signed in after signing out")
	}
}

func mustJar(u *url.URL, c *http.Cookie) http.CookieJar {
	jar, _ := cookiejar.New(nil)
	jar.SetCookies(u, []*http.Cookie{c})
	return jar
}

func TestCallbackChecksState(t *testing.T) {
	tp := sharedPortal(t)
	t.Parallel()
	w := tp.webClient(t)
	r := w.get("/auth/callback?code=abc&state=forged")
	if r.status != http.StatusUnauthorized || !strings.Contains(r.body, "does not match the one this browser started") {
		t.Errorf("forged callback: %d %.300s", r.status, r.body)
	}
	r = w.get("/auth/callback?error=access_denied&error_description=nope")
	if r.status != http.StatusUnauthorized || !strings.Contains(r.body, "refused the sign-in") {
		t.Errorf("refused callback: %d", r.status)
	}
	if r := w.get("/auth/login?next=https://evil.example/"); !strings.Contains(r.url, "/dev/idp/login") {
		t.Errorf("login went to %s", r.url)
	}
}

func TestFormsCSRFAndValidation(t *testing.T) {
	tp := sharedPortal(t)
	t.Parallel()
	w := tp.webClient(t)
	w.signIn("carol")
	w.get("/scada/qas/topics/new")
	sfx := suffix()
	made, hxMade := "form-made-"+sfx, "htmx-made-"+sfx
	tp.removeAfter("/api/v1/scada/qas/topic/" + made)
	tp.removeAfter("/api/v1/scada/qas/topic/" + hxMade)

	if r := w.post("/scada/qas/topics", url.Values{"name": {"csrf-less-" + sfx}, "_csrf": {"wrong"}}); r.status != http.StatusForbidden {
		t.Errorf("wrong CSRF token: %d", r.status)
	}
	if r := w.post("/scada/qas/topics", url.Values{"name": {"cross-site-" + sfx}}, "Sec-Fetch-Site", "cross-site"); r.status != http.StatusForbidden {
		t.Errorf("cross-site post: %d", r.status)
	}
	if r := tp.call("GET", "/api/v1/scada/qas/topic/cross-site-"+sfx, "carol", nil); r.status != 404 {
		t.Errorf("a refused post created a topic: %d", r.status)
	}

	bad := w.post("/scada/qas/topics", url.Values{"name": {"bad/name"}, "partitions_count": {"500"}, "config.retention.ms": {"soon"}})
	if bad.status != http.StatusUnprocessableEntity {
		t.Fatalf("invalid form: %d", bad.status)
	}
	for _, field := range []string{"name", "partitions_count", "config.retention.ms"} {
		if !strings.Contains(bad.body, `data-field="`+field+`"`) {
			t.Errorf("no error shown for %s", field)
		}
	}
	if !strings.Contains(bad.body, `value="bad/name"`) || !strings.Contains(bad.body, `value="soon"`) {
		t.Error("the form lost what was typed")
	}

	ok := w.post("/scada/qas/topics", url.Values{"name": {"Form Made " + sfx}, "partitions_count": {"2"}, "config.retention.ms": {"3600000"}})
	if ok.status != 200 || !strings.HasSuffix(ok.url, "/scada/qas/topic/edh-shared-scada-qas-"+made) || !strings.Contains(ok.body, "Topic edh-shared-scada-qas-"+made+" created.") {
		t.Fatalf("create: %d %s", ok.status, ok.url)
	}
	if !strings.Contains(ok.body, `data-setting="retention.ms" data-override="true"`) {
		t.Error("the new topic's override is not shown")
	}

	// htmx posts get the toast and the next location in headers.
	hx := w.post("/scada/qas/topics", url.Values{"name": {hxMade}}, "HX-Request", "true", "HX-Target", "topic-form")
	if hx.status != 200 || !strings.Contains(hx.header.Get("HX-Location"), `"path":"/scada/qas/topic/edh-shared-scada-qas-`+hxMade+`"`) ||
		!strings.Contains(hx.header.Get("HX-Trigger"), "created") {
		t.Errorf("htmx create: %d %v", hx.status, hx.header)
	}
	dup := w.post("/scada/qas/topics", url.Values{"name": {hxMade}}, "HX-Request", "true", "HX-Target", "topic-form")
	if dup.status != http.StatusUnprocessableEntity || !strings.Contains(dup.body, "already exists") || strings.Contains(dup.body, "<html") {
		t.Errorf("htmx duplicate: %d %.200s", dup.status, dup.body)
	}

	edit := w.post("/scada/qas/topic/edh-shared-scada-qas-"+made+"/edit", url.Values{"partitions_count": {"1"}})
	if edit.status != http.StatusUnprocessableEntity || !strings.Contains(edit.body, "cannot remove partitions") {
		t.Errorf("partition decrease: %d", edit.status)
	}
	// The edit form carries the version it was opened at: a save after
	// someone else's change says so and changes nothing.
	form := w.get("/scada/qas/topic/edh-shared-scada-qas-" + made + "/edit")
	version := regexp.MustCompile(`name="version" value="([^"]+)"`).FindStringSubmatch(form.body)
	if version == nil {
		t.Fatalf("the edit form carries no version:\n%.400s", form.body)
	}
	if r := tp.call("PATCH", "/api/v1/scada/qas/topic/edh-shared-scada-qas-"+made, "carol", map[string]any{"config": map[string]string{"retention.ms": "7200000"}}); r.status != 200 {
		t.Fatalf("someone else's change: %d %s", r.status, r.body)
	}
	stale := w.post("/scada/qas/topic/edh-shared-scada-qas-"+made+"/edit", url.Values{"partitions_count": {"3"}, "config.cleanup.policy": {"compact"}, "version": {version[1]}})
	if stale.status != http.StatusPreconditionFailed || !strings.Contains(stale.body, "Someone changed topic edh-shared-scada-qas-"+made+" after you opened this form, so nothing was saved") {
		t.Errorf("a save over someone else's change: %d %.300s", stale.status, stale.body)
	}
	if cfg := tp.call("GET", "/api/v1/scada/qas/topic/edh-shared-scada-qas-"+made, "carol", nil).json(t)["config"].(map[string]any); cfg["retention.ms"] != "7200000" || cfg["cleanup.policy"] != nil {
		t.Errorf("the refused save changed the topic: %v", cfg)
	}
	form = w.get("/scada/qas/topic/edh-shared-scada-qas-" + made + "/edit")
	version = regexp.MustCompile(`name="version" value="([^"]+)"`).FindStringSubmatch(form.body)
	edit = w.post("/scada/qas/topic/edh-shared-scada-qas-"+made+"/edit", url.Values{"partitions_count": {"3"}, "config.cleanup.policy": {"compact"}, "version": {version[1]}})
	if edit.status != 200 || !strings.Contains(edit.body, "saved") || strings.Contains(edit.body, `data-setting="retention.ms"`) {
		t.Errorf("edit: %d", edit.status)
	}

	wrong := w.post("/scada/qas/topic/edh-shared-scada-qas-"+made+"/delete", url.Values{"confirm": {"something-else"}})
	if wrong.status != http.StatusUnprocessableEntity || !strings.Contains(wrong.body, "Type "+made+" exactly") {
		t.Errorf("delete without confirmation: %d", wrong.status)
	}
	del := w.post("/scada/qas/topic/edh-shared-scada-qas-"+made+"/delete", url.Values{"confirm": {made}})
	if del.status != 200 || !strings.HasSuffix(del.url, "/scada/qas/topics") || !strings.Contains(del.body, "deleted") {
		t.Errorf("delete: %d %s", del.status, del.url)
	}
}

func TestPagesFollowThePolicy(t *testing.T) {
	tp := sharedPortal(t)
	t.Parallel()
	dave := tp.webClient(t)
	dave.signIn("dave")
	list := dave.get("/scada/dev/topics")
	if strings.Contains(list.body, `id="create-button"`) {
		t.Error("a viewer sees the create button")
	}
	dave.get("/scada/dev/topic/edh-shared-scada-dev-alarms")
	if r := dave.post("/scada/dev/topics", url.Values{"name": {"by-dave"}}); r.status != http.StatusForbidden || !strings.Contains(r.body, "you need the developer role") {
		t.Errorf("viewer create: %d", r.status)
	}

	carol := tp.webClient(t)
	carol.signIn("carol")
	run := carol.get("/scada/run/topics")
	// A Developer creates in a read-only stage by a change request: the
	// create button opens the form that drafts one.
	if !strings.Contains(run.body, `id="read-only-banner"`) || !regexp.MustCompile(`<a id="create-button" href="/scada/run/topics/new"[^>]*>[^<]*<svg.*?</svg>\s*Create topic <span class="font-normal">\(as a request\)`).MatchString(run.body) {
		t.Error("developer in run: no banner, or create not offered as a request")
	}
	if r := carol.post("/scada/run/topics", url.Values{"name": {"by-carol"}}); r.status != http.StatusForbidden || !strings.Contains(r.body, "read-only") {
		t.Errorf("developer create in run: %d", r.status)
	}
	if r := carol.get("/sales/dev/topics"); r.status != http.StatusNotFound {
		t.Errorf("unit without a role: %d", r.status)
	}

	bob := tp.webClient(t)
	bob.signIn("bob")
	run = bob.get("/scada/run/topics")
	if !strings.Contains(run.body, "you are bypassing the read-only rule") || !regexp.MustCompile(`<a id="create-button"`).MatchString(run.body) {
		t.Error("admin in run: no bypass notice or no create link")
	}

	alice := tp.webClient(t)
	alice.signIn("alice")
	all := alice.get("/platform/dev/topics")
	if !strings.Contains(all.body, `data-topic="legacy-orders"`) || !strings.Contains(all.body, "outside convention") {
		t.Error("the whole-cluster view does not show legacy-orders as outside the convention")
	}

	erin := tp.webClient(t)
	home := erin.signIn("erin")
	if !strings.Contains(home, `id="not-onboarded"`) || !strings.Contains(home, "sign out and sign in again") {
		t.Error("erin does not see the not-onboarded page")
	}
}

func TestContextNavigationWithoutJavaScript(t *testing.T) {
	tp := sharedPortal(t)
	t.Parallel()
	w := tp.webClient(t)
	w.signIn("carol")
	r := w.get("/context?bu=crm&stage=qas&resource=metrics")
	if !strings.HasSuffix(r.url, "/crm/qas/metrics") || !strings.Contains(r.body, `id="cluster-topics"`) {
		t.Errorf("context switch ended at %s", r.url)
	}
	if r := w.get("/context?bu=sales&stage=dev&resource=topics"); r.status != http.StatusNotFound {
		t.Errorf("switch to a unit without a role: %d", r.status)
	}
	part := w.get("/crm/dev/topics", "HX-Request", "true", "HX-Target", "main")
	if strings.Contains(part.body, "<html") || !strings.Contains(part.body, `id="resource-nav" class="px-3 py-2" aria-label="Resources" hx-swap-oob="true"`) ||
		!strings.Contains(part.body, `data-bu="crm" data-stage="dev"`) || !strings.Contains(part.body, "<title>") {
		t.Errorf("main partial:\n%.500s", part.body)
	}
	search := w.get("/scada/dev/topics?q=alarm", "HX-Request", "true", "HX-Target", "topic-results")
	if !strings.HasPrefix(strings.TrimSpace(search.body), `<div id="topic-results"`) || !strings.Contains(search.body, "edh-shared-scada-dev-alarms") ||
		strings.Contains(search.body, "sensor-readings") {
		t.Errorf("search fragment:\n%.300s", search.body)
	}
}

// TestSessionRenewal moves the sessions' clock past the access token's
// expiry three times: pages keep working because the session renews the
// token with the refresh token each time.
func TestSessionRenewal(t *testing.T) {
	t.Parallel()
	tp := startPortal(t, func(c *config.Config) { c.DevIDP.AccessTokenLifetime = 2 * time.Minute })
	w := tp.webClient(t)
	w.signIn("carol")
	for i := 0; i < 3; i++ {
		tp.sessionSkew.Add(int64(3 * time.Minute))
		if r := w.get("/scada/dev/topics"); r.status != 200 || !strings.Contains(r.body, `id="topic-results"`) {
			t.Fatalf("page %d after renewal: %d\n%.300s", i, r.status, r.body)
		}
	}
}

// TestPagesWithoutTheDatabase: when the database is gone, a signed-in
// page shows an error page that says so (503), not a sign-in page.
func TestPagesWithoutTheDatabase(t *testing.T) {
	t.Parallel()
	tp := startPortal(t, nil)
	w := tp.webClient(t)
	w.signIn("carol")
	tp.app.store.Close()
	r := w.get("/scada/dev/topics")
	if r.status != http.StatusServiceUnavailable || !strings.Contains(r.body, "database is unavailable") || strings.Contains(r.body, `id="sign-in"`) {
		t.Errorf("page without a database: %d\n%.500s", r.status, r.body)
	}
	if ready := tp.call("GET", "/readyz", "", nil); ready.status != http.StatusServiceUnavailable {
		t.Errorf("readyz without a database: %d", ready.status)
	}
}
