package api

import (
	"net/http"

	"github.com/edh-platform/rms-portal/internal/portal/topiccatalog"
	"github.com/edh-platform/rms-portal/internal/wire"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/api/present"
	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// listCatalog searches the zone's topics (?search=, ?tag=,
// ?classification=, ?owner=, ?field=).
func (a *API) listCatalog(c echo.Context) error {
	lq, err := listQuery(c)
	if err != nil {
		return err
	}
	q := topiccatalog.CatalogQuery{ListQuery: lq, Tag: c.QueryParam("tag"), Classification: c.QueryParam("classification"), Owner: c.QueryParam("owner"),
		Field: c.QueryParam("field")}
	page, err := a.Catalog.Catalog(c.Request().Context(), httpserver.ScopeOf(c), q)
	if err != nil {
		return err
	}
	out := wire.List[wire.CatalogEntry]{Items: make([]wire.CatalogEntry, len(page.Items)), NextPageToken: page.NextPageToken, TotalSize: page.Total}
	for i, e := range page.Items {
		out.Items[i] = present.CatalogEntry(e)
	}
	return c.JSON(http.StatusOK, out)
}

func (a *API) getCatalogEntry(c echo.Context) error {
	e, err := a.Catalog.Entry(c.Request().Context(), httpserver.ScopeOf(c), c.Param("name"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, present.CatalogEntry(e))
}

// describeTopic replaces what the owner says about its topic.
func (a *API) describeTopic(c echo.Context) error {
	var in wire.TopicMetadata
	if err := decode(c, &in); err != nil {
		return err
	}
	e, err := a.Catalog.Describe(c.Request().Context(), httpserver.ScopeOf(c), c.Param("name"), portal.TopicMetadata(in))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, present.CatalogEntry(e))
}

// listClassifications are the platform's data classifications.
func (a *API) listClassifications(c echo.Context) error {
	out := []wire.Classification{}
	for _, k := range a.Catalog.Classifications() {
		out = append(out, wire.Classification{Name: k.Name, MaxGrant: topiccatalog.FormatDuration(k.MaxGrant), Write: k.Write, Approvals: k.Approvals, Default: k.Default})
	}
	return listOf(c, out)
}
