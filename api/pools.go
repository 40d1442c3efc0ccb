package api

import (
	"net/http"

	"github.com/edh-platform/rms-portal/internal/portal/iam"
	"github.com/edh-platform/rms-portal/internal/wire"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/api/present"
	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
)

func (a *API) listIdentityPools(c echo.Context) error {
	q, err := listQuery(c)
	if err != nil {
		return err
	}
	page, err := a.Pools.List(c.Request().Context(), httpserver.ScopeOf(c), q)
	if err != nil {
		return err
	}
	out := wire.List[wire.IdentityPool]{Items: make([]wire.IdentityPool, len(page.Items)), NextPageToken: page.NextPageToken, TotalSize: page.Total}
	for i, p := range page.Items {
		out.Items[i] = present.Pool(p, false)
	}
	return c.JSON(http.StatusOK, out)
}

func (a *API) getIdentityPool(c echo.Context) error {
	p, err := a.Pools.Get(c.Request().Context(), httpserver.ScopeOf(c), c.Param("id"))
	if err != nil {
		return err
	}
	etag(c, p.Version)
	return c.JSON(http.StatusOK, present.Pool(p, true))
}

func (a *API) createIdentityPool(c echo.Context) error {
	var in wire.IdentityPoolCreate
	if err := decode(c, &in); err != nil {
		return err
	}
	scope := httpserver.ScopeOf(c)
	p, err := a.Pools.Create(c.Request().Context(), scope, iam.NewPool(in))
	if err != nil {
		return err
	}
	location(c, scope, "identity-pool", p.ID)
	return c.JSON(http.StatusCreated, present.Pool(p, true))
}

func (a *API) updateIdentityPoolFilter(c echo.Context) error {
	var in wire.IdentityPoolFilterUpdate
	if err := decode(c, &in); err != nil {
		return err
	}
	filter := ""
	if in.Filter != nil {
		filter = *in.Filter
	}
	p, err := a.Pools.UpdateFilter(c.Request().Context(), httpserver.ScopeOf(c), c.Param("id"), filter, ifMatch(c))
	if err != nil {
		return err
	}
	etag(c, p.Version)
	return c.JSON(http.StatusOK, present.Pool(p, false))
}

// deletePool deletes a pool; with other units' grants given to it, an
// Admin names it (?confirm=) and gives a reason (?reason=); ?dry_run=true
// answers its impact.
func (a *API) deleteIdentityPool(c echo.Context) error {
	if dry, err := boolParam(c, "dry_run"); err != nil || dry {
		if err != nil {
			return err
		}
		return a.identityPoolImpact(c)
	}
	opt := portal.DeleteOptions{IfMatch: ifMatch(c), Confirm: c.QueryParam("confirm"), Reason: c.QueryParam("reason")}
	if err := a.Pools.Delete(c.Request().Context(), httpserver.ScopeOf(c), c.Param("id"), opt); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// poolImpact lists what depends on a pool.
func (a *API) identityPoolImpact(c echo.Context) error {
	im, err := a.Pools.Impact(c.Request().Context(), httpserver.ScopeOf(c), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, present.Impact(im))
}

func (a *API) testIdentityPoolFilter(c echo.Context) error {
	var in wire.FilterTest
	if err := decode(c, &in); err != nil {
		return err
	}
	r, err := a.Pools.TestFilter(c.Request().Context(), httpserver.ScopeOf(c), in.Filter, in.Claims)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, wire.FilterTestResult{Matches: r.Matches, Reason: r.Reason})
}
