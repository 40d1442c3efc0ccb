package api

import (
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/api/present"
	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
)

// auditQuery reads the filters of an audit list.
func auditQuery(c echo.Context) (trail.AuditQuery, error) {
	var v portal.Validation
	q := trail.AuditQuery{Actor: c.QueryParam("actor"), Action: c.QueryParam("action"), Resource: c.QueryParam("resource"),
		Outcome: c.QueryParam("outcome"), PageToken: c.QueryParam("page_token")}
	for _, p := range []struct {
		name string
		into *time.Time
	}{{"since", &q.Since}, {"until", &q.Until}} {
		if s := c.QueryParam(p.name); s != "" {
			t, err := time.Parse(time.RFC3339, s)
			if err != nil {
				v.Add(portal.Invalid(p.name, "%s must be a time in RFC 3339, such as 2026-11-22T10:00:00Z, not %q", p.name, s))
			}
			*p.into = t
		}
	}
	if s := c.QueryParam("page_size"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			v.Add(portal.Invalid("page_size", "must be a whole number between 1 and %d, not %q", portal.MaxPageSize, s))
		}
		q.PageSize = n
	}
	return q, v.Err()
}

func (a *API) listAudit(c echo.Context) error {
	q, err := auditQuery(c)
	if err != nil {
		return err
	}
	page, err := a.Audit.List(c.Request().Context(), httpserver.ScopeOf(c), q)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, present.AuditPage(page))
}
