package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
)

type dependantJSON struct {
	Kind   string `json:"kind"`
	Name   string `json:"name"`
	Unit   string `json:"unit"`
	Detail string `json:"detail"`
	Live   bool   `json:"live"`
}

type impactJSON struct {
	Kind       string          `json:"kind"`
	Name       string          `json:"name"`
	Live       int             `json:"live"`
	Dependants []dependantJSON `json:"dependants"`
}

func impactOut(im portal.Impact) impactJSON {
	out := impactJSON{Kind: im.Kind, Name: im.Name, Live: len(im.Live()), Dependants: []dependantJSON{}}
	for _, d := range im.Dependants {
		out.Dependants = append(out.Dependants, dependantJSON{Kind: d.Kind, Name: d.Name, Unit: d.Unit, Detail: d.Detail, Live: d.Live})
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
