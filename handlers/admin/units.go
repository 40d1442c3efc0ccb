package admin

import (
	"net/http"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/handlers/page"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/adminarea"
	"github.com/edh-platform/rms-portal/views"
)

// adminPage builds an admin page's frame and the caller's share of the
// area; the service answers NotFound to everyone who may not see it.
func (h *Pages) adminPage(c echo.Context, title string, crumbs ...views.Crumb) (views.Page, adminarea.AdminArea, error) {
	area, err := h.Admin.Area(c.Request().Context())
	if err != nil {
		return views.Page{}, area, err
	}
	p, err := h.Page(c, title, "admin", portal.Scope{})
	p.Crumbs = append([]views.Crumb{{Label: "home", Href: "/"}, {Label: "admin", Href: "/admin"}}, crumbs...)
	return p, area, err
}

// adminHome opens the first tab the caller may use.
func (h *Pages) adminHome(c echo.Context) error {
	area, err := h.Admin.Area(c.Request().Context())
	if err != nil {
		return err
	}
	if area.Platform {
		return c.Redirect(http.StatusSeeOther, "/admin/business-units")
	}
	return c.Redirect(http.StatusSeeOther, "/admin/audit")
}

// splitGroups reads a textarea of groups, one per line or comma separated.
func splitGroups(s string) []string {
	out := []string{}
	for _, g := range strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == ',' || r == '\r' }) {
		if g = strings.TrimSpace(g); g != "" {
			out = append(out, g)
		}
	}
	return out
}

func (h *Pages) unitForm(area adminarea.AdminArea, units []adminarea.AdminUnit) views.UnitForm {
	f := views.UnitForm{Action: "/admin/business-units", Errors: map[string]string{}}
	// Units can be onboarded only into shared landing zones.
	dedicated := map[string]bool{}
	for _, u := range units {
		if u.Dedicated {
			dedicated[u.LandingZone] = true
		}
	}
	for _, z := range area.Zones {
		if !dedicated[z] {
			f.Zones = append(f.Zones, z)
		}
	}
	return f
}

func (h *Pages) listAdminUnits(c echo.Context) error {
	p, area, err := h.adminPage(c, "Business units")
	if err != nil {
		return err
	}
	units, err := h.Admin.Units(c.Request().Context())
	if err != nil {
		return err
	}
	return h.Render(c, http.StatusOK, p, views.BusinessUnitsPage(p, area, units, h.unitForm(area, units)))
}

func (h *Pages) onboardUnit(c echo.Context) error {
	p, area, err := h.adminPage(c, "Business units")
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	groups := adminarea.UnitGroups{Admin: splitGroups(c.FormValue("groups.admin")), Developer: splitGroups(c.FormValue("groups.developer")),
		Viewer: splitGroups(c.FormValue("groups.viewer"))}
	u, err := h.Admin.Onboard(ctx, adminarea.Onboarding{ID: strings.TrimSpace(c.FormValue("id")), LandingZone: c.FormValue("landing_zone"), Groups: groups})
	if err == nil {
		return h.Done(c, "Business unit "+u.ID+" onboarded: it is in force now.", "/admin/business-unit/"+u.ID)
	}
	units, lerr := h.Admin.Units(ctx)
	if lerr != nil {
		return lerr
	}
	f := h.unitForm(area, units)
	f.ID, f.LandingZone = c.FormValue("id"), c.FormValue("landing_zone")
	f.Admin, f.Developer, f.Viewer = c.FormValue("groups.admin"), c.FormValue("groups.developer"), c.FormValue("groups.viewer")
	if !page.FieldErrors(err, f.Errors, "id") {
		return err
	}
	return h.FailedForm(c, p, err, func() templ.Component {
		if page.IsHTMX(c) {
			return views.UnitFormView(p, f)
		}
		return views.BusinessUnitsPage(p, area, units, f)
	})
}

