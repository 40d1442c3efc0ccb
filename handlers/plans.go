package handlers

import (
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/document"
	"github.com/edh-platform/rms-portal/internal/httpserver"
)

// exportDocument downloads the unit's resources in a stage as a
// desired-state document (YAML), to start a GitOps repository from or to
// plan in another stage with portalctl.
func (h *Handlers) exportDocument(c echo.Context) error {
	scope := httpserver.ScopeOf(c)
	doc, err := h.Plans.Export(c.Request().Context(), scope)
	if err != nil {
		return err
	}
	b, err := document.YAML(doc)
	if err != nil {
		return err
	}
	// The service knew bu and stage, so they are plain identifiers.
	c.Response().Header().Set(echo.HeaderContentDisposition, fmt.Sprintf(`attachment; filename="%s-%s.yaml"`, scope.BU, scope.Stage))
	return c.Blob(http.StatusOK, "application/yaml", b)
}
