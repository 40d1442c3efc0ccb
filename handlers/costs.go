package handlers

import (
	"encoding/csv"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/handlers/page"
	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/cost"
	"github.com/edh-platform/rms-portal/views"
)

// costs is a unit's month in a stage; ?format=csv is the same numbers as
// a table (the days, or with group_by=line the shares, or topic).
func (h *Handlers) costs(c echo.Context) error {
	scope := httpserver.ScopeOf(c)
	now := time.Now().UTC()
	month := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
	if m := c.QueryParam("month"); m != "" {
		t, err := time.Parse("2006-01", m)
		if err != nil {
			return portal.Invalid("month", "month is yyyy-mm (2026-11), not %q", m)
		}
		month = t
	}
	to := month.AddDate(0, 1, 0)
	ctx := c.Request().Context()
	if c.QueryParam("format") == "csv" {
		r, err := h.Costs.Costs(ctx, scope, cost.CostQuery{From: month, To: to, GroupBy: c.QueryParam("group_by"), Limit: 1000})
		if err != nil {
			return err
		}
		c.Response().Header().Set(echo.HeaderContentType, "text/csv; charset=utf-8")
		c.Response().Header().Set("Content-Disposition", `attachment; filename="costs-`+r.Unit+"-"+r.Stage+"-"+month.Format("2006-01")+`.csv"`)
		c.Response().WriteHeader(http.StatusOK)
		return csv.NewWriter(c.Response()).WriteAll(r.Rows())
	}
	p, err := h.Page(c, "Costs", "costs", scope)
	if err != nil {
		return err
	}
	r, err := h.Costs.Costs(ctx, scope, cost.CostQuery{From: month, To: to, GroupBy: "topic", Limit: 20})
	if err != nil {
		return err
	}
	var lines cost.CostReport
	if n := len(r.Days); n > 0 {
		last := r.Days[n-1].Day
		if lines, err = h.Costs.Costs(ctx, scope, cost.CostQuery{From: last, To: last.AddDate(0, 0, 1), GroupBy: "line"}); err != nil {
			return err
		}
	}
	p.Subtitle = "what " + scope.BU + " used and cost in " + scope.Stage + ", split from Confluent Cloud's bill"
	return h.Render(c, http.StatusOK, p, views.CostsPage(p, r, month, lines))
}

// unitBudget is a unit's use against its budget; ?panel=1 answers the
// topics page's panel alone.
func (h *Handlers) unitBudget(c echo.Context) error {
	panel := c.QueryParam("panel") == "1"
	if c.QueryParam("panel") == "headroom" {
		// The room left, on a form that spends it (topics); a form does
		// without it when the budget cannot be read.
		b, err := h.Guardrails.UnitBudget(c.Request().Context(), httpserver.ScopeOf(c), true)
		if err != nil {
			return c.NoContent(http.StatusNoContent)
		}
		return page.Fragment(c, http.StatusOK, views.BudgetHeadroom(b, []string{portal.BudgetTopics, portal.BudgetPartitions, portal.BudgetStorageBytes}))
	}
	b, err := h.Guardrails.UnitBudget(c.Request().Context(), httpserver.ScopeOf(c), panel)
	if panel {
		if err != nil {
			// The panel is an extra: the topics page does without it.
			return c.NoContent(http.StatusNoContent)
		}
		return page.Fragment(c, http.StatusOK, views.BudgetPanel(b))
	}
	if err != nil {
		return err
	}
	p, err := h.Scoped(c, "budget", "Budget")
	if err != nil {
		return err
	}
	return h.Render(c, http.StatusOK, p, views.UnitBudgetPage(p, b))
}