func groupsForm(u adminarea.AdminUnit) views.UnitForm {
	return views.UnitForm{Action: "/admin/business-unit/" + u.ID, Edit: true, ID: u.ID, LandingZone: u.LandingZone,
		Admin: strings.Join(u.Groups.Admin, "\n"), Developer: strings.Join(u.Groups.Developer, "\n"), Viewer: strings.Join(u.Groups.Viewer, "\n"),
		Errors: map[string]string{}}
}

func (h *Pages) showAdminUnit(c echo.Context) error {
	p, area, err := h.adminPage(c, "Business unit", views.Crumb{Label: "business units", Href: "/admin/business-units"}, views.Crumb{Label: c.Param("id")})
	if err != nil {
		return err
	}
	u, err := h.Admin.Unit(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	p.Title = u.ID
	return h.Render(c, http.StatusOK, p, views.BusinessUnitPage(p, area, u, groupsForm(u)))
}

func (h *Pages) updateAdminUnit(c echo.Context) error {
	p, area, err := h.adminPage(c, "Business unit", views.Crumb{Label: "business units", Href: "/admin/business-units"}, views.Crumb{Label: c.Param("id")})
	if err != nil {
		return err
	}
	ctx, id := c.Request().Context(), c.Param("id")
	groups := adminarea.UnitGroups{Admin: splitGroups(c.FormValue("groups.admin")), Developer: splitGroups(c.FormValue("groups.developer")),
		Viewer: splitGroups(c.FormValue("groups.viewer"))}
	u, err := h.Admin.UpdateGroups(ctx, id, groups)
	if err == nil {
		return h.Done(c, "Groups of "+u.ID+" saved: they count from the next request.", "/admin/business-unit/"+u.ID)
	}
	cur, gerr := h.Admin.Unit(ctx, id)
	if gerr != nil {
		return gerr
	}
	f := groupsForm(cur)
	f.Admin, f.Developer, f.Viewer = c.FormValue("groups.admin"), c.FormValue("groups.developer"), c.FormValue("groups.viewer")
	if !page.FieldErrors(err, f.Errors, "") {
		return err
	}
	p.Title = cur.ID
	return h.FailedForm(c, p, err, func() templ.Component {
		if page.IsHTMX(c) {
			return views.UnitFormView(p, f)
		}
		return views.BusinessUnitPage(p, area, cur, f)
	})
}

func (h *Pages) confirmOffboard(c echo.Context) error {
	id := c.Param("id")
	p, _, err := h.adminPage(c, "Offboard "+id, views.Crumb{Label: "business units", Href: "/admin/business-units"}, views.Crumb{Label: id})
	if err != nil {
		return err
	}
	u, err := h.Admin.Unit(c.Request().Context(), id)
	if err != nil {
		return err
	}
	return h.Render(c, http.StatusOK, p, views.ConfirmDelete(p, offboarding(u, "", "")))
}

func offboarding(u adminarea.AdminUnit, typed, problem string) views.Deletion {
	return views.Deletion{Kind: "business unit", Name: u.LandingZone + " / " + u.ID, Identifier: u.ID,
		Consequence: "offboarding removes it from every selector and takes away every role in it, at once. Nothing upstream is deleted: its topics, connectors, subjects and service accounts are listed afterwards for you to clean up.",
		Action:      "/admin/business-unit/" + u.ID + "/offboard", Cancel: "/admin/business-unit/" + u.ID, Typed: typed, Problem: problem}
}

func (h *Pages) offboardUnit(c echo.Context) error {
	id := c.Param("id")
	p, area, err := h.adminPage(c, "Offboard "+id, views.Crumb{Label: "business units", Href: "/admin/business-units"}, views.Crumb{Label: id})
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	if typed := c.FormValue("confirm"); typed != id {
		u, err := h.Admin.Unit(ctx, id)
		if err != nil {
			return err
		}
		return h.Render(c, http.StatusUnprocessableEntity, p, views.ConfirmDelete(p, offboarding(u, typed, "Type "+id+" exactly to confirm.")))
	}
	off, err := h.Admin.Offboard(ctx, id)
	if err != nil {
		return err
	}
	p.Title = id + " offboarded"
	return h.Render(c, http.StatusOK, p, views.OffboardedPage(p, area, off))
}
