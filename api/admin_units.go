package api

import (
	"net/http"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal/adminarea"
	"github.com/edh-platform/rms-portal/internal/wire"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/api/present"
	"github.com/edh-platform/rms-portal/internal/portal"
)

func (a *API) adminArea(c echo.Context) error {
	area, err := a.Admin.Area(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, wire.AdminArea{PlatformAdmin: area.Platform, LandingZones: area.Zones})
}

func (a *API) listAdminUnits(c echo.Context) error {
	units, err := a.Admin.Units(c.Request().Context())
	if err != nil {
		return err
	}
	out := make([]wire.AdminUnit, len(units))
	for i, u := range units {
		out[i] = present.AdminUnit(u)
	}
	return listOf(c, out)
}

func (a *API) getAdminUnit(c echo.Context) error {
	u, err := a.Admin.Unit(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, present.AdminUnit(u))
}

func (a *API) onboardUnit(c echo.Context) error {
	var in wire.UnitOnboard
	if err := decode(c, &in); err != nil {
		return err
	}
	u, err := a.Admin.Onboard(c.Request().Context(), adminarea.Onboarding{ID: in.ID, LandingZone: in.LandingZone,
		Groups: adminarea.UnitGroups(in.Groups)})
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, Base+"/admin/business-unit/"+u.ID)
	return c.JSON(http.StatusCreated, present.AdminUnit(u))
}

func (a *API) updateAdminUnit(c echo.Context) error {
	var in wire.UnitGroupsUpdate
	if err := decode(c, &in); err != nil {
		return err
	}
	u, err := a.Admin.UpdateGroups(c.Request().Context(), c.Param("id"), adminarea.UnitGroups(in.Groups))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, present.AdminUnit(u))
}

func (a *API) offboardUnit(c echo.Context) error {
	off, err := a.Admin.Offboard(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	left := make([]wire.LeftUpstream, len(off.Left))
	for i, l := range off.Left {
		left[i] = wire.LeftUpstream(l)
	}
	return c.JSON(http.StatusOK, wire.UnitOffboard{Offboarded: off.Unit, LeftUpstream: left, Incomplete: off.Incomplete})
}

func (a *API) listReadOnly(c echo.Context) error {
	states, err := a.Admin.ReadOnly(c.Request().Context())
	if err != nil {
		return err
	}
	out := make([]wire.ReadOnlyState, len(states))
	for i, s := range states {
		out[i] = present.ReadOnly(s)
	}
	return listOf(c, out)
}

func (a *API) setReadOnly(c echo.Context) error {
	var in wire.ReadOnlySet
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
		adminarea.ReadOnlyChange{ReadOnly: *in.ReadOnly, Reason: in.Reason, Until: until})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, present.ReadOnly(s))
}
