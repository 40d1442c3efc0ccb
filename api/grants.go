package api

import (
	"context"
	"net/http"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/grant"
	"github.com/edh-platform/rms-portal/internal/wire"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/api/present"
	"github.com/edh-platform/rms-portal/internal/httpserver"
)

// requestGrant asks another unit of the zone for access to its topic.
func (a *API) requestGrant(c echo.Context) error {
	var in wire.GrantRequest
	if err := decode(c, &in); err != nil {
		return err
	}
	g, err := a.Grants.RequestGrant(c.Request().Context(), httpserver.ScopeOf(c), grant.NewTopicGrant(in))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, present.Grant(g))
}

// listGrants lists the grants the unit gave or received (?side=, ?state=,
// ?topic=).
func (a *API) listGrants(c echo.Context) error {
	lq, err := listQuery(c)
	if err != nil {
		return err
	}
	q := grant.GrantQuery{ListQuery: lq, Side: c.QueryParam("side"), State: c.QueryParam("state"), Topic: c.QueryParam("topic"),
		Expiring: c.QueryParam("expiring") == "true"}
	page, err := a.Grants.Grants(c.Request().Context(), httpserver.ScopeOf(c), q)
	if err != nil {
		return err
	}
	out := wire.List[wire.Grant]{Items: make([]wire.Grant, len(page.Items)), NextPageToken: page.NextPageToken, TotalSize: page.Total}
	for i, g := range page.Items {
		out.Items[i] = present.Grant(g)
	}
	return c.JSON(http.StatusOK, out)
}

func (a *API) getGrant(c echo.Context) error {
	g, err := a.Grants.Grant(c.Request().Context(), httpserver.ScopeOf(c), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, present.Grant(g))
}

// grantStep runs one step on a grant with the body's optional comment.
func (a *API) grantStep(c echo.Context, step func(ctx context.Context, scope portal.Scope, id, comment string) (grant.TopicGrant, error)) error {
	comment, err := decision(c)
	if err != nil {
		return err
	}
	g, err := step(c.Request().Context(), httpserver.ScopeOf(c), c.Param("id"), comment)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, present.Grant(g))
}

func (a *API) approveGrant(c echo.Context) error { return a.grantStep(c, a.Grants.ApproveGrant) }

func (a *API) rejectGrant(c echo.Context) error { return a.grantStep(c, a.Grants.RejectGrant) }

func (a *API) revokeGrant(c echo.Context) error { return a.grantStep(c, a.Grants.RevokeGrant) }

func (a *API) withdrawGrant(c echo.Context) error {
	return a.grantStep(c, func(ctx context.Context, scope portal.Scope, id, _ string) (grant.TopicGrant, error) {
		return a.Grants.WithdrawGrant(ctx, scope, id)
	})
}
