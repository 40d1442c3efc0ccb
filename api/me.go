package api

import (
	"net/http"

	"github.com/edh-platform/rms-portal/api/present"

	"github.com/edh-platform/rms-portal/internal/wire"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/version"
)

func (a *API) getMe(c echo.Context) error {
	me, err := a.Me.Me(c.Request().Context())
	if err != nil {
		return err
	}
	p := me.Principal
	out := wire.Me{Subject: p.Subject, Name: p.Name, Username: p.Username, Service: p.Service,
		PlatformAdmin: p.PlatformAdmin, Groups: p.Groups, BusinessUnits: []wire.MeUnit{}, Stages: []wire.MeStage{}}
	if out.Groups == nil {
		out.Groups = []string{}
	}
	for _, u := range me.Units {
		out.BusinessUnits = append(out.BusinessUnits, wire.MeUnit{ID: u.ID, LandingZone: u.LandingZone,
			Dedicated: u.Dedicated, Main: u.Main, Role: u.Role.String(), Groups: append([]string{}, u.Groups...)})
	}
	for _, s := range me.Stages {
		out.Stages = append(out.Stages, wire.MeStage{Name: s.Name, ReadOnly: s.ReadOnly})
	}
	r, err := a.Me.Access(c.Request().Context())
	if err != nil {
		return err
	}
	out.GroupsOverage, out.Access = r.Overage, wire.MeAccess{Unmatched: r.Unmatched, Explanation: r.Explanation, Grants: present.GrantAccess(r.Grants)}
	return c.JSON(http.StatusOK, out)
}

func (a *API) getVersion(c echo.Context) error {
	return c.JSON(http.StatusOK, wire.Version(version.Get()))
}
