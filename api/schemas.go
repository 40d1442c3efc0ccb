package api

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
)

type schemaItemJSON struct {
	Subject    string `json:"subject"`
	Version    int    `json:"version"`
	ID         int    `json:"id"`
	SchemaType string `json:"schema_type"`
}

type referenceJSON struct {
	Name    string `json:"name"`
	Subject string `json:"subject"`
	Version int    `json:"version"`
}

type schemaJSON struct {
	schemaItemJSON
	Schema     string          `json:"schema"`
	References []referenceJSON `json:"references"`
}

func schemaItemOut(v portal.SchemaVersion) schemaItemJSON {
	return schemaItemJSON{Subject: v.Subject, Version: v.Version, ID: v.ID, SchemaType: v.Type}
}

func schemaOut(v portal.SchemaVersion) schemaJSON {
	out := schemaJSON{schemaItemJSON: schemaItemOut(v), Schema: v.Schema, References: []referenceJSON{}}
	for _, r := range v.References {
		out.References = append(out.References, referenceJSON(r))
	}
	return out
}

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
	out := listResponse[schemaItemJSON]{Items: make([]schemaItemJSON, len(page.Items)), NextPageToken: page.NextPageToken, TotalSize: page.Total}
	for i, v := range page.Items {
		out.Items[i] = schemaItemOut(v)
	}
	return c.JSON(http.StatusOK, out)
}

func (a *API) getSchema(c echo.Context) error {
	v, err := a.Schemas.Get(c.Request().Context(), httpserver.ScopeOf(c), c.Param("subject"), c.Param("version"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, schemaOut(v))
}

func (a *API) schemaVersions(c echo.Context) error {
	vs, err := a.Schemas.Versions(c.Request().Context(), httpserver.ScopeOf(c), c.Param("subject"))
	if err != nil {
		return err
	}
	out := listResponse[schemaJSON]{Items: []schemaJSON{}, TotalSize: len(vs)}
	for _, v := range vs {
		out.Items = append(out.Items, schemaOut(v))
	}
	return c.JSON(http.StatusOK, out)
}

type schemaDefRequest struct {
	SchemaType string          `json:"schema_type"`
	Schema     string          `json:"schema"`
	References []referenceJSON `json:"references"`
}

func (r schemaDefRequest) def() portal.SchemaDef {
	d := portal.SchemaDef{SchemaType: r.SchemaType, Schema: r.Schema}
	for _, ref := range r.References {
		d.References = append(d.References, portal.SchemaReference(ref))
	}
	return d
}

type createSchemaRequest struct {
	Topic       string `json:"topic"`
	SubjectType string `json:"subject_type"`
	schemaDefRequest
}

func (a *API) createSchema(c echo.Context) error {
	var in createSchemaRequest
	if err := decode(c, &in); err != nil {
		return err
	}
	scope := httpserver.ScopeOf(c)
	v, err := a.Schemas.Create(c.Request().Context(), scope, portal.NewSchema{Topic: in.Topic, SubjectType: in.SubjectType, SchemaDef: in.def()})
	if err != nil {
		return err
	}
	location(c, scope, "schema", v.Subject, strconv.Itoa(v.Version))
	return c.JSON(http.StatusCreated, schemaOut(v))
}

func (a *API) updateSchema(c echo.Context) error {
	var in schemaDefRequest
	if err := decode(c, &in); err != nil {
		return err
	}
	v, err := a.Schemas.Update(c.Request().Context(), httpserver.ScopeOf(c), c.Param("subject"), in.def())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, schemaOut(v))
}

func (a *API) checkSchema(c echo.Context) error {
	var in schemaDefRequest
	if err := decode(c, &in); err != nil {
		return err
	}
	res, err := a.Schemas.Check(c.Request().Context(), httpserver.ScopeOf(c), c.Param("subject"), in.def())
	if err != nil {
		return err
	}
	msgs := res.Messages
	if msgs == nil {
		msgs = []string{}
	}
	return c.JSON(http.StatusOK, map[string]any{"compatible": res.Compatible, "messages": msgs, "compatibility_level": res.Level})
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
