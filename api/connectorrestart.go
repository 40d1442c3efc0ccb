package api

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// autoRestartJSON is a connector's auto-restart: off, or on with its
// limit and where its backoff stands.
type autoRestartJSON struct {
	Enabled     bool    `json:"enabled"`
	MaxRestarts int     `json:"max_restarts"`
	Attempts    int     `json:"attempts"`
	GivenUp     bool    `json:"given_up"`
	LastAt      *string `json:"last_restart_at,omitempty"`
	NextAt      *string `json:"next_restart_at,omitempty"`
	SetBy       string  `json:"set_by,omitempty"`
	SetAt       *string `json:"set_at,omitempty"`
}

func autoRestartOut(a *portal.AutoRestart) autoRestartJSON {
	if a == nil {
		return autoRestartJSON{}
	}
	return autoRestartJSON{Enabled: true, MaxRestarts: a.MaxRestarts, Attempts: a.Attempts, GivenUp: a.GivenUp, LastAt: timeOrNil(a.LastAt),
		NextAt: timeOrNil(a.NextAt), SetBy: a.SetBy, SetAt: timeOrNil(a.SetAt)}
}

// timeOrNil is a time in RFC 3339, or nothing for none.
func timeOrNil(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := stamp(t)
	return &s
}

// autoRestartRequest turns a connector's auto-restart on or off.
type autoRestartRequest struct {
	Enabled     *bool `json:"enabled"`
	MaxRestarts int   `json:"max_restarts"`
}

func (a *API) setAutoRestart(c echo.Context) error {
	var in autoRestartRequest
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

// restartJSON is one of the portal's restarts of a connector.
type restartJSON struct {
	At      string `json:"at"`
	Action  string `json:"action"`
	Outcome string `json:"outcome"`
	Detail  string `json:"detail"`
}

func (a *API) restartHistory(c echo.Context) error {
	rs, err := a.Connectors.RestartHistory(c.Request().Context(), httpserver.ScopeOf(c), c.Param("name"))
	if err != nil {
		return err
	}
	out := struct {
		Items []restartJSON `json:"items"`
	}{Items: make([]restartJSON, len(rs))}
	for i, r := range rs {
		out.Items[i] = restartJSON{At: stamp(r.At), Action: r.Action, Outcome: r.Outcome, Detail: r.Detail}
	}
	return c.JSON(http.StatusOK, out)
}
