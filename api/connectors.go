package api

import (
	"net/http"

	"github.com/edh-platform/rms-portal/internal/portal/connect"
	"github.com/edh-platform/rms-portal/internal/wire"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/api/present"
	"github.com/edh-platform/rms-portal/internal/httpserver"
)

func (a *API) listConnectors(c echo.Context) error {
	q, err := listQuery(c)
	if err != nil {
		return err
	}
	page, err := a.Connectors.List(c.Request().Context(), httpserver.ScopeOf(c), q)
	if err != nil {
		return err
	}
	out := wire.List[wire.Connector]{Items: make([]wire.Connector, len(page.Items)), NextPageToken: page.NextPageToken, TotalSize: page.Total}
	for i, x := range page.Items {
		out.Items[i] = present.Connector(x)
	}
	return c.JSON(http.StatusOK, out)
}

func (a *API) listConnectorPlugins(c echo.Context) error {
	ps, err := a.Connectors.Plugins(c.Request().Context(), httpserver.ScopeOf(c))
	if err != nil {
		return err
	}
	out := wire.List[wire.ConnectorPlugin]{Items: []wire.ConnectorPlugin{}, TotalSize: len(ps)}
	for _, p := range ps {
		out.Items = append(out.Items, wire.ConnectorPlugin{Class: p.Class, Type: p.Type})
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
	return c.JSON(http.StatusOK, present.Connector(x))
}

func (a *API) createConnector(c echo.Context) error {
	var in wire.ConnectorCreate
	if err := decode(c, &in); err != nil {
		return err
	}
	scope := httpserver.ScopeOf(c)
	x, err := a.Connectors.Create(c.Request().Context(), scope, connect.NewConnector{Name: in.Name, Config: in.Config})
	if err != nil {
		return err
	}
	location(c, scope, "connector", x.Name)
	return c.JSON(http.StatusCreated, present.Connector(x))
}

func (a *API) updateConnector(c echo.Context) error {
	var in wire.ConnectorUpdate
	if err := decode(c, &in); err != nil {
		return err
	}
	x, err := a.Connectors.Update(c.Request().Context(), httpserver.ScopeOf(c), c.Param("name"), in.Config, ifMatch(c))
	if err != nil {
		return err
	}
	etag(c, x.Version)
	return c.JSON(http.StatusOK, present.Connector(x))
}

func (a *API) deleteConnector(c echo.Context) error {
	if err := a.Connectors.Delete(c.Request().Context(), httpserver.ScopeOf(c), c.Param("name"), ifMatch(c)); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// accepted answers a lifecycle request: it is asynchronous upstream.
func accepted(c echo.Context, action string) error {
	return c.JSON(http.StatusAccepted, wire.ConnectorAction{Name: c.Param("name"), Action: action, Status: "accepted"})
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
