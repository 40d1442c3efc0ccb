package api

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/service"
)

// AccountService is what the API needs of service accounts.
type AccountService interface {
	List(ctx context.Context, bu, stage string, q service.ListQuery) (service.Page[service.ServiceAccount], error)
	Get(ctx context.Context, bu, stage, id string) (service.ServiceAccount, error)
	Create(ctx context.Context, bu, stage string, in service.NewServiceAccount) (service.ServiceAccount, error)
	BulkCreate(ctx context.Context, bu, stage string, items []service.NewServiceAccount, report func(service.BulkResult)) ([]service.BulkResult, error)
}

func (a *API) registerAccounts(route addRoute) {
	route(http.MethodGet, "/:bu/:stage/service-accounts", a.listAccounts)
	route(http.MethodPost, "/:bu/:stage/service-accounts/bulk", a.bulkCreateAccounts)
	route(http.MethodPost, "/:bu/:stage/service-account", a.createAccount)
	route(http.MethodGet, "/:bu/:stage/service-account/:id", a.getAccount)
}

// bulkDeadline is how long a bulk create may take to answer.
const bulkDeadline = 5 * time.Minute

type bindingJSON struct {
	Role     string `json:"role"`
	Resource string `json:"resource"`
	Pattern  string `json:"pattern,omitempty"`
	CRN      string `json:"crn"`
}

func bindingsOut(bs []platform.RoleBinding) []bindingJSON {
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
	Type         string        `json:"type"`
	Description  string        `json:"description"`
	RoleBindings []bindingJSON `json:"role_bindings,omitempty"`
}

func accountOut(s service.ServiceAccount, withBindings bool) accountJSON {
	out := accountJSON{ID: s.ID, Name: s.Name, Identifier: s.Identifier, Type: s.Type, Description: s.Description}
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
	page, err := a.accounts.List(c.Request().Context(), c.Param("bu"), c.Param("stage"), q)
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
	s, err := a.accounts.Get(c.Request().Context(), c.Param("bu"), c.Param("stage"), c.Param("id"))
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

func (r accountRequest) input() service.NewServiceAccount {
	return service.NewServiceAccount{Name: r.Name, Type: r.Type, Description: r.Description}
}

func (a *API) createAccount(c echo.Context) error {
	var in accountRequest
	if err := decode(c, &in); err != nil {
		return err
	}
	bu, stage := c.Param("bu"), c.Param("stage")
	s, err := a.accounts.Create(c.Request().Context(), bu, stage, in.input())
	if err != nil {
		return err
	}
	location(c, bu, stage, "service-account", s.ID)
	return c.JSON(http.StatusCreated, accountOut(s, true))
}

type bulkResultJSON struct {
	Index  int          `json:"index"`
	Status int          `json:"status"`
	Item   *accountJSON `json:"item,omitempty"`
	Error  *ErrorItem   `json:"error,omitempty"`
}

func (a *API) bulkCreateAccounts(c echo.Context) error {
	var in struct {
		Items []accountRequest `json:"items"`
	}
	if err := decode(c, &in); err != nil {
		return err
	}
	items := make([]service.NewServiceAccount, len(in.Items))
	for i, it := range in.Items {
		items[i] = it.input()
	}
	// A hundred accounts with their bindings can outlast the server's
	// write timeout on Confluent Cloud.
	httpserver.ExtendWriteDeadline(c.Response(), bulkDeadline)
	results, err := a.accounts.BulkCreate(c.Request().Context(), c.Param("bu"), c.Param("stage"), items, nil)
	if err != nil {
		return err
	}
	out := make([]bulkResultJSON, len(results))
	for i, r := range results {
		out[i] = bulkResultJSON{Index: r.Index, Status: http.StatusCreated}
		if r.Error != nil {
			out[i].Status = statusOf(r.Error.Kind)
			out[i].Error = &ErrorItem{Type: string(r.Error.Kind), Message: r.Error.Message}
			continue
		}
		item := accountOut(*r.Item, true)
		out[i].Item = &item
	}
	return c.JSON(http.StatusOK, map[string]any{"results": out})
}
