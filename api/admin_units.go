package api

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/portal"
)

type groupsJSON struct {
	Admin     []string `json:"admin"`
	Developer []string `json:"developer"`
	Viewer    []string `json:"viewer"`
}

type adminStageJSON struct {
	Stage      string `json:"stage"`
	Cluster    string `json:"cluster"`
	Prefix     string `json:"prefix"`
	Topics     int    `json:"topics"`
	Connectors int    `json:"connectors"`
	Subjects   int    `json:"subjects"`
	CountError string `json:"count_error,omitempty"`
}

type adminUnitJSON struct {
	ID          string           `json:"id"`
	LandingZone string           `json:"landing_zone"`
	Dedicated   bool             `json:"dedicated"`
	Main        bool             `json:"main"`
	Source      string           `json:"source"`
	Groups      groupsJSON       `json:"groups"`
	Stages      []adminStageJSON `json:"stages"`
	CreatedBy   string           `json:"created_by,omitempty"`
	Created     string           `json:"created,omitempty"`
	UpdatedBy   string           `json:"updated_by,omitempty"`
	Updated     string           `json:"updated,omitempty"`
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

func adminUnitOut(u portal.AdminUnit) adminUnitJSON {
	out := adminUnitJSON{ID: u.ID, LandingZone: u.LandingZone, Dedicated: u.Dedicated, Main: u.Main, Source: u.Source,
		Groups:    groupsJSON{Admin: u.Groups.Admin, Developer: u.Groups.Developer, Viewer: u.Groups.Viewer},
		Stages:    []adminStageJSON{},
		CreatedBy: u.CreatedBy, Created: stamp(u.Created), UpdatedBy: u.UpdatedBy, Updated: stamp(u.Updated)}
	for _, s := range u.Stages {
		out.Stages = append(out.Stages, adminStageJSON(s))
	}
	return out
}

func (a *API) adminArea(c echo.Context) error {
	area, err := a.Admin.Area(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"platform_admin": area.Platform, "landing_zones": area.Zones})
}

func (a *API) listAdminUnits(c echo.Context) error {
	units, err := a.Admin.Units(c.Request().Context())
	if err != nil {
		return err
	}
	out := make([]adminUnitJSON, len(units))
	for i, u := range units {
		out[i] = adminUnitOut(u)
	}
	return c.JSON(http.StatusOK, map[string]any{"items": out})
}

func (a *API) getAdminUnit(c echo.Context) error {
	u, err := a.Admin.Unit(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, adminUnitOut(u))
}

type onboardJSON struct {
	ID          string     `json:"id"`
	LandingZone string     `json:"landing_zone"`
	Groups      groupsJSON `json:"groups"`
}

func (a *API) onboardUnit(c echo.Context) error {
	var in onboardJSON
	if err := decode(c, &in); err != nil {
		return err
	}
	u, err := a.Admin.Onboard(c.Request().Context(), portal.Onboarding{ID: in.ID, LandingZone: in.LandingZone,
		Groups: portal.UnitGroups(in.Groups)})
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, Base+"/admin/business-unit/"+u.ID)
	return c.JSON(http.StatusCreated, adminUnitOut(u))
}

func (a *API) updateAdminUnit(c echo.Context) error {
	var in struct {
		Groups groupsJSON `json:"groups"`
	}
	if err := decode(c, &in); err != nil {
		return err
	}
	u, err := a.Admin.UpdateGroups(c.Request().Context(), c.Param("id"), portal.UnitGroups(in.Groups))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, adminUnitOut(u))
}

type leftJSON struct {
	Stage string `json:"stage"`
	Kind  string `json:"kind"`
	Name  string `json:"name"`
}

func (a *API) offboardUnit(c echo.Context) error {
	off, err := a.Admin.Offboard(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	left := make([]leftJSON, len(off.Left))
	for i, l := range off.Left {
		left[i] = leftJSON(l)
	}
	return c.JSON(http.StatusOK, map[string]any{"offboarded": off.Unit, "left_upstream": left, "incomplete": off.Incomplete})
}

type readOnlyJSON struct {
	LandingZone string `json:"landing_zone"`
	Stage       string `json:"stage"`
	ReadOnly    bool   `json:"read_only"`
	Configured  bool   `json:"configured_read_only"`
	Switched    bool   `json:"switched"`
	Reason      string `json:"reason,omitempty"`
	Until       string `json:"until,omitempty"`
	SetBy       string `json:"set_by,omitempty"`
	SetAt       string `json:"set_at,omitempty"`
}

func readOnlyOut(s portal.ReadOnlyState) readOnlyJSON {
	return readOnlyJSON{LandingZone: s.LandingZone, Stage: s.Stage, ReadOnly: s.ReadOnly, Configured: s.Configured, Switched: s.Switched,
		Reason: s.Reason, Until: stamp(s.Until), SetBy: s.SetBy, SetAt: stamp(s.SetAt)}
}

func (a *API) listReadOnly(c echo.Context) error {
	states, err := a.Admin.ReadOnly(c.Request().Context())
	if err != nil {
		return err
	}
	out := make([]readOnlyJSON, len(states))
	for i, s := range states {
		out[i] = readOnlyOut(s)
	}
	return c.JSON(http.StatusOK, map[string]any{"items": out})
}

func (a *API) setReadOnly(c echo.Context) error {
	var in struct {
		ReadOnly *bool  `json:"read_only"`
		Reason   string `json:"reason"`
		Until    string `json:"until"`
	}
	if err := decode(c, &in); err != nil {
		return err
	}
	var v portal.Validation
	if in.ReadOnly == nil {
		v.Add(portal.Missing("read_only"))
	}
	var until time.Time
	if in.Until != "" {
		t, err := time.Parse(time.RFC3339, in.Until)
		if err != nil {
			v.Add(portal.Invalid("until", "must be a time in RFC 3339, such as 2026-12-01T18:00:00Z, not %q", in.Until))
		}
		until = t
	}
	if err := v.Err(); err != nil {
		return err
	}
	s, err := a.Admin.SetReadOnly(c.Request().Context(), c.Param("landing_zone"), c.Param("stage"),
		portal.ReadOnlyChange{ReadOnly: *in.ReadOnly, Reason: in.Reason, Until: until})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, readOnlyOut(s))
}
