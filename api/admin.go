package api

import (
	"net/http"

	"github.com/labstack/echo/v4"
	"go.yaml.in/yaml/v3"

	"github.com/edh-platform/rms-portal/internal/auditfile"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// adminAuditQuery reads the filters of the cross-unit trail.
func adminAuditQuery(c echo.Context) (portal.AuditQuery, error) {
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
	return c.JSON(http.StatusOK, auditPage(page))
}

// exportAudit streams the filtered trail as CSV or JSON (an array),
// newest first.
func (a *API) exportAudit(c echo.Context) error {
	q, err := adminAuditQuery(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	started, err := auditfile.Audit(c.Response(), c.QueryParam("format"), func(emit func(portal.AuditEvent) error) error {
		return a.Admin.ExportAudit(ctx, q, emit)
	})
	if err != nil && started {
		// The status is sent; the log and a cut-short body tell the rest.
		a.log.ErrorContext(ctx, "audit export cut short", "error", err)
		return nil
	}
	return err
}

type upstreamJSON struct {
	Kind        string  `json:"kind"`
	Name        string  `json:"name"`
	LandingZone string  `json:"landing_zone,omitempty"`
	State       string  `json:"state"`
	Circuit     string  `json:"circuit"`
	Since       string  `json:"since"`
	LatencyMS   float64 `json:"latency_ms"`
	LastError   string  `json:"last_error,omitempty"`
	LastErrorAt string  `json:"last_error_at,omitempty"`
	LastOK      string  `json:"last_ok,omitempty"`
	Calls       int64   `json:"calls"`
}

func (a *API) adminUpstreams(c echo.Context) error {
	list, err := a.Admin.Upstreams(c.Request().Context())
	if err != nil {
		return err
	}
	out := make([]upstreamJSON, len(list))
	for i, u := range list {
		out[i] = upstreamJSON{Kind: u.Kind, Name: u.Name, LandingZone: u.LandingZone, State: u.State, Circuit: u.Circuit,
			Since: stamp(u.Since), LatencyMS: u.LatencyMS, LastError: u.LastError, LastErrorAt: stamp(u.LastErrAt),
			LastOK: stamp(u.LastOK), Calls: u.Calls}
	}
	return c.JSON(http.StatusOK, map[string]any{"items": out})
}

func (a *API) adminConfig(c echo.Context) error {
	cfg, err := a.Admin.Config(c.Request().Context())
	if err != nil {
		return err
	}
	var v map[string]any
	if err := yaml.Unmarshal([]byte(cfg.YAML), &v); err != nil {
		return err
	}
	if len(cfg.Ignored) > 0 {
		v["ignored_keys"] = cfg.Ignored
	}
	return c.JSON(http.StatusOK, v)
}

type sessionJSON struct {
	ID        string `json:"id"`
	Subject   string `json:"subject"`
	Username  string `json:"username"`
	UserAgent string `json:"user_agent"`
	IP        string `json:"ip"`
	Created   string `json:"created"`
	LastSeen  string `json:"last_seen"`
	Expires   string `json:"expires"`
}

func (a *API) adminSessions(c echo.Context) error {
	list, err := a.Admin.Sessions(c.Request().Context(), c.QueryParam("user"))
	if err != nil {
		return err
	}
	out := make([]sessionJSON, len(list))
	for i, s := range list {
		out[i] = sessionJSON{ID: s.ID, Subject: s.Subject, Username: s.Username, UserAgent: s.UserAgent, IP: s.IP,
			Created: stamp(s.Created), LastSeen: stamp(s.LastSeen), Expires: stamp(s.Expires)}
	}
	return c.JSON(http.StatusOK, map[string]any{"items": out})
}

func (a *API) endSession(c echo.Context) error {
	if err := a.Admin.EndSession(c.Request().Context(), c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

type accessJSON struct {
	PlatformAdmin bool              `json:"platform_admin"`
	Groups        []string          `json:"groups"`
	Units         []unitAccessJSON  `json:"business_units"`
	Unmatched     []string          `json:"unmatched_groups"`
	Overage       bool              `json:"groups_overage"`
	Explanation   string            `json:"explanation"`
	Grants        []grantAccessJSON `json:"grants"`
}

// grantAccessJSON is access a unit holds through a grant, explained.
type grantAccessJSON struct {
	Unit      string `json:"business_unit"`
	Stage     string `json:"stage"`
	Grant     string `json:"grant"`
	Access    string `json:"access"`
	Topic     string `json:"topic"`
	Principal string `json:"principal"`
	Expires   string `json:"expires_at,omitempty"`
	Line      string `json:"explanation"`
}

func grantAccessOut(gs []portal.GrantAccess) []grantAccessJSON {
	out := []grantAccessJSON{}
	for _, g := range gs {
		out = append(out, grantAccessJSON{Unit: g.Unit, Stage: g.Stage, Grant: g.Grant, Access: g.Access, Topic: g.Topic, Principal: g.Principal,
			Expires: stamp(g.Expires), Line: g.Line})
	}
	return out
}

type unitAccessJSON struct {
	ID          string   `json:"id"`
	LandingZone string   `json:"landing_zone"`
	Role        string   `json:"role"`
	Groups      []string `json:"groups"`
}

func accessOut(r portal.AccessReport) accessJSON {
	out := accessJSON{PlatformAdmin: r.PlatformAdmin, Groups: r.Groups, Units: []unitAccessJSON{}, Unmatched: r.Unmatched,
		Overage: r.Overage, Explanation: r.Explanation, Grants: grantAccessOut(r.Grants)}
	for _, u := range r.Units {
		out.Units = append(out.Units, unitAccessJSON{ID: u.Unit, LandingZone: u.LandingZone, Role: u.Role.String(), Groups: u.Groups})
	}
	return out
}

func (a *API) previewAccess(c echo.Context) error {
	var in struct {
		Groups []string       `json:"groups"`
		Claims map[string]any `json:"claims"`
	}
	if err := decode(c, &in); err != nil {
		return err
	}
	r, err := a.Admin.PreviewAccess(c.Request().Context(), portal.AccessQuery{Groups: in.Groups, Claims: in.Claims})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, accessOut(r))
}
