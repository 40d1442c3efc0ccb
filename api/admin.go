package api

import (
	"net/http"

	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/wire"

	"github.com/labstack/echo/v4"
	"go.yaml.in/yaml/v3"

	"github.com/edh-platform/rms-portal/api/present"
	"github.com/edh-platform/rms-portal/internal/auditfile"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// adminAuditQuery reads the filters of the cross-unit trail.
func adminAuditQuery(c echo.Context) (trail.AuditQuery, error) {
	q, err := auditQuery(c)
	q.LandingZone, q.BU, q.Stage = c.QueryParam("landing_zone"), c.QueryParam("business_unit"), c.QueryParam("stage")
	return q, err
}

func (a *API) adminAudit(c echo.Context) error {
	q, err := adminAuditQuery(c)
	if err != nil {
		return err
	}
	page, err := a.Admin.Audit(c.Request().Context(), q)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, present.AuditPage(page))
}

// exportAudit streams the filtered trail as CSV or JSON (an array),
// newest first.
func (a *API) exportAudit(c echo.Context) error {
	q, err := adminAuditQuery(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	started, err := auditfile.Audit(c.Response(), c.QueryParam("format"), func(emit func(trail.AuditEvent) error) error {
		return a.Admin.ExportAudit(ctx, q, emit)
	})
	if err != nil && started {
		// The status is sent; the log and a cut-short body tell the rest.
		a.log.ErrorContext(ctx, "audit export cut short", "error", err)
		return nil
	}
	return err
}

func (a *API) adminUpstreams(c echo.Context) error {
	list, err := a.Admin.Upstreams(c.Request().Context())
	if err != nil {
		return err
	}
	out := make([]wire.Upstream, len(list))
	for i, u := range list {
		out[i] = wire.Upstream{Kind: u.Kind, Name: u.Name, LandingZone: u.LandingZone, State: u.State, Circuit: u.Circuit,
			Since: present.Stamp(u.Since), LatencyMS: u.LatencyMS, LastError: u.LastError, LastErrorAt: present.Stamp(u.LastErrAt),
			LastOK: present.Stamp(u.LastOK), Calls: u.Calls}
	}
	return listOf(c, out)
}

func (a *API) adminConfig(c echo.Context) error {
	cfg, err := a.Admin.Config(c.Request().Context())
	if err != nil {
		return err
	}
	var v wire.AdminConfig
	if err := yaml.Unmarshal([]byte(cfg.YAML), &v); err != nil {
		return err
	}
	if len(cfg.Ignored) > 0 {
		v["ignored_keys"] = cfg.Ignored
	}
	return c.JSON(http.StatusOK, v)
}

func (a *API) adminSessions(c echo.Context) error {
	list, err := a.Admin.Sessions(c.Request().Context(), c.QueryParam("user"))
	if err != nil {
		return err
	}
	out := make([]wire.Session, len(list))
	for i, s := range list {
		out[i] = wire.Session{ID: s.ID, Subject: s.Subject, Username: s.Username, UserAgent: s.UserAgent, IP: s.IP,
			Created: present.Stamp(s.Created), LastSeen: present.Stamp(s.LastSeen), Expires: present.Stamp(s.Expires)}
	}
	return listOf(c, out)
}

func (a *API) endSession(c echo.Context) error {
	if err := a.Admin.EndSession(c.Request().Context(), c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (a *API) previewAccess(c echo.Context) error {
	var in wire.AccessPreview
	if err := decode(c, &in); err != nil {
		return err
	}
	r, err := a.Admin.PreviewAccess(c.Request().Context(), portal.AccessQuery{Groups: in.Groups, Claims: in.Claims})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, present.AccessReport(r))
}
