package api

import (
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/api/present"
	"github.com/edh-platform/rms-portal/internal/document"
	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/ascode"
)

// mimeYAML is the media type of YAML documents.
const mimeYAML = "application/yaml"

// readDocument reads a desired-state document sent as JSON or YAML;
// prune=true in the query prunes too (YAML streams have no place for it).
func readDocument(c echo.Context) (ascode.Document, error) {
	switch ct := mediaType(c.Request()); {
	case isJSON(ct), ct == mimeYAML, ct == "application/x-yaml", ct == "text/yaml":
	default:
		return ascode.Document{}, echo.NewHTTPError(http.StatusUnsupportedMediaType,
			"send the document as application/json or application/yaml, not "+quoteOrNone(ct))
	}
	body, err := readBody(c)
	if err != nil {
		return ascode.Document{}, err
	}
	doc, err := document.Read(body)
	if err != nil {
		return ascode.Document{}, err
	}
	prune, err := boolParam(c, "prune")
	if err != nil {
		return ascode.Document{}, err
	}
	doc.Prune = doc.Prune || prune
	force, err := boolParam(c, "force")
	if err != nil {
		return ascode.Document{}, err
	}
	doc.Force = doc.Force || force
	if doc.SkipForbidden, err = boolParam(c, "skip_forbidden"); err != nil {
		return ascode.Document{}, err
	}
	return doc, nil
}

func (a *API) planResources(c echo.Context) error {
	doc, err := readDocument(c)
	if err != nil {
		return err
	}
	plan, err := a.Plans.Plan(c.Request().Context(), httpserver.ScopeOf(c), doc)
	if err != nil {
		return err
	}
	c.Response().Header().Set("ETag", `"`+plan.Fingerprint+`"`)
	return c.JSON(http.StatusOK, present.Plan(plan))
}

// applyPatience is how long an apply's answer may take: the changes'
// budget and the plan before them.
const applyPatience = 11 * time.Minute

func (a *API) applyResources(c echo.Context) error {
	doc, err := readDocument(c)
	if err != nil {
		return err
	}
	httpserver.ExtendWriteDeadline(c.Response(), applyPatience)
	plan, err := a.Plans.Apply(c.Request().Context(), httpserver.ScopeOf(c), doc, c.Request().Header.Get("If-Match"))
	if err != nil {
		return err
	}
	// It may carry the secrets of keys it made.
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, present.Plan(plan))
}

func (a *API) exportResources(c echo.Context) error {
	doc, err := a.Plans.Export(c.Request().Context(), httpserver.ScopeOf(c))
	if err != nil {
		return err
	}
	format := c.QueryParam("format")
	if format == "" && strings.Contains(c.Request().Header.Get(echo.HeaderAccept), "yaml") {
		format = "yaml"
	}
	switch format {
	case "yaml":
		b, err := document.YAML(doc)
		if err != nil {
			return err
		}
		return c.Blob(http.StatusOK, mimeYAML, b)
	case "", "json":
		b, err := document.JSON(doc, false)
		if err != nil {
			return err
		}
		return c.JSONBlob(http.StatusOK, b)
	}
	return portal.Invalid("format", "format must be json or yaml, not %q", format)
}
