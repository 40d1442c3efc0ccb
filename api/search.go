package api

import (
	"net/http"

	"github.com/edh-platform/rms-portal/internal/wire"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/httpserver"
)

// search finds the unit's resources named like q, a few of each kind.
func (a *API) search(c echo.Context) error {
	r, err := a.Find.Find(c.Request().Context(), httpserver.ScopeOf(c), c.QueryParam("q"))
	if err != nil {
		return err
	}
	out := wire.SearchResult{Items: []wire.SearchHit{}, Unavailable: r.Unavailable}
	if out.Unavailable == nil {
		out.Unavailable = []string{}
	}
	for _, h := range r.Hits {
		out.Items = append(out.Items, wire.SearchHit{Kind: h.Kind, Key: h.Key, Label: h.Label})
	}
	return c.JSON(http.StatusOK, out)
}
