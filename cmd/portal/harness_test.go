package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/oauth2/clientcredentials"

	"github.com/edh-platform/rms-portal/internal/config"
	"github.com/edh-platform/rms-portal/internal/dev/idp/idptest"
	"github.com/edh-platform/rms-portal/internal/store/pgtest"
	"github.com/edh-platform/rms-portal/internal/store/sqlitetest"
)

// testPortal is a whole portal in dev mode on a loopback port: dev
// identity provider, embedded clusters, demo data, the real echo server.
type testPortal struct {
	t      testing.TB
	url    string
	app    *app
	tokens *tokenCache
	// sessionSkew moves the clock of browser sessions forward, so that
	// tests can reach token expiry without waiting for it.
	sessionSkew *atomic.Int64
}

// tokenCache keeps one access token per demo user.
type tokenCache struct {
	mu sync.Mutex
	m  map[string]cachedToken
}

// startPortal starts a portal; tweak may change the dev configuration.
func startPortal(t testing.TB, tweak func(*config.Config)) *testPortal {
	t.Helper()
	return startPortalWith(t, tweak, hooks{})
}

// startPortalWith starts a portal with hooks (its session clock is the
// harness's own).
func startPortalWith(t testing.TB, tweak func(*config.Config), h hooks) *testPortal {
	t.Helper()
	cfg, err := config.Dev(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cfg.BaseURL = "http://" + l.Addr().String()
	// The usage collector spends Metrics API requests that other tests'
	// charts count on: only the tests of costs run it (their tweak).
	cfg.Costs.Every = 24 * time.Hour
	if tweak != nil {
		tweak(cfg)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	if os.Getenv("PORTAL_TEST_LOG") != "" {
		log = newLogger(os.Stderr, true, os.Getenv("PORTAL_TEST_LOG"))
	}
	if cfg.Database.URL == "" {
		// Not t.TempDir: the shared portal outlives the test that starts it.
		dir, err := os.MkdirTemp("", "rms-portal-test-")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(dir) })
		// A copy of a database migrated once per run: the binary's
		// own journeys migrate theirs from nothing.
		cfg.Database.URL = "sqlite:" + sqlitetest.File(t, dir)
	}
	tp := &testPortal{t: t, url: cfg.BaseURL, tokens: &tokenCache{m: map[string]cachedToken{}}, sessionSkew: new(atomic.Int64)}
	ctx, cancel := context.WithCancel(context.Background())
	h.sessionClock = func() time.Time { return time.Now().Add(time.Duration(tp.sessionSkew.Load())) }
	p, err := assemble(ctx, cfg, log, h)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = serveOn(ctx, p, l, log)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
		p.Close()
	})
	if err := p.dev.seed(ctx, p, devOptions{bulkClusters: 1}, log); err != nil {
		t.Fatal(err)
	}
	p.settled.Store(true)
	tp.app = p
	return tp
}

var (
	sharedOnce sync.Once
	shared     *testPortal
	stopShared func()
)

// sharedPortal is one portal for the tests that do not disturb it; they
// use names of their own so that they do not see each other's changes.
func sharedPortal(t *testing.T) *testPortal {
	sharedOnce.Do(func() {
		rec := &cleanupRecorder{TB: t}
		shared = startPortal(rec, nil)
		shared.t = nil
		stopShared = rec.run
	})
	return &testPortal{t: t, url: shared.url, app: shared.app, tokens: shared.tokens, sessionSkew: shared.sessionSkew}
}

// cleanupRecorder keeps cleanups for TestMain to run once all tests end.
type cleanupRecorder struct {
	testing.TB
	fns []func()
}

func (c *cleanupRecorder) Cleanup(f func()) { c.fns = append(c.fns, f) }
func (c *cleanupRecorder) run() {
	for i := len(c.fns) - 1; i >= 0; i-- {
		c.fns[i]()
	}
}

func TestMain(m *testing.M) {
	code := pgtest.Main(m)
	for _, dir := range []string{binDir, providerDir, terraformRCDir} {
		if dir != "" {
			os.RemoveAll(dir)
		}
	}
	if stopShared != nil {
		stopShared()
	}
	os.Exit(code)
}

// cachedToken is a user's access token with its expiry.
type cachedToken struct {
	token  string
	expiry time.Time
}

// token signs a demo user in (PKCE, login_hint) and returns an access token.
func (tp *testPortal) token(user string) string {
	tp.t.Helper()
	tp.tokens.mu.Lock()
	defer tp.tokens.mu.Unlock()
	// A token is reused until a minute before it expires: a long run
	// outlives the first ones.
	if tok, ok := tp.tokens.m[user]; ok && time.Until(tok.expiry) > time.Minute {
		return tok.token
	}
	res, err := idptest.SignIn(context.Background(), tp.url+"/dev/idp", "rms-portal", user,
		"openid", "profile", "api://rms-portal/.default")
	if err != nil {
		tp.t.Fatalf("sign in %s: %v", user, err)
	}
	tp.tokens.m[user] = cachedToken{token: res.Token.AccessToken, expiry: res.Token.Expiry}
	return res.Token.AccessToken
}

