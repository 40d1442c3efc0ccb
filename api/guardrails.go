package api

import (
	"net/http"
	"strings"

	"github.com/edh-platform/rms-portal/internal/portal/policy"
	"github.com/edh-platform/rms-portal/internal/wire"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/api/present"
	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// policyIn is the policy a create or replace asks for.
func policyIn(j wire.Policy) policy.Policy {
	return policy.Policy{ID: j.ID, Zone: j.LandingZone, Description: j.Description, Kind: string(j.Kind), Units: j.Units, Stages: j.Stages,
		Operations: j.Operations, Expression: j.Expression, Message: j.Message, Field: j.Field, Action: j.Action}
}

func (a *API) listPolicies(c echo.Context) error {
	list, err := a.Guardrails.Policies(c.Request().Context(), c.QueryParam("landing_zone"))
	if err != nil {
		return err
	}
	out := make([]wire.Policy, len(list))
	for i, p := range list {
		out[i] = present.Policy(p)
	}
	return listOf(c, out)
}

func (a *API) getPolicy(c echo.Context) error {
	p, err := a.Guardrails.Policy(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, present.Policy(p))
}

func (a *API) createPolicy(c echo.Context) error {
	var in wire.Policy
	if err := decode(c, &in); err != nil {
		return err
	}
	p, _, err := a.Guardrails.PutPolicy(c.Request().Context(), policyIn(in), true)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, present.Policy(p))
}

func (a *API) putPolicy(c echo.Context) error {
	var in wire.Policy
	if err := decode(c, &in); err != nil {
		return err
	}
	if in.ID != "" && in.ID != c.Param("id") {
		return portal.Invalid("id", "the body's id %q differs from the path's %q", in.ID, c.Param("id"))
	}
	in.ID = c.Param("id")
	p, created, err := a.Guardrails.PutPolicy(c.Request().Context(), policyIn(in), false)
	if err != nil {
		return err
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	return c.JSON(status, present.Policy(p))
}

func (a *API) deletePolicy(c echo.Context) error {
	if err := a.Guardrails.DeletePolicy(c.Request().Context(), c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (a *API) testPolicy(c echo.Context) error {
	var in wire.PolicyTest
	if err := decode(c, &in); err != nil {
		return err
	}
	v, err := a.Guardrails.TestPolicy(c.Request().Context(), policy.PolicyTest{Policy: policyIn(in.Policy), BU: in.BU, Stage: in.Stage,
		Operation: in.Operation, Resource: in.Resource, Before: in.Before})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, wire.PolicyTestResult{Covers: v.Covers, Kept: v.Kept, Message: v.Message})
}

// policyReport answers a policy's report as JSON, or as CSV with
// ?format=csv.
func (a *API) policyReport(c echo.Context) error {
	r, err := a.Guardrails.Report(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	if strings.EqualFold(c.QueryParam("format"), "csv") {
		return policy.ServePolicyReportCSV(c.Response(), r)
	}
	out := make([]wire.PolicyViolator, len(r.Violators))
	for i, v := range r.Violators {
		out[i] = wire.PolicyViolator{BU: v.BU, Stage: v.Stage, Kind: v.Kind, Resource: v.Resource, Message: v.Message}
	}
	unread := r.Unread
	if unread == nil {
		unread = []string{}
	}
	return c.JSON(http.StatusOK, wire.PolicyReport{Policy: present.Policy(r.Policy), Checked: r.Checked, Violations: len(r.Violators),
		Violators: out, Unread: unread})
}

func (a *API) unitBudget(c echo.Context) error {
	b, err := a.Guardrails.UnitBudget(c.Request().Context(), httpserver.ScopeOf(c), false)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, present.Budget(b))
}

func (a *API) listBudgets(c echo.Context) error {
	o, err := a.Guardrails.Budgets(c.Request().Context())
	if err != nil {
		return err
	}
	budgets := make([]wire.Budget, len(o.Budgets))
	for i, b := range o.Budgets {
		budgets[i] = present.Budget(b)
	}
	clusters := make([]wire.ClusterUse, len(o.Clusters))
	for i, cl := range o.Clusters {
		clusters[i] = wire.ClusterUse(cl)
	}
	return c.JSON(http.StatusOK, wire.BudgetOverview{Items: budgets, Clusters: clusters})
}

func (a *API) setBudget(c echo.Context) error {
	var in wire.BudgetSet
	if err := decode(c, &in); err != nil {
		return err
	}
	b, err := a.Guardrails.SetBudget(c.Request().Context(), c.Param("bu"), c.Param("stage"), in.Limits)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, present.Budget(b))
}
