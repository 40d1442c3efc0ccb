package api

import (
	"encoding/json"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
)

type connectorJSON struct {
	Name              string            `json:"name"`
	Identifier        string            `json:"identifier"`
	BusinessUnit      string            `json:"business_unit,omitempty"`
	OutsideConvention bool              `json:"outside_convention"`
	ID                string            `json:"id,omitempty"`
	Type              string            `json:"type,omitempty"`
	Class             string            `json:"class"`
	State             string            `json:"state"`
	Trace             string            `json:"trace,omitempty"`
	Tasks             []taskJSON        `json:"tasks"`
	Config            map[string]string `json:"config,omitempty"`
	Sensitive         []string          `json:"sensitive,omitempty"`
	AutoRestart       autoRestartJSON   `json:"auto_restart"`
}

type taskJSON struct {
	ID    int    `json:"id"`
	State string `json:"state"`
	Trace string `json:"trace,omitempty"`
}

func connectorOut(c portal.Connector) connectorJSON {
	out := connectorJSON{Name: c.Name, Identifier: c.Identifier, BusinessUnit: c.BU, OutsideConvention: c.OutsideConvention,
		ID: c.ID, Type: c.Type, Class: c.Class, State: c.State, Trace: c.Trace, Tasks: []taskJSON{}, Config: c.Config, Sensitive: c.Sensitive,
		AutoRestart: autoRestartOut(c.AutoRestart)}
	for _, t := range c.Tasks {
		out.Tasks = append(out.Tasks, taskJSON{ID: t.ID, State: t.State, Trace: t.Trace})
	}
	return out
}

func (a *API) listConnectors(c echo.Context) error {
	q, err := listQuery(c)
	if err != nil {
		return err
	}
	page, err := a.Connectors.List(c.Request().Context(), httpserver.ScopeOf(c), q)
	if err != nil {
		return err
	}
	out := listResponse[connectorJSON]{Items: make([]connectorJSON, len(page.Items)), NextPageToken: page.NextPageToken, TotalSize: page.Total}
	for i, x := range page.Items {
		out.Items[i] = connectorOut(x)
	}
	return c.JSON(http.StatusOK, out)
}

func (a *API) listConnectorPlugins(c echo.Context) error {
	ps, err := a.Connectors.Plugins(c.Request().Context(), httpserver.ScopeOf(c))
	if err != nil {
		return err
	}
	type pluginJSON struct {
		Class string `json:"class"`
		Type  string `json:"type"`
	}
	out := listResponse[pluginJSON]{Items: []pluginJSON{}, TotalSize: len(ps)}
	for _, p := range ps {
		out.Items = append(out.Items, pluginJSON{Class: p.Class, Type: p.Type})
	}
	return c.JSON(http.StatusOK, out)
}

func (a *API) getConnector(c echo.Context) error {
	show, err := boolParam(c, "show_config")
	if err != nil {
		return err
	}
	x, err := a.Connectors.Get(c.Request().Context(), httpserver.ScopeOf(c), c.Param("name"), show)
	if err != nil {
		return err
	}
	etag(c, x.Version)
	return c.JSON(http.StatusOK, connectorOut(x))
}

type connectorRequest struct {
	Name   string            `json:"name"`
	Config map[string]string `json:"config"`
}

func (a *API) createConnector(c echo.Context) error {
	var in connectorRequest
	if err := decode(c, &in); err != nil {
		return err
	}
	scope := httpserver.ScopeOf(c)
	x, err := a.Connectors.Create(c.Request().Context(), scope, portal.NewConnector{Name: in.Name, Config: in.Config})
	if err != nil {
		return err
	}
	location(c, scope, "connector", x.Name)
	return c.JSON(http.StatusCreated, connectorOut(x))
}

// updateRequest carries the new configuration; fields a GET returns are
// accepted and ignored, so a GET response can be edited and sent back.
type updateConnectorRequest struct {
	Config map[string]string `json:"config"`

	Name              json.RawMessage `json:"name"`
	Identifier        json.RawMessage `json:"identifier"`
	BusinessUnit      json.RawMessage `json:"business_unit"`
	OutsideConvention json.RawMessage `json:"outside_convention"`
	ID                json.RawMessage `json:"id"`
	Type              json.RawMessage `json:"type"`
	Class             json.RawMessage `json:"class"`
	State             json.RawMessage `json:"state"`
	Trace             json.RawMessage `json:"trace"`
	Tasks             json.RawMessage `json:"tasks"`
	Sensitive         json.RawMessage `json:"sensitive"`
	// AutoRestart has its own request (PUT .../auto-restart).
	AutoRestart json.RawMessage `json:"auto_restart"`
}

func (a *API) updateConnector(c echo.Context) error {
	var in updateConnectorRequest
	if err := decode(c, &in); err != nil {
		return err
	}
	x, err := a.Connectors.Update(c.Request().Context(), httpserver.ScopeOf(c), c.Param("name"), in.Config, ifMatch(c))
	if err != nil {
		return err
	}
	etag(c, x.Version)
	return c.JSON(http.StatusOK, connectorOut(x))
}

func (a *API) deleteConnector(c echo.Context) error {
	if err := a.Connectors.Delete(c.Request().Context(), httpserver.ScopeOf(c), c.Param("name"), ifMatch(c)); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// accepted answers a lifecycle request: it is asynchronous upstream.
func accepted(c echo.Context, action string) error {
	return c.JSON(http.StatusAccepted, map[string]string{"name": c.Param("name"), "action": action, "status": "accepted"})
}

func (a *API) pauseConnector(c echo.Context) error {
	if err := a.Connectors.Pause(c.Request().Context(), httpserver.ScopeOf(c), c.Param("name")); err != nil {
		return err
	}
	return accepted(c, "pause")
}

func (a *API) resumeConnector(c echo.Context) error {
	if err := a.Connectors.Resume(c.Request().Context(), httpserver.ScopeOf(c), c.Param("name")); err != nil {
		return err
	}
	return accepted(c, "resume")
}

func (a *API) restartConnector(c echo.Context) error {
	onlyFailed, err := boolParam(c, "only_failed")
	if err != nil {
		return err
	}
	if err := a.Connectors.Restart(c.Request().Context(), httpserver.ScopeOf(c), c.Param("name"), onlyFailed); err != nil {
		return err
	}
	return accepted(c, "restart")
}
