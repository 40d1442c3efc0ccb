package api

import (
	"net/http"
	"strconv"

	"github.com/edh-platform/rms-portal/internal/portal/schema"
	"github.com/edh-platform/rms-portal/internal/wire"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/api/present"
	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
)

func (a *API) listSchemas(c echo.Context) error {
	q, err := listQuery(c)
	if err != nil {
		return err
	}
	latest, err := boolParam(c, "latest_only")
	if err != nil {
		return err
	}
	page, err := a.Schemas.List(c.Request().Context(), httpserver.ScopeOf(c), latest, q)
	if err != nil {
		return err
	}
	out := wire.List[wire.SchemaItem]{Items: make([]wire.SchemaItem, len(page.Items)), NextPageToken: page.NextPageToken, TotalSize: page.Total}
	for i, v := range page.Items {
		out.Items[i] = present.SchemaItem(v)
	}
	return c.JSON(http.StatusOK, out)
}

func (a *API) getSchema(c echo.Context) error {
	v, err := a.Schemas.Get(c.Request().Context(), httpserver.ScopeOf(c), c.Param("subject"), c.Param("version"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, present.Schema(v))
}

func (a *API) listSchemaVersions(c echo.Context) error {
	vs, err := a.Schemas.Versions(c.Request().Context(), httpserver.ScopeOf(c), c.Param("subject"))
	if err != nil {
		return err
	}
	out := wire.List[wire.Schema]{Items: []wire.Schema{}, TotalSize: len(vs)}
	for _, v := range vs {
		out.Items = append(out.Items, present.Schema(v))
	}
	return c.JSON(http.StatusOK, out)
}

// schemaDefIn is the schema a create, update or check asks for.
func schemaDefIn(r wire.SchemaUpdate) schema.SchemaDef {
	d := schema.SchemaDef{SchemaType: r.SchemaType, Schema: r.Schema}
	for _, ref := range r.References {
		d.References = append(d.References, portal.SchemaReference(ref))
	}
	return d
}

func (a *API) createSchema(c echo.Context) error {
	var in wire.SchemaCreate
	if err := decode(c, &in); err != nil {
		return err
	}
	scope := httpserver.ScopeOf(c)
	v, err := a.Schemas.Create(c.Request().Context(), scope, schema.NewSchema{Topic: in.Topic, SubjectType: in.SubjectType, SchemaDef: schemaDefIn(wire.SchemaUpdate{SchemaType: in.SchemaType, Schema: in.Schema, References: in.References})})
	if err != nil {
		return err
	}
	location(c, scope, "schema", v.Subject, strconv.Itoa(v.Version))
	return c.JSON(http.StatusCreated, present.Schema(v))
}

func (a *API) updateSchema(c echo.Context) error {
	var in wire.SchemaUpdate
	if err := decode(c, &in); err != nil {
		return err
	}
	v, err := a.Schemas.Update(c.Request().Context(), httpserver.ScopeOf(c), c.Param("subject"), schemaDefIn(in))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, present.Schema(v))
}

func (a *API) checkSchemaCompatibility(c echo.Context) error {
	var in wire.SchemaUpdate
	if err := decode(c, &in); err != nil {
		return err
	}
	res, err := a.Schemas.Check(c.Request().Context(), httpserver.ScopeOf(c), c.Param("subject"), schemaDefIn(in))
	if err != nil {
		return err
	}
	msgs := res.Messages
	if msgs == nil {
		msgs = []string{}
	}
	return c.JSON(http.StatusOK, wire.Compatibility{Compatible: res.Compatible, Messages: msgs, Level: res.Level})
}

func (a *API) deleteSchema(c echo.Context) error {
	permanent, err := boolParam(c, "permanent")
	if err != nil {
		return err
	}
	if err := a.Schemas.Delete(c.Request().Context(), httpserver.ScopeOf(c), c.Param("subject"), c.Param("version"), permanent); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
