package identity

import (
	"cmp"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/handlers/page"
	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
	"github.com/edh-platform/rms-portal/views"
)

const sampleClaims = `{
  "sub": "ci-runner-42",
  "aud": "confluent",
  "groups": ["ops"]
}`

func (h *Pages) listPools(c echo.Context) error {
	p, err := h.Scoped(c, "identity-pools", "Identity pools")
	if err != nil {
		return err
	}
	res, err := h.Pools.List(c.Request().Context(), httpserver.ScopeOf(c),
		portal.ListQuery{PageSize: page.Size, PageToken: c.QueryParam("page_token"), Unit: c.QueryParam("unit")})
	if err != nil {
		return err
	}
	p.Subtitle = p.Context.Prefix + "*"
	return h.Render(c, http.StatusOK, p, views.PoolsPage(p, res.Items, res.Total, res.NextPageToken))
}

// editor starts the filter editor of a pool; only those who may change the
// pool can save.
func editor(p views.Page, x iam.Pool) views.FilterEditor {
	e := views.FilterEditor{TestURL: p.Context.Path("identity-pool", x.ID, "filter"), Filter: x.Filter, Claims: sampleClaims, Version: x.Version}
	if p.Context.CanManage && !x.ReadOnly {
		e.Action = e.TestURL
	}
	return e
}

func (h *Pages) poolForPage(c echo.Context) (iam.Pool, views.Page, error) {
	p, err := h.Scoped(c, "identity-pools", "Identity pool")
	if err != nil {
		return iam.Pool{}, p, err
	}
	x, err := h.Pools.Get(c.Request().Context(), httpserver.ScopeOf(c), c.Param("id"))
	if err != nil {
		return x, p, err
	}
	p.Title, p.Subtitle = x.Identifier, x.Name
	p.Crumbs = page.Crumbs(p.Context, "identity-pools", views.Crumb{Label: x.Identifier})
	return x, p, nil
}

func (h *Pages) showPool(c echo.Context) error {
	x, p, err := h.poolForPage(c)
	if err != nil {
		return err
	}
	return h.Render(c, http.StatusOK, p, views.PoolPage(p, x, editor(p, x)))
}

// poolFilter tests the filter on the sample claims (op=test) or saves it.
func (h *Pages) poolFilter(c echo.Context) error {
	x, p, err := h.poolForPage(c)
	if err != nil {
		return err
	}
	e := editor(p, x)
	e.Filter, e.Claims = c.FormValue("filter"), c.FormValue("claims")
	if v := c.FormValue("version"); v != "" {
		e.Version = v // as the editor was opened
	}
	ctx, scope := c.Request().Context(), httpserver.ScopeOf(c)
	// refused shows the editor again with the service's objection.
	refused := func(err error) error {
		errs := map[string]string{}
		if !page.FieldErrors(err, errs, "") {
			return err
		}
		e.Error = cmp.Or(errs["filter"], errs["claims"], errs[""])
		return h.FailedForm(c, p, err, func() templ.Component { return views.FilterEditorView(p, e) })
	}
	if c.FormValue("op") == "save" {
		saved, err := h.Pools.UpdateFilter(ctx, scope, x.ID, e.Filter, portal.IfMatch(e.Version))
		if portal.Is(err, portal.PreconditionFailed) {
			err = page.ChangedMeanwhile("identity pool "+x.Name, p.Context.Path("identity-pool", x.ID))
		}
		if err != nil {
			return refused(err)
		}
		x, e.Filter, e.TestNote, e.Version = saved, saved.Filter, "Filter saved.", saved.Version
		if !page.IsHTMX(c) {
			return h.Done(c, "Filter of "+x.Name+" saved.", p.Context.Path("identity-pool", x.ID))
		}
		page.Trigger(c, "success", "Filter of "+x.Name+" saved.")
		return page.Fragment(c, http.StatusOK, views.FilterEditorView(p, e))
	}
	var claims map[string]any
	if err := json.Unmarshal([]byte(e.Claims), &claims); err != nil {
		return refused(portal.Invalid("claims", "the sample claims are not a JSON object: %v", err))
	}
	res, err := h.Pools.TestFilter(ctx, scope, e.Filter, claims)
	if err != nil {
		return refused(err)
	}
	e.Tested, e.Matches, e.Reason = true, res.Matches, res.Reason
	if page.IsHTMX(c) {
		return page.Fragment(c, http.StatusOK, views.FilterEditorView(p, e))
	}
	return h.Render(c, http.StatusOK, p, views.PoolPage(p, x, e))
}

