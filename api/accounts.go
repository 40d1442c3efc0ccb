package api

import (
	"cmp"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
)

type bindingJSON struct {
	Role     string `json:"role"`
	Resource string `json:"resource"`
	Pattern  string `json:"pattern,omitempty"`
	CRN      string `json:"crn"`
}

func bindingsOut(bs []portal.RoleBinding) []bindingJSON {
	out := []bindingJSON{}
	for _, b := range bs {
		out = append(out, bindingJSON{Role: b.Role, Resource: b.Resource, Pattern: b.Pattern, CRN: b.CRN})
	}
	return out
}

type accountJSON struct {
	ID           string        `json:"id"`
	Name         string        `json:"name"`
	Identifier   string        `json:"identifier"`
	BusinessUnit string        `json:"business_unit,omitempty"`
	Outside      bool          `json:"outside_convention"`
	ReadOnly     bool          `json:"read_only"`
	Type         string        `json:"type"`
	Description  string        `json:"description"`
	RoleBindings []bindingJSON `json:"role_bindings,omitempty"`
	// Job is the job still making the account (a 202): its Location
	// reports the account once made, or why not.
	Job string `json:"job,omitempty"`
}

func accountOut(s portal.ServiceAccount, withBindings bool) accountJSON {
	out := accountJSON{ID: s.ID, Name: s.Name, Identifier: s.Identifier, BusinessUnit: s.BU, Outside: s.OutsideConvention,
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
	out := listResponse[accountJSON]{Items: make([]accountJSON, len(page.Items)), NextPageToken: page.NextPageToken, TotalSize: page.Total}
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

type accountRequest struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Description string `json:"description"`
}

func (r accountRequest) input() portal.NewServiceAccount {
	return portal.NewServiceAccount{Name: r.Name, Type: r.Type, Description: r.Description}
}

func (a *API) createAccount(c echo.Context) error {
	var in accountRequest
	if err := decode(c, &in); err != nil {
		return err
	}
	scope := httpserver.ScopeOf(c)
	s, err := a.Accounts.Create(c.Request().Context(), scope, in.input())
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

type bulkResultJSON struct {
	Index int    `json:"index"`
	Name  string `json:"name"`
	// Status is the status a single create would have had; 0 while pending.
	Status  int  `json:"status,omitempty"`
	Pending bool `json:"pending,omitempty"`
	// Outcome is created or completed (an account that existed without
	// all of its type's role bindings) for an item that succeeded.
	Outcome string       `json:"outcome,omitempty"`
	Item    *accountJSON `json:"item,omitempty"`
	Error   *ErrorItem   `json:"error,omitempty"`
}

type bulkJobJSON struct {
	ID      string           `json:"id"`
	State   string           `json:"state"`
	Total   int              `json:"total"`
	Done    int              `json:"done"`
	Error   string           `json:"error,omitempty"`
	Results []bulkResultJSON `json:"results"`
}

func bulkJobOut(j portal.BulkJob) bulkJobJSON {
	out := bulkJobJSON{ID: j.ID, State: j.State, Total: len(j.Items), Done: j.Done(), Error: j.Error,
		Results: make([]bulkResultJSON, len(j.Items))}
	for i, it := range j.Items {
		row := bulkResultJSON{Index: i, Name: it.Name, Pending: true}
		if r := j.Results[i]; r != nil {
			row.Pending = false
			if r.Error != nil {
				row.Status = r.Error.Kind.Status()
				row.Error = &ErrorItem{Type: string(r.Error.Kind), Message: r.Error.Message}
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
	var in struct {
		Items []accountRequest `json:"items"`
	}
	if err := decode(c, &in); err != nil {
		return err
	}
	items := make([]portal.NewServiceAccount, len(in.Items))
	for i, it := range in.Items {
		items[i] = it.input()
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
	var in struct {
		Description *string `json:"description"`
	}
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
	keys := make([]apiKeyJSON, len(d.Keys))
	for i, k := range d.Keys {
		keys[i] = keyOut(k)
	}
	return c.JSON(http.StatusOK, map[string]any{"deleted": accountOut(d.Account, false), "api_keys": keys, "role_bindings": bindingsOut(d.RoleBindings)})
}

// accountUse lists what uses an account.
func (a *API) accountUse(c echo.Context) error {
	u, err := a.Accounts.Use(c.Request().Context(), httpserver.ScopeOf(c), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"connectors": append([]string{}, u.Connectors...)})
}

// accountImpact lists what depends on an account.
func (a *API) accountImpact(c echo.Context) error {
	im, err := a.Accounts.Impact(c.Request().Context(), httpserver.ScopeOf(c), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, impactOut(im))
}
