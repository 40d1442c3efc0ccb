package handlers

import (
	"net/http"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/handlers/page"
	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/grant"
	"github.com/edh-platform/rms-portal/views"
)

func (h *Handlers) listGrants(c echo.Context) error {
	p, err := h.Scoped(c, "grants", "Grants")
	if err != nil {
		return err
	}
	q := grant.GrantQuery{ListQuery: portal.ListQuery{PageSize: portal.MaxPageSize}, Side: c.QueryParam("side"), State: c.QueryParam("state"),
		Expiring: c.QueryParam("expiring") == "true"}
	list, err := h.Grants.Grants(c.Request().Context(), httpserver.ScopeOf(c), q)
	if err != nil {
		return err
	}
	return h.Render(c, http.StatusOK, p, views.GrantsPage(p, list.Items, p.Context != nil && p.Context.AskGrants))
}

func (h *Handlers) showGrant(c echo.Context) error {
	id := c.Param("id")
	p, err := h.Scoped(c, "grants", "Grant "+id, views.Crumb{Label: id})
	if err != nil {
		return err
	}
	g, err := h.Grants.Grant(c.Request().Context(), httpserver.ScopeOf(c), id)
	if err != nil {
		return err
	}
	return h.Render(c, http.StatusOK, p, views.GrantPage(p, g))
}

// principals are the unit's accounts and pools to ask access for.
func (h *Handlers) principals(c echo.Context) ([][2]string, error) {
	ctx, scope := c.Request().Context(), httpserver.ScopeOf(c)
	q := portal.ListQuery{PageSize: portal.MaxPageSize}
	accounts, err := h.Accounts.List(ctx, scope, q)
	if err != nil {
		return nil, err
	}
	pools, err := h.Pools.List(ctx, scope, q)
	if err != nil {
		return nil, err
	}
	var out [][2]string
	for _, a := range accounts.Items {
		out = append(out, [2]string{a.ID, a.Name})
	}
	for _, pl := range pools.Items {
		out = append(out, [2]string{pl.ID, pl.Name})
	}
	return out, nil
}

func (h *Handlers) newGrant(c echo.Context) error {
	p, err := h.Scoped(c, "grants", "Ask for access", views.Crumb{Label: "new"})
	if err != nil {
		return err
	}
	f := views.GrantForm{In: grant.NewTopicGrant{Owner: c.QueryParam("owner"), Topic: c.QueryParam("topic"), Access: c.QueryParam("access"),
		Renews: c.QueryParam("renews")}}
	if f.In.Renews != "" {
		// A renewal asks for the same access as the grant it renews.
		g, err := h.Grants.Grant(c.Request().Context(), httpserver.ScopeOf(c), f.In.Renews)
		if err != nil {
			return err
		}
		f.In.Owner, f.In.Topic, f.In.Prefix, f.In.Access, f.In.Principal = g.Owner, g.Topic, g.Prefix, g.Access, g.Principal
	}
	if f.Principals, err = h.principals(c); err != nil {
		return err
	}
	if f.Offer, err = h.Grants.Offer(c.Request().Context(), httpserver.ScopeOf(c), f.In.Owner); err != nil {
		return err
	}
	return h.Render(c, http.StatusOK, p, views.NewGrantPage(p, f))
}

// requestGrant asks for access from the form.
func (h *Handlers) requestGrant(c echo.Context) error {
	p, err := h.Scoped(c, "grants", "Ask for access", views.Crumb{Label: "new"})
	if err != nil {
		return err
	}
	f := views.GrantForm{In: grant.NewTopicGrant{Owner: c.FormValue("owner"), Topic: c.FormValue("topic"), Prefix: c.FormValue("prefix") == "true",
		Access: c.FormValue("access"), Principal: c.FormValue("principal"), Reason: c.FormValue("reason"), Duration: c.FormValue("duration"),
		Renews: c.FormValue("renews")}}
	g, err := h.Grants.RequestGrant(c.Request().Context(), httpserver.ScopeOf(c), f.In)
	if err == nil {
		return h.Done(c, "Access asked of "+g.Owner+" ("+g.ID+"); its Admins review it.", p.Context.Path("grant", g.ID))
	}
	ps := portal.Problems(err)
	if len(ps) == 0 {
		return err
	}
	f.Errors = page.ProblemLines(ps)
	f.Principals, _ = h.principals(c)
	f.Offer, _ = h.Grants.Offer(c.Request().Context(), httpserver.ScopeOf(c), f.In.Owner)
	return h.FailedForm(c, p, err, func() templ.Component { return views.NewGrantPage(p, f) })
}

// grantStep approves, rejects, withdraws or revokes a grant from its page.
func (h *Handlers) grantStep(c echo.Context) error {
	id, step := c.Param("id"), c.Param("action")
	scope, ctx := httpserver.ScopeOf(c), c.Request().Context()
	p, err := h.Scoped(c, "grants", "Grant "+id)
	if err != nil {
		return err
	}
	var g grant.TopicGrant
	switch step {
	case "approve":
		g, err = h.Grants.ApproveGrant(ctx, scope, id, c.FormValue("comment"))
	case "reject":
		g, err = h.Grants.RejectGrant(ctx, scope, id, c.FormValue("comment"))
	case "withdraw":
		g, err = h.Grants.WithdrawGrant(ctx, scope, id)
	case "revoke":
		g, err = h.Grants.RevokeGrant(ctx, scope, id, c.FormValue("comment"))
	default:
		return portal.New(portal.NotFound, "not found")
	}
	if err != nil {
		return err
	}
	msg := "Grant " + g.ID + " is " + g.State + "."
	if g.State == grant.GrantActive {
		// Role bindings take effect upstream some time after they are made.
		msg += " Confluent Cloud enforces new role bindings within about 90 seconds."
	}
	return h.Done(c, msg, p.Context.Path("grant", id))
}
