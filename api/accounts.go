package api

import (
	"cmp"
	"net/http"
	"time"

	"github.com/edh-platform/rms-portal/internal/wire"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
)

func bindingsOut(bs []portal.RoleBinding) []wire.RoleBinding {
	out := []wire.RoleBinding{}
	for _, b := range bs {
		out = append(out, wire.RoleBinding{Role: b.Role, Resource: b.Resource, Pattern: b.Pattern, CRN: b.CRN})
	}
	return out
}

func accountOut(s portal.ServiceAccount, withBindings bool) wire.ServiceAccount {
	out := wire.ServiceAccount{ID: s.ID, Name: s.Name, Identifier: s.Identifier, BusinessUnit: s.BU, Outside: s.OutsideConvention,
		ReadOnly: s.ReadOnly, Type: s.Type, Description: s.Description, Job: s.Job}
	if withBindings {
		out.RoleBindings = bindingsOut(s.RoleBindings)
	}
	return out
}

func (a *API) listAccounts(c echo.Context) error {
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
		out.Items[i] = accountOut(s, false)
	}
	return c.JSON(http.StatusOK, out)
}

func (a *API) getAccount(c echo.Context) error {
	s, err := a.Accounts.Get(c.Request().Context(), httpserver.ScopeOf(c), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, accountOut(s, true))
}

// accountIn is the service account a create asks for.
func accountIn(r wire.ServiceAccountCreate) portal.NewServiceAccount {
	return portal.NewServiceAccount{Name: r.Name, Type: r.Type, Description: r.Description}
}

func (a *API) createAccount(c echo.Context) error {
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
		return c.JSON(http.StatusAccepted, accountOut(s, true))
	}
	location(c, scope, "service-account", s.ID)
	return c.JSON(http.StatusCreated, accountOut(s, true))
}

func bulkJobOut(j portal.BulkJob) wire.BulkResults {
	out := wire.BulkResults{ID: j.ID, State: j.State, Total: len(j.Items), Done: j.Done(), Error: j.Error,
		Results: make([]wire.BulkResult, len(j.Items))}
	for i, it := range j.Items {
		row := wire.BulkResult{Index: i, Name: it.Name, Pending: true}
		if r := j.Results[i]; r != nil {
			row.Pending = false
			if r.Error != nil {
				row.Status = r.Error.Kind.Status()
				row.Error = &wire.ErrorItem{Type: string(r.Error.Kind), Message: r.Error.Message}
			} else {
				item := accountOut(*r.Item, true)
				row.Status, row.Name, row.Item, row.Outcome = http.StatusCreated, r.Item.Name, &item, cmp.Or(r.Outcome, portal.BulkCreated)
				if r.Outcome == portal.BulkCompleted {
					row.Status = http.StatusOK
				}
			}
		}
		out.Results[i] = row
	}
	return out
}

// bulkCreateAccounts starts a batch and answers 202 with its Location at
// once, before anything is created: a client keeps the job's address
// whatever happens to the replica that took the request.
func (a *API) bulkCreateAccounts(c echo.Context) error {
	var in wire.BulkCreate
	if err := decode(c, &in); err != nil {
		return err
	}
	items := make([]portal.NewServiceAccount, len(in.Items))
	for i, it := range in.Items {
		items[i] = accountIn(it)
	}
	scope := httpserver.ScopeOf(c)
	job, err := a.Accounts.StartBulk(c.Request().Context(), scope, items)
	if err != nil {
		return err
	}
	location(c, scope, "service-accounts", "bulk", job.ID)
	return c.JSON(http.StatusAccepted, bulkJobOut(job))
}

// bulkJob reports a batch's progress; ?wait=5s waits for its end.
func (a *API) bulkJob(c echo.Context) error {
	wait, err := durationParam(c, "wait", 30*time.Second)
	if err != nil {
		return err
	}
	job, err := a.Accounts.BulkJob(c.Request().Context(), httpserver.ScopeOf(c), c.Param("job"), wait)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, bulkJobOut(job))
}

func (a *API) updateAccount(c echo.Context) error {
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
	return c.JSON(http.StatusOK, accountOut(s, false))
}

// deleteAccount deletes an account; ?delete_api_keys=true deletes its
// keys in the same action, which is refused otherwise while it has any.
// With other units' grants given to it, an Admin names it (?confirm=)
// and gives a reason (?reason=); ?dry_run=true answers its impact.
func (a *API) deleteAccount(c echo.Context) error {
	withKeys, err := boolParam(c, "delete_api_keys")
	if err != nil {
		return err
	}
	if dry, err := boolParam(c, "dry_run"); err != nil || dry {
		if err != nil {
			return err
		}
		return a.accountImpact(c)
	}
	opt := portal.DeleteOptions{WithKeys: withKeys, Confirm: c.QueryParam("confirm"), Reason: c.QueryParam("reason")}
	d, err := a.Accounts.Delete(c.Request().Context(), httpserver.ScopeOf(c), c.Param("id"), opt)
	if err != nil {
		return err
	}
	keys := make([]wire.APIKey, len(d.Keys))
	for i, k := range d.Keys {
		keys[i] = keyOut(k)
	}
	return c.JSON(http.StatusOK, wire.AccountDeletion{Deleted: accountOut(d.Account, false), APIKeys: keys, RoleBindings: bindingsOut(d.RoleBindings)})
}

// accountUse lists what uses an account.
func (a *API) accountUse(c echo.Context) error {
	u, err := a.Accounts.Use(c.Request().Context(), httpserver.ScopeOf(c), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, wire.AccountUse{Connectors: append([]string{}, u.Connectors...)})
}

// accountImpact lists what depends on an account.
func (a *API) accountImpact(c echo.Context) error {
	im, err := a.Accounts.Impact(c.Request().Context(), httpserver.ScopeOf(c), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, impactOut(im))
}
