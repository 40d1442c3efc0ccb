package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/httpserver"
)

type findHitJSON struct {
	Kind  string `json:"kind"`
	Key   string `json:"key"`
	Label string `json:"label"`
}

type findJSON struct {
	Items       []findHitJSON `json:"items"`
	Unavailable []string      `json:"unavailable"`
}

// search finds the unit's resources named like q, a few of each kind.
func (a *API) search(c echo.Context) error {
	r, err := a.Find.Find(c.Request().Context(), httpserver.ScopeOf(c), c.QueryParam("q"))
	if err != nil {
		return err
	}
	out := findJSON{Items: []findHitJSON{}, Unavailable: r.Unavailable}
	if out.Unavailable == nil {
		out.Unavailable = []string{}
	}
	for _, h := range r.Hits {
		out.Items = append(out.Items, findHitJSON{Kind: h.Kind, Key: h.Key, Label: h.Label})
	}
	return c.JSON(http.StatusOK, out)
}
