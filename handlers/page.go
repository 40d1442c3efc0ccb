package handlers

import (
	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/fault"
	"github.com/edh-platform/rms-portal/views"
)

// page builds the layout data for the signed-in caller; bu and stage may
// be empty for pages without a context.
func (h *Handlers) page(c echo.Context, title, resource, bu, stage string) (views.Page, error) {
	ctx := c.Request().Context()
	caller, err := h.me.Get(ctx)
	if err != nil {
		return views.Page{}, err
	}
	p := views.Page{Title: title, Resource: resource}
	pr := caller.Principal
	p.User = views.User{Name: pr.Display(), Username: pr.Username, PlatformAdmin: pr.PlatformAdmin}
	if s := currentSession(c); s != nil {
		p.CSRF = s.CSRF
	}
	for _, u := range caller.Units {
		p.Units = append(p.Units, views.Unit{ID: u.Unit.ID, Zone: u.Unit.LandingZone.ID, Dedicated: u.Unit.LandingZone.Dedicated,
			Main: u.Unit.IsMain(), Role: u.Role.Title()})
	}
	for _, s := range caller.Stages {
		p.Stages = append(p.Stages, views.Stage{Name: s.Name, ReadOnly: s.ReadOnly})
	}
	if bu != "" {
		p.Context = h.context(c, bu, stage)
		if p.Context == nil {
			// The service would refuse anyway; say so the same way.
			return p, access.UnitNotFound(bu)
		}
	} else if len(p.Units) > 0 && len(p.Stages) > 0 {
		p.DefaultContext = h.context(c, p.Units[0].ID, p.Stages[0].Name)
	}
	if p.Context != nil {
		p.Crumbs = crumbs(p.Context, resource)
	}
	return p, nil
}

// scopedPage is page for a resource in the context the route names
// (:bu, :stage), with extra crumbs after the resource's.
func (h *Handlers) scopedPage(c echo.Context, resource, title string, extra ...views.Crumb) (views.Page, error) {
	p, err := h.page(c, title, resource, c.Param("bu"), c.Param("stage"))
	if err == nil && len(extra) > 0 {
		p.Crumbs = crumbs(p.Context, resource, extra...)
	}
	return p, err
}

func (h *Handlers) context(c echo.Context, bu, stage string) *views.Context {
	o, ok := h.outlooks.Outlook(c.Request().Context(), bu, stage)
	if !ok {
		return nil
	}
	return &views.Context{
		BU: bu, Stage: stage, Zone: o.Scope.Zone().ID, Dedicated: o.Scope.Zone().Dedicated, Role: o.Role.String(),
		ReadOnly: o.Scope.Stage.ReadOnly, CanWrite: o.Write.Allowed, Bypass: o.Write.Bypass,
		WriteBlockedByStage: o.Write.Denial == fault.ReadOnlyEnvironment, CanManage: o.Manage.Allowed, WholeCluster: o.WholeCluster,
		Prefix: o.Scope.Prefix(),
	}
}

// crumbs are "home / resource / landing zone / unit / stage"; the landing
// zone appears only for units on a shared cluster.
func crumbs(ctx *views.Context, resource string, more ...views.Crumb) []views.Crumb {
	list := ctx.Path(resource)
	out := []views.Crumb{{Label: "home", Href: "/"}, {Label: resource, Href: list}}
	if !ctx.Dedicated {
		out = append(out, views.Crumb{Label: ctx.Zone})
	}
	out = append(out, views.Crumb{Label: ctx.BU}, views.Crumb{Label: ctx.Stage, Href: list})
	return append(out, more...)
}
