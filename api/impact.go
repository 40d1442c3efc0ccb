package api

import (
	"net/http"

	"github.com/edh-platform/rms-portal/internal/wire"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
)

func impactOut(im portal.Impact) wire.Impact {
	out := wire.Impact{Kind: im.Kind, Name: im.Name, Live: len(im.Live()), Dependants: []wire.Dependant{}}
	for _, d := range im.Dependants {
		out.Dependants = append(out.Dependants, wire.Dependant{Kind: d.Kind, Name: d.Name, Unit: d.Unit, Detail: d.Detail, Live: d.Live})
	}
	return out
}

// subjectImpact lists what depends on a subject.
func (a *API) subjectImpact(c echo.Context) error {
	im, err := a.Schemas.Impact(c.Request().Context(), httpserver.ScopeOf(c), c.Param("subject"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, impactOut(im))
}

// connectorImpact lists what depends on a connector.
func (a *API) connectorImpact(c echo.Context) error {
	im, err := a.Connectors.Impact(c.Request().Context(), httpserver.ScopeOf(c), c.Param("name"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, impactOut(im))
}
