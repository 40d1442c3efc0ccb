package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/views"
)

// myAccess explains the signed-in person's roles.
func (h *Handlers) myAccess(c echo.Context) error {
	p, err := h.Page(c, "My access", "", portal.Scope{})
	if err != nil {
		return err
	}
	p.Nav = "my-access"
	r, err := h.Me.Access(c.Request().Context())
	if err != nil {
		return err
	}
	p.Crumbs = []views.Crumb{{Label: "home", Href: "/"}, {Label: "my access"}}
	return h.Render(c, http.StatusOK, p, views.MyAccessPage(p, r))
}

// mySessions lists where the signed-in person is signed in.
func (h *Handlers) mySessions(c echo.Context) error {
	p, err := h.Page(c, "My sessions", "", portal.Scope{})
	if err != nil {
		return err
	}
	list, err := h.Me.Sessions(c.Request().Context())
	if err != nil {
		return err
	}
	p.Crumbs = []views.Crumb{{Label: "home", Href: "/"}, {Label: "my access", Href: "/me/access"}, {Label: "my sessions"}}
	return h.Render(c, http.StatusOK, p, views.MySessionsPage(p, list, h.Sessions.Key(c.Request())))
}

// endMySession signs out one of the person's own sessions.
func (h *Handlers) endMySession(c echo.Context) error {
	if err := h.Me.EndSession(c.Request().Context(), c.Param("id")); err != nil {
		return err
	}
	return h.Done(c, "Session ended: that browser is signed out.", "/me/sessions")
}
