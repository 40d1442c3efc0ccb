package auth_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/auth"
	"github.com/edh-platform/rms-portal/internal/dev/idp/idptest"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// BenchmarkCurrentSession measures what every page pays to find its
// session: the cookie, the store (SQLite) and opening the sealed data.
func BenchmarkCurrentSession(b *testing.B) {
	issuer := idptest.Start(b, nil)
	st := openStore(b)
	s := sessionsOn(b, issuer, st, strings.Repeat("k", 40))
	rec := httptest.NewRecorder()
	groups := make([]string, 40)
	for i := range groups {
		groups[i] = "sg-group-" + strings.Repeat("x", 10)
	}
	if _, err := s.Start(rec, httptest.NewRequest(http.MethodGet, "/", nil), &auth.Grant{
		Identity: portal.Identity{Subject: "carol", Username: "carol", Groups: groups}, AccessToken: strings.Repeat("a", 1200),
		RefreshToken: strings.Repeat("r", 100), IDToken: strings.Repeat("i", 900), Expiry: time.Now().Add(time.Hour)}); err != nil {
		b.Fatal(err)
	}
	req := withCookies(rec)
	for b.Loop() {
		if sess, err := s.Current(httptest.NewRecorder(), req); err != nil || sess == nil {
			b.Fatal(err)
		}
	}
}
