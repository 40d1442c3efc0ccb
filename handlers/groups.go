package handlers

import (
	"net/http"
	"strconv"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/handlers/page"
	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/group"
	"github.com/edh-platform/rms-portal/views"
)

func (h *Handlers) listGroups(c echo.Context) error {
	p, err := h.Scoped(c, "consumer-groups", "Consumer groups")
	if err != nil {
		return err
	}
	res, err := h.Groups.List(c.Request().Context(), httpserver.ScopeOf(c),
		portal.ListQuery{PageSize: page.Size, PageToken: c.QueryParam("page_token"), Unit: p.UnitFilter})
	if err != nil {
		return err
	}
	p.Subtitle = p.Context.Prefix + "*"
	if p.Context.WholeCluster {
		p.Subtitle = "the whole " + p.Context.LandingZone + " cluster"
	}
	return h.Render(c, http.StatusOK, p, views.GroupsPage(p, res.Items, res.Total, res.NextPageToken))
}

func (h *Handlers) groupForPage(c echo.Context) (group.GroupDetail, views.Page, error) {
	p, err := h.Scoped(c, "consumer-groups", "Consumer group")
	if err != nil {
		return group.GroupDetail{}, p, err
	}
	g, err := h.Groups.Get(c.Request().Context(), httpserver.ScopeOf(c), c.Param("id"))
	if err != nil {
		return g, p, err
	}
	p.Title, p.Subtitle = g.Identifier, g.ID
	p.Crumbs = page.Crumbs(p.Context, "consumer-groups", views.Crumb{Label: g.Identifier})
	return g, p, nil
}

func (h *Handlers) showGroup(c echo.Context) error {
	g, p, err := h.groupForPage(c)
	if err != nil {
		return err
	}
	return h.Render(c, http.StatusOK, p, views.GroupPage(p, g, views.ResetForm{Topics: g.Topics}))
}

// resetGroup plans a reset (op=plan, a dry run) or applies it (op=apply).
func (h *Handlers) resetGroup(c echo.Context) error {
	g, p, err := h.groupForPage(c)
	if err != nil {
		return err
	}
	f := views.ResetForm{Topic: c.FormValue("topic"), To: c.FormValue("to"), Timestamp: c.FormValue("timestamp"),
		Offset: c.FormValue("offset"), Topics: g.Topics}
	r := group.OffsetReset{Topic: f.Topic, To: f.To, DryRun: c.FormValue("op") != "apply"}
	var perr error
	if f.To == group.ResetTimestamp && f.Timestamp != "" {
		t, err := time.Parse(page.LocalTime, f.Timestamp)
		if err != nil {
			perr = portal.Invalid("timestamp", "must be a date and time, such as 2026-11-22T10:00")
		}
		r.Timestamp = t
	}
	if f.To == group.ResetOffset && f.Offset != "" {
		n, err := strconv.ParseInt(f.Offset, 10, 64)
		if err != nil {
			perr = portal.Invalid("offset", "must be a whole number")
		}
		r.Offset = &n
	}
	var plan group.ResetResult
	err = perr
	if err == nil {
		plan, err = h.Groups.ResetOffsets(c.Request().Context(), httpserver.ScopeOf(c), g.ID, r)
	}
	form := func() templ.Component {
		if page.IsHTMX(c) {
			return views.ResetFormView(p, g, f)
		}
		return views.GroupPage(p, g, f)
	}
	if err != nil {
		errs := map[string]string{}
		if !page.FieldErrors(err, errs, "") {
			return err
		}
		for _, m := range errs {
			f.Error = m
		}
		return h.FailedForm(c, p, err, form)
	}
	f.Plan, f.Done = &plan, !plan.DryRun
	if f.Done {
		return h.Done(c, "Offsets of "+g.Identifier+" reset.", p.Context.Path("consumer-group", g.ID))
	}
	if page.IsHTMX(c) {
		return page.Fragment(c, http.StatusOK, form())
	}
	return h.Render(c, http.StatusOK, p, form())
}

func (h *Handlers) confirmDeleteGroup(c echo.Context) error {
	g, p, err := h.groupForPage(c)
	if err != nil {
		return err
	}
	return h.Render(c, http.StatusOK, p, views.ConfirmDelete(p, groupDeletion(p, g, "", "")))
}

func groupDeletion(p views.Page, g group.GroupDetail, typed, problem string) views.Deletion {
	return views.Deletion{Kind: "consumer group", Name: g.ID, Identifier: g.Identifier,
		Consequence: "its committed offsets are lost; consumers that join it again start where their auto.offset.reset says.",
		Action:      p.Context.Path("consumer-group", g.ID, "delete"), Cancel: p.Context.Path("consumer-group", g.ID), Typed: typed, Problem: problem}
}

func (h *Handlers) deleteGroup(c echo.Context) error {
	g, p, err := h.groupForPage(c)
	if err != nil {
		return err
	}
	if typed := c.FormValue("confirm"); typed != g.Identifier {
		return h.Render(c, http.StatusUnprocessableEntity, p, views.ConfirmDelete(p, groupDeletion(p, g, typed, "Type "+g.Identifier+" exactly to confirm.")))
	}
	if err := h.Groups.Delete(c.Request().Context(), httpserver.ScopeOf(c), g.ID); err != nil {
		return err
	}
	return h.Done(c, "Consumer group "+g.Identifier+" deleted.", p.Context.Path("consumer-groups"))
}