// serviceToken gets a client credentials token for the scada-ci pipeline.
func (tp *testPortal) serviceToken() string {
	tp.t.Helper()
	cc := clientcredentials.Config{ClientID: "scada-ci", ClientSecret: "scada-ci-secret",
		TokenURL: tp.url + "/dev/idp/oauth/token", Scopes: []string{"api://rms-portal/.default"}}
	tok, err := cc.Token(context.Background())
	if err != nil {
		tp.t.Fatal(err)
	}
	return tok.AccessToken
}

// response is an API response, read whole.
type response struct {
	status int
	header http.Header
	body   []byte
}

func (r response) json(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("status %d, body is not a JSON object: %v\n%s", r.status, err, r.body)
	}
	return m
}

// call sends a request as user ("" for none); body may be nil, a string
// (sent as JSON) or any value (encoded as JSON).
func (tp *testPortal) call(method, path, user string, body any, header ...string) response {
	tp.t.Helper()
	token := ""
	if user != "" {
		token = tp.token(user)
	}
	return tp.callToken(method, path, token, body, header...)
}

func (tp *testPortal) callToken(method, path, token string, body any, header ...string) response {
	tp.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			tp.t.Fatal(err)
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, tp.url+path, rd)
	if err != nil {
		tp.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tp.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		tp.t.Fatal(err)
	}
	tp.conform(req, resp.StatusCode, resp.Header, data)
	return response{status: resp.StatusCode, header: resp.Header, body: data}
}

var timestampRE = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`)

// wantError checks the error record: status, code equal to it, timestamp
// format, request id, and the given error types (with fields as
// "TYPE:field" or just "TYPE").
func wantError(t testing.TB, r response, status int, items ...string) map[string]any {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d\n%s", r.status, status, r.body)
	}
	rec := r.json(t)
	if code, _ := rec["code"].(float64); int(code) != status {
		t.Errorf("code %v differs from status %d", rec["code"], status)
	}
	if name := statusName(status); rec["status"] != name {
		t.Errorf("status name %v, want %s", rec["status"], name)
	}
	if ts, _ := rec["timestamp"].(string); !timestampRE.MatchString(ts) {
		t.Errorf("timestamp %q", ts)
	}
	if r.header.Get("X-Request-Id") == "" {
		t.Error("no X-Request-Id")
	}
	errs, _ := rec["errors"].([]any)
	var got []string
	for _, e := range errs {
		m := e.(map[string]any)
		s := m["type"].(string)
		if f, ok := m["field"].(string); ok && f != "" {
			s += ":" + f
		}
		if msg, _ := m["message"].(string); msg == "" {
			t.Errorf("error %v has no message", m)
		}
		got = append(got, s)
	}
	if strings.Join(got, " ") != strings.Join(items, " ") {
		t.Errorf("errors %v, want %v\n%s", got, items, r.body)
	}
	return rec
}

func statusName(code int) string {
	return strings.ToUpper(strings.ReplaceAll(http.StatusText(code), " ", "_"))
}

// suffix is a short random tag; tests on the shared portal add it to the
// names they create, so that runs (go test -count=N) and parallel tests
// never meet each other's resources.
func suffix() string {
	b := make([]byte, 3)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// removeAfter deletes an API resource (as a platform admin) when the test
// ends, whatever became of it; a resource already gone is fine.
func (tp *testPortal) removeAfter(path string) {
	t := tp.t
	t.Cleanup(func() {
		target := path
		if strings.Contains(path, "/topic/") {
			// A test's topic may still be read by the test's connector or
			// group: the platform admin deletes it anyway, saying so.
			target += "?confirm=" + url.QueryEscape(path[strings.LastIndex(path, "/")+1:]) + "&reason=test+cleanup"
		}
		r := tp.call("DELETE", target, "frank", nil)
		if r.status != http.StatusNoContent && r.status != http.StatusNotFound {
			t.Errorf("cleanup of %s: %d %s", path, r.status, r.body)
		}
	})
}

// removeSubject deletes every version of a subject for good, as a platform
// admin: softly first, as the registry requires.
func (tp *testPortal) removeSubject(base, subject string) {
	r := tp.call("GET", base+"/schema/"+subject+"/versions", "frank", nil)
	if r.status == http.StatusNotFound {
		return
	}
	var list struct {
		Items []struct {
			Version int `json:"version"`
		} `json:"items"`
	}
	if err := json.Unmarshal(r.body, &list); err != nil {
		tp.t.Errorf("cleanup of %s: %d %s", subject, r.status, r.body)
		return
	}
	for _, v := range list.Items {
		path := fmt.Sprintf("%s/schema/%s/%d", base, subject, v.Version)
		tp.call("DELETE", path, "frank", nil)
		if r := tp.call("DELETE", path+"?permanent=true", "frank", nil); r.status != http.StatusNoContent {
			tp.t.Errorf("cleanup of %s: %d %s", path, r.status, r.body)
		}
	}
}
