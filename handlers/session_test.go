package handlers

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/handlers/page"
	"github.com/edh-platform/rms-portal/internal/auth"
)

// expiredSessions is a session manager whose sessions cannot be renewed
// any more, as when the identity provider refuses the refresh token.
type expiredSessions struct{ page.Sessions }

func (expiredSessions) Current(http.ResponseWriter, *http.Request) (*auth.Session, error) {
	return nil, auth.ErrSessionExpired
}

func TestExpiredSessionSendsTheBrowserToSignIn(t *testing.T) {
	h := New(Options{Sessions: expiredSessions{}})
	e := echo.New()
	never := func(echo.Context) error {
		t.Error("the handler ran without a session")
		return nil
	}
	handler := h.requireSession(never)

	// An htmx request (a table refresh, say) must not get a sign-in page
	// swapped into the table: the page is told to go and sign in.
	req := httptest.NewRequest(http.MethodGet, "/scada/dev/topics?q=x", nil)
	req.Header.Set("HX-Request", "true")
	req.Header.Set("HX-Target", "topic-results")
	req.Header.Set("HX-Current-URL", "http://portal.example/scada/dev/topics?q=x")
	rec := httptest.NewRecorder()
	if err := handler(e.NewContext(req, rec)); err != nil {
		t.Fatal(err)
	}
	if rec.Code != http.StatusUnauthorized || rec.Header().Get("HX-Redirect") != "/auth/login?next=%2Fscada%2Fdev%2Ftopics%3Fq%3Dx" || rec.Body.Len() != 0 {
		t.Errorf("htmx: %d %q %q", rec.Code, rec.Header().Get("HX-Redirect"), rec.Body.String())
	}

	// A context switch (an htmx GET of the new context's page) whose
	// session expired comes back to the new context, not the old one; a
	// form sent from a page comes back to that page.
	for _, c := range []struct{ method, path, want string }{
		{http.MethodGet, "/scada/qas/topics", "/auth/login?next=%2Fscada%2Fqas%2Ftopics"},
		{http.MethodPost, "/scada/dev/topic", "/auth/login?next=%2Fscada%2Fdev%2Ftopics"},
	} {
		req := httptest.NewRequest(c.method, c.path, nil)
		req.Header.Set("HX-Request", "true")
		req.Header.Set("HX-Current-URL", "http://portal.example/scada/dev/topics")
		rec := httptest.NewRecorder()
		if err := handler(e.NewContext(req, rec)); err != nil {
			t.Fatal(err)
		}
		if got := rec.Header().Get("HX-Redirect"); got != c.want {
			t.Errorf("%s %s: HX-Redirect %q, want %q", c.method, c.path, got, c.want)
		}
	}

	// A page load shows the sign-in page, saying why.
	req = httptest.NewRequest(http.MethodGet, "/scada/dev/topics", nil).WithContext(context.Background())
	rec = httptest.NewRecorder()
	if err := handler(e.NewContext(req, rec)); err != nil {
		t.Fatal(err)
	}
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "Your session has expired") ||
		!strings.Contains(rec.Body.String(), "next=%2Fscada%2Fdev%2Ftopics") {
		t.Errorf("page: %d %.300s", rec.Code, rec.Body.String())
	}
}
