package api

import (
	"net/http"
	"time"

	"github.com/edh-platform/rms-portal/internal/wire"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
)

func autoRestartOut(a *portal.AutoRestart) wire.AutoRestart {
	if a == nil {
		return wire.AutoRestart{}
	}
	return wire.AutoRestart{Enabled: true, MaxRestarts: a.MaxRestarts, Attempts: a.Attempts, GivenUp: a.GivenUp, LastAt: timeOrNil(a.LastAt),
		NextAt: timeOrNil(a.NextAt), GivesUpAt: timeOrNil(a.GivesUpAt), SetBy: a.SetBy, SetAt: timeOrNil(a.SetAt)}
}

// timeOrNil is a time in RFC 3339, or nothing for none.
func timeOrNil(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := stamp(t)
	return &s
}

func (a *API) setAutoRestart(c echo.Context) error {
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
	return c.JSON(http.StatusOK, autoRestartOut(ar))
}

func (a *API) restartHistory(c echo.Context) error {
	rs, err := a.Connectors.RestartHistory(c.Request().Context(), httpserver.ScopeOf(c), c.Param("name"))
	if err != nil {
		return err
	}
	out := make([]wire.Restart, len(rs))
	for i, r := range rs {
		out[i] = wire.Restart{At: stamp(r.At), Action: r.Action.String(), Outcome: r.Outcome, Detail: r.Detail}
	}
	return listOf(c, out)
}
