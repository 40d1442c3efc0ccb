package handlers

import (
	"net/http"
	"slices"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/views"
)

// home greets the caller; people without any role see how to get one.
func (h *Handlers) home(c echo.Context) error {
	p, err := h.Page(c, "Home", "", portal.Scope{})
	if err != nil {
		return err
	}
	if len(p.Units) == 0 {
		p.Title = "Welcome"
		return h.Render(c, http.StatusOK, p, views.NotOnboarded(p))
	}
	p.Title = "Welcome, " + p.User.Name
	// Keys about to expire are worth a line on the home page; the page
	// does without it when the database cannot say.
	notices, err := h.APIKeys.Notices(c.Request().Context(), 7*24*time.Hour)
	if err != nil {
		h.Log.WarnContext(c.Request().Context(), "expiring API keys could not be counted for the home page", "error", err)
	}
	// So do the change requests waiting for the caller's review.
	waiting, err := h.Requests.Waiting(c.Request().Context())
	if err != nil {
		h.Log.WarnContext(c.Request().Context(), "change requests waiting for review could not be read for the home page", "error", err)
	}
	grants, err := h.Grants.WaitingGrants(c.Request().Context())
	if err != nil {
		h.Log.WarnContext(c.Request().Context(), "access requests waiting for review could not be read for the home page", "error", err)
	}
	// And the units' alerts firing now.
	firing, err := h.Alerts.Firing(c.Request().Context())
	if err != nil {
		h.Log.WarnContext(c.Request().Context(), "firing alerts could not be read for the home page", "error", err)
	}
	// And the grants of the caller's units that end soon.
	expiring, err := h.Grants.ExpiringGrants(c.Request().Context())
	if err != nil {
		h.Log.WarnContext(c.Request().Context(), "expiring grants could not be read for the home page", "error", err)
	}
	return h.Render(c, http.StatusOK, p, views.Home(p, notices, waiting, grants, firing, expiring))
}

// switchContext is the context selector without JavaScript: it redirects
// to the chosen context's page of the same resource type.
func (h *Handlers) switchContext(c echo.Context) error {
	resource := c.QueryParam("resource")
	if !slices.ContainsFunc(views.Resources(), func(r views.NavItem) bool { return r.ID == resource }) {
		resource = "topics"
	}
	scope, err := portal.ParseScope(c.QueryParam("bu"), c.QueryParam("stage"))
	if err != nil {
		return err
	}
	if _, err := h.Me.Layout(c.Request().Context(), scope); err != nil {
		return err
	}
	ctx := views.Context{Outlook: portal.Outlook{BU: scope.BU, Stage: scope.Stage}}
	return c.Redirect(http.StatusSeeOther, ctx.Path(resource))
}