func poolForm(p views.Page) views.PoolForm {
	return views.PoolForm{Action: p.Context.Path("identity-pools"), Prefix: p.Context.Prefix, Type: "consumer",
		IdentityClaim: iam.DefaultIdentityClaim, Errors: map[string]string{}, Cancel: p.Context.Path("identity-pools")}
}

func (h *Pages) newPool(c echo.Context) error {
	p, err := h.Scoped(c, "identity-pools", "Create identity pool", views.Crumb{Label: "new"})
	if err != nil {
		return err
	}
	return h.Render(c, http.StatusOK, p, views.PoolFormView(p, poolForm(p)))
}

func (h *Pages) createPool(c echo.Context) error {
	p, err := h.Scoped(c, "identity-pools", "Create identity pool", views.Crumb{Label: "new"})
	if err != nil {
		return err
	}
	f := poolForm(p)
	f.Name, f.Type, f.Description = strings.TrimSpace(c.FormValue("name")), c.FormValue("type"), strings.TrimSpace(c.FormValue("description"))
	f.IdentityClaim, f.Filter = strings.TrimSpace(c.FormValue("identity_claim")), c.FormValue("filter")
	x, err := h.Pools.Create(c.Request().Context(), httpserver.ScopeOf(c), iam.NewPool{Name: f.Name, Type: f.Type,
		Description: f.Description, IdentityClaim: f.IdentityClaim, Filter: f.Filter})
	if err != nil {
		if !page.FieldErrors(err, f.Errors, "name") {
			return err
		}
		return h.FailedForm(c, p, err, func() templ.Component { return views.PoolFormView(p, f) })
	}
	return h.Done(c, "Identity pool "+x.Name+" ("+x.ID+") created.", p.Context.Path("identity-pool", x.ID))
}

func poolDeletion(p views.Page, x iam.Pool, typed, problem string) views.Deletion {
	return views.Deletion{Kind: "identity pool", Name: x.Name + " (" + x.ID + ")", Identifier: x.Identifier, Typed: typed, Problem: problem,
		Consequence: "its role bindings are removed and tokens stop acting as this pool.",
		Action:      p.Context.Path("identity-pool", x.ID, "delete"), Cancel: p.Context.Path("identity-pool", x.ID)}
}

func (h *Pages) confirmDeletePool(c echo.Context) error {
	x, p, err := h.poolForPage(c)
	if err != nil {
		return err
	}
	d := poolDeletion(p, x, "", "")
	im, err := h.Pools.Impact(c.Request().Context(), httpserver.ScopeOf(c), x.ID)
	if err != nil {
		return err
	}
	d.Dependants = im.Dependants
	return h.Render(c, http.StatusOK, p, views.ConfirmDelete(p, d))
}

func (h *Pages) deletePool(c echo.Context) error {
	x, p, err := h.poolForPage(c)
	if err != nil {
		return err
	}
	if typed := strings.TrimSpace(c.FormValue("confirm")); typed != x.Identifier {
		return h.Render(c, http.StatusUnprocessableEntity, p, views.ConfirmDelete(p, poolDeletion(p, x, typed, "Type "+x.Identifier+" exactly to confirm.")))
	}
	// The name was typed: the service is told the pool's id.
	err = h.Pools.Delete(c.Request().Context(), httpserver.ScopeOf(c), x.ID, portal.DeleteOptions{Confirm: x.ID, Reason: c.FormValue("reason")})
	if ps := portal.Problems(err); len(ps) > 1 && ps[1].Field == "dependants" {
		d := poolDeletion(p, x, c.FormValue("confirm"), ps[0].Message)
		if im, ierr := h.Pools.Impact(c.Request().Context(), httpserver.ScopeOf(c), x.ID); ierr == nil {
			d.Dependants = im.Dependants
		}
		d.Reason = c.FormValue("reason")
		return h.Render(c, page.Explain(err, "").Status, p, views.ConfirmDelete(p, d))
	}
	if err != nil {
		return err
	}
	return h.Done(c, "Identity pool "+x.Name+" deleted.", p.Context.Path("identity-pools"))
}
