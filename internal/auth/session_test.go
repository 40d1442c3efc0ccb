package auth_test

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/auth"
	"github.com/edh-platform/rms-portal/internal/dev/idp/idptest"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/store/sqlite"
	"github.com/edh-platform/rms-portal/internal/store/sqlitetest"
)

// openStore is a real store (SQLite in a temporary file).
func openStore(t testing.TB) *sqlite.Store {
	t.Helper()
	st, _, err := sqlite.Open(context.Background(), sqlitetest.File(t, ""), 5*time.Second, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func sessions(t *testing.T, issuer string) *auth.Sessions {
	t.Helper()
	return sessionsOn(t, issuer, openStore(t), strings.Repeat("k", 40))
}

// sessionsOn is one replica's session manager on a shared store.
func sessionsOn(t testing.TB, issuer string, st auth.SessionStore, secrets ...string) *auth.Sessions {
	t.Helper()
	p := auth.NewProvider(issuer, 5*time.Second, nil, nil)
	login := auth.NewWebLogin(auth.WebLoginOptions{Provider: p, Verifier: verifier(t, issuer, "api://rms-portal"),
		ClientID: "rms-portal", RedirectURL: "http://127.0.0.1:49152/callback", Scopes: []string{"openid", "offline_access"}})
	s, err := auth.NewSessions(auth.SessionOptions{Store: st, Secrets: secrets, MaxAge: time.Hour, Login: login})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// withCookies replays the cookies a response set.
func withCookies(rec *httptest.ResponseRecorder) *http.Request {
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	for _, c := range rec.Result().Cookies() {
		req.AddCookie(c)
	}
	return req
}

func TestSessionThatCannotBeRenewedEnds(t *testing.T) {
	s := sessions(t, idptest.Start(t, nil))
	rec := httptest.NewRecorder()
	_, err := s.Start(rec, httptest.NewRequest(http.MethodGet, "/", nil), &auth.Grant{
		Identity: portal.Identity{Subject: "carol"}, AccessToken: "expired", RefreshToken: "unknown-to-the-provider",
		Expiry: time.Now().Add(-time.Minute),
	})
	if err != nil {
		t.Fatal(err)
	}
	req := withCookies(rec)
	rec2 := httptest.NewRecorder()
	sess, err := s.Current(rec2, req)
	if sess != nil || !errors.Is(err, auth.ErrSessionExpired) {
		t.Fatalf("renewal with a bad refresh token: %v %v", sess, err)
	}
	if c := rec2.Result().Cookies(); len(c) != 1 || c[0].MaxAge >= 0 {
		t.Errorf("the session cookie was not cleared: %v", c)
	}
	// The server forgot the session too: its old cookie finds nothing.
	if sess, err := s.Current(httptest.NewRecorder(), req); sess != nil || err != nil {
		t.Errorf("after ending: %v %v", sess, err)
	}
}

// TestSessionOutlivesAnIdentityProviderOutage: a session due for renewal
// while the identity provider cannot be reached goes on with its token,
// which is still good, instead of ending.
func TestSessionOutlivesAnIdentityProviderOutage(t *testing.T) {
	down := httptest.NewServer(http.NotFoundHandler())
	issuer := down.URL
	down.Close() // its port now refuses connections
	s := sessions(t, issuer)
	rec := httptest.NewRecorder()
	if _, err := s.Start(rec, httptest.NewRequest(http.MethodGet, "/", nil), &auth.Grant{
		Identity: portal.Identity{Subject: "carol"}, AccessToken: "still-good", RefreshToken: "r",
		Expiry: time.Now().Add(30 * time.Second), // within the renewal window
	}); err != nil {
		t.Fatal(err)
	}
	sess, err := s.Current(httptest.NewRecorder(), withCookies(rec))
	if err != nil || sess == nil || sess.AccessToken != "still-good" {
		t.Fatalf("a good session during an identity provider outage: %v %v", sess, err)
	}
}

func TestSessionsKeepTokensOnTheServer(t *testing.T) {
	s := sessions(t, idptest.Start(t, nil))
	rec := httptest.NewRecorder()
	groups := make([]string, 500)
	for i := range groups {
		groups[i] = "sg-some-long-group-name-number-" + strings.Repeat("x", 20)
	}
	token := strings.Repeat("a", 6000)
	if _, err := s.Start(rec, httptest.NewRequest(http.MethodGet, "/", nil), &auth.Grant{
		Identity: portal.Identity{Subject: "many", Groups: groups}, AccessToken: token, Expiry: time.Now().Add(time.Hour),
	}); err != nil {
		t.Fatal(err)
	}
	for _, c := range rec.Result().Cookies() {
		if len(c.String()) > 4096 || strings.Contains(c.Value, "aaaa") {
			t.Errorf("cookie %s is %d bytes", c.Name, len(c.String()))
		}
		if !c.HttpOnly || c.SameSite != http.SameSiteLaxMode {
			t.Errorf("cookie %s: HttpOnly %v SameSite %v", c.Name, c.HttpOnly, c.SameSite)
		}
	}
	sess, err := s.Current(httptest.NewRecorder(), withCookies(rec))
	if err != nil || sess == nil || sess.AccessToken != token || len(sess.Identity.Groups) != 500 || sess.CSRF == "" {
		t.Errorf("session not restored: %v", err)
	}
	// A tampered cookie is no session.
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	for _, c := range rec.Result().Cookies() {
		c.Value = c.Value[:len(c.Value)-4] + "abcd"
		req.AddCookie(c)
	}
	if sess, _ := s.Current(httptest.NewRecorder(), req); sess != nil {
		t.Error("a tampered cookie opened the session")
	}
}

func TestSafeNext(t *testing.T) {
	for in, want := range map[string]string{
		"/scada/dev/topics?q=x": "/scada/dev/topics?q=x", "/scada/dev/topic/a%2Fb": "/scada/dev/topic/a%2Fb",
		"/?next=//x": "/?next=//x", "": "/", "https://evil.example/": "/",
		"//evil.example/": "/", "/\\evil.example": "/", "javascript:alert(1)": "/", "/ok\r\nSet-Cookie: x": "/",
		// Known bypasses: browsers drop tabs and newlines, read backslashes
		// as slashes, and some tools decode the path.
		"/\t/127.0.0.1:9999/pwned": "/", "/\n/evil.example": "/", "/\r/evil.example": "/", "/%09/evil.example": "/%09/evil.example",
		"/%2F/evil.example": "/", "/%2f%2fevil.example": "/", "/%5C/evil.example": "/", "\\/evil.example": "/",
		"/\x00/evil": "/", "/\u00a0/evil": "/", "///evil.example": "/", "/.//evil.example": "/.//evil.example",
		"http:/evil.example": "/", "/\\\\evil": "/", " /evil": "/", "/%": "/",
	} {
		if got := auth.SafeNext(in); got != want {
			t.Errorf("SafeNext(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestSessionsAreSharedAndSealed: two replicas on one store serve the same
// session, signing out on one ends it on the other, the stored record
// holds no token in clear, and a rotated key still opens old sessions.
func TestSessionsAreSharedAndSealed(t *testing.T) {
	issuer := idptest.Start(t, nil)
	st := openStore(t)
	a := sessionsOn(t, issuer, st, strings.Repeat("a", 40))
	b := sessionsOn(t, issuer, st, strings.Repeat("a", 40))
	rec := httptest.NewRecorder()
	token := "access-token-" + strings.Repeat("z", 40)
	if _, err := a.Start(rec, httptest.NewRequest(http.MethodGet, "/", nil), &auth.Grant{
		Identity: portal.Identity{Subject: "bob", Username: "bob"}, AccessToken: token, RefreshToken: "refresh-secret",
		Expiry: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if sess, err := b.Current(httptest.NewRecorder(), withCookies(rec)); err != nil || sess == nil || sess.AccessToken != token {
		t.Fatalf("replica b does not know the session: %v %v", sess, err)
	}
	var data []byte
	if err := st.SQL().QueryRow(`SELECT data FROM sessions`).Scan(&data); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "zzzz") || strings.Contains(string(data), "refresh-secret") || strings.Contains(string(data), "bob") {
		t.Error("the stored session shows its secrets")
	}
	// The keys are rotated: the old one is second and still opens.
	rotated := sessionsOn(t, issuer, st, strings.Repeat("n", 40), strings.Repeat("a", 40))
	if sess, err := rotated.Current(httptest.NewRecorder(), withCookies(rec)); err != nil || sess == nil {
		t.Fatalf("after rotating the keys: %v %v", sess, err)
	}
	b.End(httptest.NewRecorder(), withCookies(rec))
	if sess, err := a.Current(httptest.NewRecorder(), withCookies(rec)); sess != nil || err != nil {
		t.Errorf("signed out on b, still signed in on a: %v %v", sess, err)
	}
}

// TestLiveSessionsPerPersonAreBounded: a sign-in beyond the bound ends the
// person's oldest session, not the others' nor the new one.
func TestLiveSessionsPerPersonAreBounded(t *testing.T) {
	issuer := idptest.Start(t, nil)
	st := openStore(t)
	p := auth.NewProvider(issuer, 5*time.Second, nil, nil)
	login := auth.NewWebLogin(auth.WebLoginOptions{Provider: p, Verifier: verifier(t, issuer, "api://rms-portal"),
		ClientID: "rms-portal", RedirectURL: "http://127.0.0.1:49152/callback"})
	now := time.Now()
	s, err := auth.NewSessions(auth.SessionOptions{Store: st, Secrets: []string{strings.Repeat("k", 40)}, MaxAge: time.Hour,
		Login: login, MaxPerUser: 3, Clock: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	start := func(subject string) *http.Request {
		now = now.Add(time.Second)
		rec := httptest.NewRecorder()
		if _, err := s.Start(rec, httptest.NewRequest(http.MethodGet, "/", nil), &auth.Grant{
			Identity: portal.Identity{Subject: subject, Username: subject}, AccessToken: "t", Expiry: now.Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
		return withCookies(rec)
	}
	other := start("carol")
	var bobs []*http.Request
	for range 5 {
		bobs = append(bobs, start("bob"))
	}
	for i, r := range bobs {
		sess, _ := s.Current(httptest.NewRecorder(), r)
		if alive := sess != nil; alive != (i >= 2) {
			t.Errorf("bob's session %d alive %v", i, alive)
		}
	}
	if sess, _ := s.Current(httptest.NewRecorder(), other); sess == nil {
		t.Error("another person's session was ended")
	}
}

// TestSignOutSaysWhenItCannot: with the database gone, signing out says
// that it could not, and keeps the cookie so that the person can retry;
// it never answers as done while the session lives on.
func TestSignOutSaysWhenItCannot(t *testing.T) {
	issuer := idptest.Start(t, nil)
	st := openStore(t)
	s := sessionsOn(t, issuer, st, strings.Repeat("a", 40))
	rec := httptest.NewRecorder()
	if _, err := s.Start(rec, httptest.NewRequest(http.MethodGet, "/", nil), &auth.Grant{
		Identity: portal.Identity{Subject: "bob", Username: "bob"}, AccessToken: "t", Expiry: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	out := httptest.NewRecorder()
	_, err := s.End(out, withCookies(rec))
	if !portal.Is(err, portal.UpstreamUnavailable) || !strings.Contains(err.Error(), "could not be signed out") {
		t.Errorf("sign-out without a database: %v", err)
	}
	if len(out.Result().Cookies()) != 0 {
		t.Error("the cookie was cleared although the session still exists")
	}
}

// TestAHandoffIsReadOnce: what a page hands to the next (a new key's
// secret) is sealed in the store, read by the first request on any
// replica and by no other; without a session nothing is kept.
func TestAHandoffIsReadOnce(t *testing.T) {
	issuer := idptest.Start(t, nil)
	st := openStore(t)
	a := sessionsOn(t, issuer, st, strings.Repeat("a", 40))
	b := sessionsOn(t, issuer, st, strings.Repeat("a", 40))
	rec := httptest.NewRecorder()
	if _, err := a.Start(rec, httptest.NewRequest(http.MethodGet, "/", nil), &auth.Grant{
		Identity: portal.Identity{Subject: "bob", Username: "bob"}, AccessToken: "t", Expiry: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if err := a.Handoff(withCookies(rec), "api-key K1", []byte("secret-"+strings.Repeat("s", 20))); err != nil {
		t.Fatal(err)
	}
	var data []byte
	if err := st.SQL().QueryRow(`SELECT data FROM sessions`).Scan(&data); err != nil || strings.Contains(string(data), "ssss") {
		t.Errorf("the stored session shows the handoff (%v)", err)
	}
	if got, ok := b.TakeHandoff(withCookies(rec), "api-key K1"); !ok || !strings.HasPrefix(string(got), "secret-") {
		t.Fatalf("the first read: %q %v", got, ok)
	}
	if got, ok := a.TakeHandoff(withCookies(rec), "api-key K1"); ok {
		t.Errorf("a second read: %q", got)
	}
	if err := a.Handoff(httptest.NewRequest(http.MethodGet, "/", nil), "api-key K2", []byte("x")); err == nil {
		t.Error("a handoff without a session was kept")
	}
}
