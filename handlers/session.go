package handlers

import (
	"crypto/subtle"
	"errors"
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/handlers/page"
	"github.com/edh-platform/rms-portal/internal/auth"
	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/views"
)

// requireSession puts the signed-in principal into the request context,
// renewing tokens as needed, and refuses cross-site state changes. Without
// a session a page shows the sign-in page, and an htmx request is told to
// send the browser to sign in.
func (h *Handlers) requireSession(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		sess, err := h.Sessions.Current(c.Response(), r)
		if sess == nil {
			if err != nil && !errors.Is(err, auth.ErrSessionExpired) {
				return err
			}
			h.refused(c, portal.New(portal.Unauthenticated, "sign-in required"))
			return h.signInRequired(c, errors.Is(err, auth.ErrSessionExpired))
		}
		p := h.resolver.Resolve(sess.Identity)
		c.SetRequest(r.WithContext(portal.WithPrincipal(r.Context(), p)))
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			if err := h.checkCSRF(c, sess); err != nil {
				h.refused(c, err)
				return err
			}
		}
		page.SetSession(c, sess)
		return next(c)
	}
}

func (h *Handlers) signInRequired(c echo.Context, expired bool) error {
	next := c.Request().URL.RequestURI()
	if page.IsHTMX(c) {
		// A page asked for (a navigation, a context switch) comes back
		// after signing in: every GET here is a page. After a form sent
		// from a page, that page does.
		if cur, err := url.Parse(c.Request().Header.Get("HX-Current-URL")); c.Request().Method != http.MethodGet && err == nil && cur.Path != "" {
			next = cur.RequestURI()
		}
		c.Response().Header().Set("HX-Redirect", "/auth/login?next="+url.QueryEscape(auth.SafeNext(next)))
		return c.NoContent(http.StatusUnauthorized)
	}
	msg := ""
	if expired {
		msg = "Your session has expired. Sign in again to continue."
	}
	status := http.StatusOK
	if c.Request().Method != http.MethodGet {
		status = http.StatusUnauthorized
	}
	return page.Fragment(c, status, views.SignIn(auth.SafeNext(next), msg))
}

// checkCSRF refuses state-changing requests that come from another site
// (Fetch metadata or Origin) or lack the session's token.
func (h *Handlers) checkCSRF(c echo.Context, sess *auth.Session) error {
	r := c.Request()
	if err := h.csrf.Check(r); err != nil {
		return portal.Wrap(err, portal.CSRFRejected, "this request came from another site and was refused")
	}
	token := r.Header.Get("X-CSRF-Token")
	if token == "" {
		token = r.PostFormValue("_csrf")
	}
	if token == "" || subtle.ConstantTimeCompare([]byte(token), []byte(sess.CSRF)) != 1 {
		return portal.New(portal.CSRFRejected, "this form has expired or did not come from the portal; reload the page and try again")
	}
	return nil
}

// refused audits a form refused before it reached a service: no session,
// or a CSRF failure.
func (h *Handlers) refused(c echo.Context, err error) {
	r := c.Request()
	if r.Method == http.MethodGet || r.Method == http.MethodHead || h.Audit == nil {
		return
	}
	resource := c.Param("name") + c.Param("subject") + c.Param("id")
	// Refused before any service knew the action: the form stands for it.
	h.Audit.Refused(r.Context(), httpserver.ScopeOf(c), portal.RouteAction("form "+c.Path()), resource, err)
}
