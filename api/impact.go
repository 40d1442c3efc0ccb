package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/api/present"
	"github.com/edh-platform/rms-portal/internal/httpserver"
)

// subjectImpact lists what depends on a subject.
func (a *API) subjectImpact(c echo.Context) error {
	im, err := a.Schemas.Impact(c.Request().Context(), httpserver.ScopeOf(c), c.Param("subject"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, present.Impact(im))
}

// connectorImpact lists what depends on a connector.
func (a *API) connectorImpact(c echo.Context) error {
	im, err := a.Connectors.Impact(c.Request().Context(), httpserver.ScopeOf(c), c.Param("name"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, present.Impact(im))
}
