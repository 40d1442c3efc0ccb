package api

import (
	"net/http"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal/iam"
	"github.com/edh-platform/rms-portal/internal/wire"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/api/present"
	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// createdKey answers a key just made: its secret and client configuration
// once, never cached.
func createdKey(c echo.Context, scope portal.Scope, k iam.CreatedAPIKey) error {
	location(c, scope, "api-key", k.ID)
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusCreated, present.CreatedAPIKey(k))
}

// spanParam reads an optional span of time ("7d", "36h").
func spanParam(c echo.Context, name string) (time.Duration, error) {
	s := c.QueryParam(name)
	if s == "" {
		return 0, nil
	}
	d, err := iam.ParseSpan(s)
	if err != nil || d < 0 {
		return 0, portal.Invalid(name, "%s must be a number of days (7d) or a duration (36h), not %q", name, s)
	}
	return d, nil
}

// listServiceAccountAPIKeys is listAPIKeys of the account in the path.
func (a *API) listServiceAccountAPIKeys(c echo.Context) error { return a.listAPIKeys(c) }

func (a *API) listAPIKeys(c echo.Context) error {
	q, err := listQuery(c)
	if err != nil {
		return err
	}
	within, err := spanParam(c, "expiring_within")
	if err != nil {
		return err
	}
	kq := iam.APIKeyQuery{ListQuery: q, ExpiringWithin: within, Account: c.QueryParam("account")}
	if id := c.Param("id"); id != "" {
		kq.Account = id
	}
	page, err := a.APIKeys.List(c.Request().Context(), httpserver.ScopeOf(c), kq)
	if err != nil {
		return err
	}
	out := wire.List[wire.APIKey]{Items: make([]wire.APIKey, len(page.Items)), NextPageToken: page.NextPageToken, TotalSize: page.Total}
	for i, k := range page.Items {
		out.Items[i] = present.APIKey(k)
	}
	return c.JSON(http.StatusOK, out)
}

func (a *API) getAPIKey(c echo.Context) error {
	k, err := a.APIKeys.Get(c.Request().Context(), httpserver.ScopeOf(c), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, present.APIKey(k))
}

func (a *API) createAPIKey(c echo.Context) error {
	var in wire.APIKeyCreate
	if err := decode(c, &in); err != nil {
		return err
	}
	n := iam.NewAPIKey{Resource: in.Resource, Description: in.Description}
	if in.Expires != nil {
		n.Expires = *in.Expires
	}
	scope := httpserver.ScopeOf(c)
	k, err := a.APIKeys.Create(c.Request().Context(), scope, c.Param("id"), n)
	if err != nil {
		return err
	}
	return createdKey(c, scope, k)
}

func (a *API) rotateAPIKey(c echo.Context) error {
	var in wire.APIKeyRotate
	if err := decodeOptional(c, &in); err != nil {
		return err
	}
	overlap := iam.DefaultOverlap
	if in.Overlap != "" {
		d, err := iam.ParseSpan(in.Overlap)
		if err != nil {
			return portal.Invalid("overlap", "overlap must be a number of days (1d) or a duration (36h), not %q", in.Overlap)
		}
		overlap = d
	}
	scope := httpserver.ScopeOf(c)
	k, err := a.APIKeys.Rotate(c.Request().Context(), scope, c.Param("id"), overlap)
	if err != nil {
		return err
	}
	return createdKey(c, scope, k)
}

func (a *API) updateAPIKey(c echo.Context) error {
	var in wire.DescriptionUpdate
	if err := decode(c, &in); err != nil {
		return err
	}
	if in.Description == nil {
		return portal.Missing("description")
	}
	k, err := a.APIKeys.Update(c.Request().Context(), httpserver.ScopeOf(c), c.Param("id"), *in.Description)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, present.APIKey(k))
}

func (a *API) deleteAPIKey(c echo.Context) error {
	if err := a.APIKeys.Delete(c.Request().Context(), httpserver.ScopeOf(c), c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
