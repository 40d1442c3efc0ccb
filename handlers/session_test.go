package handlers

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/auth"
)

// expiredSessions is a session manager whose sessions cannot be renewed
// any more, as when the identity provider refuses the refresh token.
type expiredSessions struct{ Sessions }

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
