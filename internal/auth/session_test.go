package auth_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/auth"
	"github.com/edh-platform/rms-portal/internal/devidp/devidptest"
	"github.com/edh-platform/rms-portal/internal/portal"
)

func sessions(t *testing.T, issuer string) *auth.Sessions {
	t.Helper()
	p := auth.NewProvider(issuer, 5*time.Second)
	login := auth.NewWebLogin(auth.WebLoginOptions{Provider: p, Verifier: verifier(t, issuer, "api://rms-portal"),
		ClientID: "rms-portal", RedirectURL: "http://127.0.0.1:49152/callback", Scopes: []string{"openid", "offline_access"}})
	return auth.NewSessions(auth.SessionOptions{Secrets: []string{strings.Repeat("k", 40)}, MaxAge: time.Hour, Login: login})
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
	s := sessions(t, devidptest.Start(t, nil))
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

func TestSessionsKeepTokensOnTheServer(t *testing.T) {
	s := sessions(t, devidptest.Start(t, nil))
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
		"/scada/dev/topics?q=x": "/scada/dev/topics?q=x", "": "/", "https://evil.example/": "/",
		"//evil.example/": "/", "/\\evil.example": "/", "javascript:alert(1)": "/", "/ok\r\nSet-Cookie: x": "/",
	} {
		if got := auth.SafeNext(in); got != want {
			t.Errorf("SafeNext(%q) = %q, want %q", in, got, want)
		}
	}
}
