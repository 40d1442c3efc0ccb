package page

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/version"
	"github.com/edh-platform/rms-portal/views"
)

// Page builds the layout data for the signed-in caller from one service
// call; the scope is empty for pages without a context. A context the
// caller may not see is refused by the service, as NotFound.
func (k *Kit) Page(c echo.Context, title, resource string, scope portal.Scope) (views.Page, error) {
	l, err := k.Me.Layout(c.Request().Context(), scope)
	if err != nil {
		return views.Page{}, err
	}
	p := views.Page{Title: title, Resource: resource, Version: version.Get().String()}
	pr := l.Caller.Principal
	p.User = views.User{Name: pr.Display(), Username: pr.Username, PlatformAdmin: pr.PlatformAdmin, Admin: l.Caller.Admin,
		GroupsOverage: pr.GroupsOverage}
	if s := Session(c); s != nil {
		p.CSRF = s.CSRF
	}
	for _, u := range l.Caller.Units {
		p.Units = append(p.Units, views.Unit{ID: u.ID, Zone: u.LandingZone, Dedicated: u.Dedicated, Main: u.Main, Role: u.Role.Title(), ReadOnly: u.ReadOnlyStages})
	}
	for _, s := range l.Caller.Stages {
		p.Stages = append(p.Stages, views.Stage{Name: s.Name, ReadOnly: s.ReadOnly})
	}
	p.Context, p.DefaultContext = viewContext(l.Context), viewContext(l.Default)
	if p.Context != nil {
		p.Crumbs = Crumbs(p.Context, resource)
	}
	if p.Context != nil && p.Context.WholeCluster {
		p.UnitFilter = c.QueryParam("unit")
	}
	if err := stageConfirmed(c, p.Context); err != nil {
		return views.Page{}, err
	}
	return p, nil
}

// reviews counts what waits for the caller's review, for the navigation;
// a page does without the counts when the database cannot say.
func (k *Kit) reviews(c echo.Context) views.Reviews {
	ctx := c.Request().Context()
	var r views.Reviews
	if waiting, err := k.Requests.Waiting(ctx); err == nil {
		r.Requests = len(waiting)
	} else {
		k.Log.WarnContext(ctx, "change requests waiting for review could not be counted", "error", err)
	}
	if grants, err := k.Grants.WaitingGrants(ctx); err == nil {
		r.Grants = len(grants)
	} else {
		k.Log.WarnContext(ctx, "access requests waiting for review could not be counted", "error", err)
	}
	return r
}

// stageConfirmed checks the typed confirmation of a form that asks for it
// (an Admin writing in a read-only stage, views.WriteGuard): a slip of the
// hand, not a permission, so a form without the question is not refused
// here; the service decides who may write.
func stageConfirmed(c echo.Context, ctx *views.Context) error {
	if c.Request().Method == http.MethodGet || ctx == nil || !ctx.Bypass || c.FormValue("confirm_stage_required") == "" {
		return nil
	}
	if strings.TrimSpace(c.FormValue("confirm_stage")) != ctx.Stage {
		return portal.Invalid("confirm_stage", "type %s to confirm a change in the read-only stage %s; go back to the form to try again", ctx.Stage, ctx.Stage)
	}
	return nil
}

// Scoped is Page for a resource in the context the route names
// (:bu, :stage), with extra crumbs after the resource's.
func (k *Kit) Scoped(c echo.Context, resource, title string, extra ...views.Crumb) (views.Page, error) {
	p, err := k.Page(c, title, resource, httpserver.ScopeOf(c))
	if err == nil && len(extra) > 0 {
		p.Crumbs = Crumbs(p.Context, resource, extra...)
	}
	return p, err
}

func viewContext(o *portal.Outlook) *views.Context {
	if o == nil {
		return nil
	}
	return &views.Context{Outlook: *o}
}

// Crumbs are "home / resource / landing zone / unit / stage"; the landing
// zone appears only for units on a shared cluster.
func Crumbs(ctx *views.Context, resource string, more ...views.Crumb) []views.Crumb {
	list := ctx.Path(resource)
	out := []views.Crumb{{Label: "home", Href: "/"}, {Label: resource, Href: list}}
	if !ctx.Dedicated {
		out = append(out, views.Crumb{Label: ctx.LandingZone})
	}
	out = append(out, views.Crumb{Label: ctx.BU}, views.Crumb{Label: ctx.Stage, Href: list})
	return append(out, more...)
}
