package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/handlers/page"
	"github.com/edh-platform/rms-portal/internal/auth"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/views"
)

func toastOK(msg string) auth.Toast { return auth.Toast{Kind: "success", Message: msg} }

// login sends the browser to the identity provider.
func (h *Handlers) login(c echo.Context) error {
	// Each start costs a sign-in state and a redirect to the provider.
	if err := h.throttle.Take(c.RealIP()); err != nil {
		return err
	}
	u, err := h.Sessions.Begin(c.Request().Context(), c.Response(), auth.SafeNext(c.QueryParam("next")), c.QueryParam("login_hint"))
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusFound, u)
}

// callback completes the sign-in and starts a fresh session.
func (h *Handlers) callback(c echo.Context) error {
	next, err := h.Sessions.Finish(c.Response(), c.Request())
	if err != nil {
		if portal.Is(err, portal.Unauthenticated) {
			_ = h.throttle.Take(c.RealIP())
			h.Log.WarnContext(c.Request().Context(), "sign-in failed", "error", err)
			return page.Fragment(c, http.StatusUnauthorized, views.SignIn("/", "Sign-in failed: "+portal.Problems(err)[0].Message))
		}
		return err
	}
	return c.Redirect(http.StatusSeeOther, next)
}

// logout ends the session (the form carries the CSRF token) and, when the
// provider supports it, its session there too.
func (h *Handlers) logout(c echo.Context) error {
	r := c.Request()
	sess, _ := h.Sessions.Current(c.Response(), r)
	if sess == nil {
		return c.Redirect(http.StatusSeeOther, "/signed-out")
	}
	if err := h.checkCSRF(c, sess); err != nil {
		return err
	}
	if _, err := h.Sessions.End(c.Response(), r); err != nil {
		return err
	}
	if u := h.Sessions.EndSessionURL(r.Context(), sess.IDToken, h.baseURL+"/signed-out"); u != "" {
		return c.Redirect(http.StatusSeeOther, u)
	}
	return c.Redirect(http.StatusSeeOther, "/signed-out")
}

func (h *Handlers) signedOut(c echo.Context) error {
	return page.Fragment(c, http.StatusOK, views.SignedOut())
}
