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

func (a *API) listServiceAccounts(c echo.Context) error {
	q, err := listQuery(c)
	if err != nil {
		return err
	}
	page, err := a.Accounts.List(c.Request().Context(), httpserver.ScopeOf(c), q)
	if err != nil {
		return err
	}
	out := wire.List[wire.ServiceAccount]{Items: make([]wire.ServiceAccount, len(page.Items)), NextPageToken: page.NextPageToken, TotalSize: page.Total}
	for i, s := range page.Items {
		out.Items[i] = present.Account(s, false)
	}
	return c.JSON(http.StatusOK, out)
}

func (a *API) getServiceAccount(c echo.Context) error {
	s, err := a.Accounts.Get(c.Request().Context(), httpserver.ScopeOf(c), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, present.Account(s, true))
}

// accountIn is the service account a create asks for.
func accountIn(r wire.ServiceAccountCreate) iam.NewServiceAccount {
	return iam.NewServiceAccount{Name: r.Name, Type: r.Type, Description: r.Description}
}

func (a *API) createServiceAccount(c echo.Context) error {
	var in wire.ServiceAccountCreate
	if err := decode(c, &in); err != nil {
		return err
	}
	scope := httpserver.ScopeOf(c)
	s, err := a.Accounts.Create(c.Request().Context(), scope, accountIn(in))
	if err != nil {
		return err
	}
	if s.Job != "" {
		// Behind a slow Cloud API: the job goes on, and says how it ended.
		location(c, scope, "service-accounts", "bulk", s.Job)
		return c.JSON(http.StatusAccepted, present.Account(s, true))
	}
	location(c, scope, "service-account", s.ID)
	return c.JSON(http.StatusCreated, present.Account(s, true))
}

// bulkCreateAccounts starts a batch and answers 202 with its Location at
// once, before anything is created: a client keeps the job's address
// whatever happens to the replica that took the request.
func (a *API) bulkCreateServiceAccounts(c echo.Context) error {
	var in wire.BulkCreate
	if err := decode(c, &in); err != nil {
		return err
	}
	items := make([]iam.NewServiceAccount, len(in.Items))
	for i, it := range in.Items {
		items[i] = accountIn(it)
	}
	scope := httpserver.ScopeOf(c)
	job, err := a.Accounts.StartBulk(c.Request().Context(), scope, items)
	if err != nil {
		return err
	}
	location(c, scope, "service-accounts", "bulk", job.ID)
	return c.JSON(http.StatusAccepted, present.BulkJob(job))
}

// bulkJob reports a batch's progress; ?wait=5s waits for its end.
func (a *API) getBulkServiceAccountJob(c echo.Context) error {
	wait, err := durationParam(c, "wait", 30*time.Second)
	if err != nil {
		return err
	}
	job, err := a.Accounts.BulkJob(c.Request().Context(), httpserver.ScopeOf(c), c.Param("job"), wait)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, present.BulkJob(job))
}

func (a *API) updateServiceAccount(c echo.Context) error {
	var in wire.DescriptionUpdate
	if err := decode(c, &in); err != nil {
		return err
	}
	if in.Description == nil {
		return portal.Missing("description")
	}
	s, err := a.Accounts.Update(c.Request().Context(), httpserver.ScopeOf(c), c.Param("id"), *in.Description)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, present.Account(s, false))
}

// deleteAccount deletes an account; ?delete_api_keys=true deletes its
// keys in the same action, which is refused otherwise while it has any.
// With other units' grants given to it, an Admin names it (?confirm=)
// and gives a reason (?reason=); ?dry_run=true answers its impact.
func (a *API) deleteServiceAccount(c echo.Context) error {
	withKeys, err := boolParam(c, "delete_api_keys")
	if err != nil {
		return err
	}
	if dry, err := boolParam(c, "dry_run"); err != nil || dry {
		if err != nil {
			return err
		}
		return a.serviceAccountImpact(c)
	}
	opt := portal.DeleteOptions{WithKeys: withKeys, Confirm: c.QueryParam("confirm"), Reason: c.QueryParam("reason")}
	d, err := a.Accounts.Delete(c.Request().Context(), httpserver.ScopeOf(c), c.Param("id"), opt)
	if err != nil {
		return err
	}
	keys := make([]wire.APIKey, len(d.Keys))
	for i, k := range d.Keys {
		keys[i] = present.APIKey(k)
	}
	return c.JSON(http.StatusOK, wire.AccountDeletion{Deleted: present.Account(d.Account, false), APIKeys: keys, RoleBindings: present.Bindings(d.RoleBindings)})
}

// accountUse lists what uses an account.
func (a *API) serviceAccountUsedBy(c echo.Context) error {
	u, err := a.Accounts.Use(c.Request().Context(), httpserver.ScopeOf(c), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, wire.AccountUse{Connectors: append([]string{}, u.Connectors...)})
}

// accountImpact lists what depends on an account.
func (a *API) serviceAccountImpact(c echo.Context) error {
	im, err := a.Accounts.Impact(c.Request().Context(), httpserver.ScopeOf(c), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, present.Impact(im))
}
