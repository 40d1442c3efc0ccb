package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/version"
)

type meJSON struct {
	Subject       string      `json:"subject"`
	Name          string      `json:"name"`
	Username      string      `json:"username"`
	Service       bool        `json:"service"`
	PlatformAdmin bool        `json:"platform_admin"`
	Groups        []string    `json:"groups"`
	BusinessUnits []unitJSON  `json:"business_units"`
	Stages        []stageJSON `json:"stages"`
	// GroupsOverage: the token had no room for the caller's groups.
	GroupsOverage bool `json:"groups_overage"`
	// Access explains the roles: the groups that match nothing, and why
	// other units do not appear.
	Access meAccessJSON `json:"access"`
}

type meAccessJSON struct {
	Unmatched   []string          `json:"unmatched_groups"`
	Explanation string            `json:"explanation"`
	Grants      []grantAccessJSON `json:"grants"`
}

type unitJSON struct {
	ID          string `json:"id"`
	LandingZone string `json:"landing_zone"`
	Dedicated   bool   `json:"dedicated"`
	Main        bool   `json:"main"`
	Role        string `json:"role"`
	// Groups are the caller's groups that gave the role.
	Groups []string `json:"groups"`
}

type stageJSON struct {
	Name     string `json:"name"`
	ReadOnly bool   `json:"read_only"`
}

func (a *API) getMe(c echo.Context) error {
	me, err := a.Me.Me(c.Request().Context())
	if err != nil {
		return err
	}
	p := me.Principal
	out := meJSON{Subject: p.Subject, Name: p.Name, Username: p.Username, Service: p.Service,
		PlatformAdmin: p.PlatformAdmin, Groups: p.Groups, BusinessUnits: []unitJSON{}, Stages: []stageJSON{}}
	if out.Groups == nil {
		out.Groups = []string{}
	}
	for _, u := range me.Units {
		out.BusinessUnits = append(out.BusinessUnits, unitJSON{ID: u.ID, LandingZone: u.LandingZone,
			Dedicated: u.Dedicated, Main: u.Main, Role: u.Role.String(), Groups: append([]string{}, u.Groups...)})
	}
	for _, s := range me.Stages {
		out.Stages = append(out.Stages, stageJSON{Name: s.Name, ReadOnly: s.ReadOnly})
	}
	r, err := a.Me.Access(c.Request().Context())
	if err != nil {
		return err
	}
	out.GroupsOverage, out.Access = r.Overage, meAccessJSON{Unmatched: r.Unmatched, Explanation: r.Explanation, Grants: grantAccessOut(r.Grants)}
	return c.JSON(http.StatusOK, out)
}

func (a *API) getVersion(c echo.Context) error {
	return c.JSON(http.StatusOK, version.Get())
}
