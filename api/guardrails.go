package api

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// policyJSON is a policy as the API reads and writes it.
type policyJSON struct {
	ID          string   `json:"id"`
	LandingZone string   `json:"landing_zone"`
	Description string   `json:"description"`
	Kind        string   `json:"kind"`
	Units       []string `json:"business_units"`
	Stages      []string `json:"stages"`
	Operations  []string `json:"operations"`
	Expression  string   `json:"expression"`
	Message     string   `json:"message"`
	Field       string   `json:"field,omitempty"`
	Action      string   `json:"action"`
	UpdatedBy   string   `json:"updated_by,omitempty"`
	Updated     string   `json:"updated_at,omitempty"`
}

func policyOut(p portal.Policy) policyJSON {
	nonNil := func(s []string) []string {
		if s == nil {
			return []string{}
		}
		return s
	}
	return policyJSON{ID: p.ID, LandingZone: p.Zone, Description: p.Description, Kind: p.Kind, Units: nonNil(p.Units), Stages: nonNil(p.Stages),
		Operations: nonNil(p.Operations), Expression: p.Expression, Message: p.Message, Field: p.Field, Action: p.Action,
		UpdatedBy: p.UpdatedBy, Updated: stamp(p.Updated)}
}

func (j policyJSON) policy() portal.Policy {
	return portal.Policy{ID: j.ID, Zone: j.LandingZone, Description: j.Description, Kind: j.Kind, Units: j.Units, Stages: j.Stages,
		Operations: j.Operations, Expression: j.Expression, Message: j.Message, Field: j.Field, Action: j.Action}
}

func (a *API) listPolicies(c echo.Context) error {
	list, err := a.Guardrails.Policies(c.Request().Context(), c.QueryParam("landing_zone"))
	if err != nil {
		return err
	}
	out := make([]policyJSON, len(list))
	for i, p := range list {
		out[i] = policyOut(p)
	}
	return c.JSON(http.StatusOK, map[string]any{"items": out})
}

func (a *API) getPolicy(c echo.Context) error {
	p, err := a.Guardrails.Policy(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, policyOut(p))
}

func (a *API) createPolicy(c echo.Context) error {
	var in policyJSON
	if err := decode(c, &in); err != nil {
		return err
	}
	p, _, err := a.Guardrails.PutPolicy(c.Request().Context(), in.policy(), true)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, policyOut(p))
}

func (a *API) putPolicy(c echo.Context) error {
	var in policyJSON
	if err := decode(c, &in); err != nil {
		return err
	}
	if in.ID != "" && in.ID != c.Param("id") {
		return portal.Invalid("id", "the body's id %q differs from the path's %q", in.ID, c.Param("id"))
	}
	in.ID = c.Param("id")
	p, created, err := a.Guardrails.PutPolicy(c.Request().Context(), in.policy(), false)
	if err != nil {
		return err
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	return c.JSON(status, policyOut(p))
}

func (a *API) deletePolicy(c echo.Context) error {
	if err := a.Guardrails.DeletePolicy(c.Request().Context(), c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

type policyTestJSON struct {
	Policy    policyJSON      `json:"policy"`
	BU        string          `json:"business_unit"`
	Stage     string          `json:"stage"`
	Operation string          `json:"operation"`
	Resource  json.RawMessage `json:"resource"`
	Before    json.RawMessage `json:"before"`
}

func (a *API) testPolicy(c echo.Context) error {
	var in policyTestJSON
	if err := decode(c, &in); err != nil {
		return err
	}
	v, err := a.Guardrails.TestPolicy(c.Request().Context(), portal.PolicyTest{Policy: in.Policy.policy(), BU: in.BU, Stage: in.Stage,
		Operation: in.Operation, Resource: in.Resource, Before: in.Before})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"covers": v.Covers, "kept": v.Kept, "message": v.Message})
}

type violatorJSON struct {
	BU       string `json:"business_unit"`
	Stage    string `json:"stage"`
	Kind     string `json:"kind"`
	Resource string `json:"resource"`
	Message  string `json:"message"`
}

// policyReport answers a policy's report as JSON, or as CSV with
// ?format=csv.
func (a *API) policyReport(c echo.Context) error {
	r, err := a.Guardrails.Report(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	if strings.EqualFold(c.QueryParam("format"), "csv") {
		return portal.ServePolicyReportCSV(c.Response(), r)
	}
	out := make([]violatorJSON, len(r.Violators))
	for i, v := range r.Violators {
		out[i] = violatorJSON{BU: v.BU, Stage: v.Stage, Kind: v.Kind, Resource: v.Resource, Message: v.Message}
	}
	unread := r.Unread
	if unread == nil {
		unread = []string{}
	}
	return c.JSON(http.StatusOK, map[string]any{"policy": policyOut(r.Policy), "checked": r.Checked, "violations": len(r.Violators),
		"violators": out, "unread": unread})
}

type budgetLineJSON struct {
	Dimension string `json:"dimension"`
	Use       int64  `json:"use"`
	Limit     *int64 `json:"limit"`
	Unbounded int    `json:"unbounded_topics,omitempty"`
}

type budgetJSON struct {
	BU        string           `json:"business_unit"`
	Stage     string           `json:"stage"`
	Zone      string           `json:"landing_zone"`
	Lines     []budgetLineJSON `json:"budgets"`
	UpdatedBy string           `json:"updated_by,omitempty"`
	Updated   string           `json:"updated_at,omitempty"`
	Warnings  []string         `json:"warnings"`
}

func budgetLines(lines []portal.BudgetLine) []budgetLineJSON {
	out := make([]budgetLineJSON, len(lines))
	for i, l := range lines {
		out[i] = budgetLineJSON(l)
	}
	return out
}

func budgetOut(b portal.Budget) budgetJSON {
	w := b.Warnings
	if w == nil {
		w = []string{}
	}
	return budgetJSON{BU: b.BU, Stage: b.Stage, Zone: b.Zone, Lines: budgetLines(b.Lines), UpdatedBy: b.UpdatedBy, Updated: stamp(b.Updated), Warnings: w}
}

func (a *API) unitBudget(c echo.Context) error {
	b, err := a.Guardrails.UnitBudget(c.Request().Context(), httpserver.ScopeOf(c), false)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, budgetOut(b))
}

type clusterUseJSON struct {
	Zone       string `json:"landing_zone"`
	Stage      string `json:"stage"`
	Cluster    string `json:"cluster"`
	Partitions int64  `json:"partitions"`
	Limit      int64  `json:"partition_limit"`
	Source     string `json:"limit_source,omitempty"`
	Warning    bool   `json:"warning"`
}

func (a *API) listBudgets(c echo.Context) error {
	o, err := a.Guardrails.Budgets(c.Request().Context())
	if err != nil {
		return err
	}
	budgets := make([]budgetJSON, len(o.Budgets))
	for i, b := range o.Budgets {
		budgets[i] = budgetOut(b)
	}
	clusters := make([]clusterUseJSON, len(o.Clusters))
	for i, cl := range o.Clusters {
		clusters[i] = clusterUseJSON(cl)
	}
	return c.JSON(http.StatusOK, map[string]any{"items": budgets, "clusters": clusters})
}

func (a *API) setBudget(c echo.Context) error {
	var in struct {
		Limits map[string]int64 `json:"limits"`
	}
	if err := decode(c, &in); err != nil {
		return err
	}
	b, err := a.Guardrails.SetBudget(c.Request().Context(), c.Param("bu"), c.Param("stage"), in.Limits)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, budgetOut(b))
}
