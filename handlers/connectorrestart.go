package handlers

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// setAutoRestart saves the connector page's auto-restart form and goes
// back to the page.
func (h *Handlers) setAutoRestart(c echo.Context) error {
	spec := portal.AutoRestartSpec{Enabled: c.FormValue("enabled") == "true"}
	if raw := strings.TrimSpace(c.FormValue("max_restarts")); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil {
			return portal.Invalid("max_restarts", "%q is not a whole number", raw)
		}
		spec.MaxRestarts = n
	}
	x, err := h.Connectors.SetAutoRestart(c.Request().Context(), httpserver.ScopeOf(c), c.Param("name"), spec)
	if err != nil {
		return err
	}
	p, err := h.Scoped(c, "connectors", "Connector")
	if err != nil {
		return err
	}
	done := "Auto-restart is off."
	switch {
	case x != nil && spec.MaxRestarts == 0:
		done = "Auto-restart is on, without limit."
	case x != nil:
		done = "Auto-restart is on, at most " + strconv.Itoa(spec.MaxRestarts) + " restarts."
	}
	h.Sessions.AddToast(c.Response(), c.Request(), toastOK(done))
	return c.Redirect(http.StatusSeeOther, p.Context.Path("connector", c.Param("name"))+"#auto-restart")
}
