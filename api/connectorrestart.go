package api

import (
	"net/http"

	"github.com/edh-platform/rms-portal/internal/wire"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/api/present"
	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
)

func (a *API) setConnectorAutoRestart(c echo.Context) error {
	var in wire.AutoRestartUpdate
	if err := decode(c, &in); err != nil {
		return err
	}
	if in.Enabled == nil {
		return portal.Invalid("enabled", "say whether auto-restart is on: true or false")
	}
	ar, err := a.Connectors.SetAutoRestart(c.Request().Context(), httpserver.ScopeOf(c), c.Param("name"),
		portal.AutoRestartSpec{Enabled: *in.Enabled, MaxRestarts: in.MaxRestarts})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, present.AutoRestart(ar))
}

func (a *API) listConnectorRestarts(c echo.Context) error {
	rs, err := a.Connectors.RestartHistory(c.Request().Context(), httpserver.ScopeOf(c), c.Param("name"))
	if err != nil {
		return err
	}
	out := make([]wire.Restart, len(rs))
	for i, r := range rs {
		out[i] = wire.Restart{At: present.Stamp(r.At), Action: r.Action.String(), Outcome: r.Outcome, Detail: r.Detail}
	}
	return listOf(c, out)
}
