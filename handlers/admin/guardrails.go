package admin

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/handlers/page"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/adminarea"
	"github.com/edh-platform/rms-portal/internal/portal/policy"
	"github.com/edh-platform/rms-portal/views"
)

func (h *Pages) listPolicies(c echo.Context) error {
	p, area, err := h.adminPage(c, "Policies", views.Crumb{Label: "policies"})
	if err != nil {
		return err
	}
	list, err := h.Guardrails.Policies(c.Request().Context(), "")
	if err != nil {
		return err
	}
	return h.Render(c, http.StatusOK, p, views.PoliciesPage(p, area, list))
}

// policySamples are a sample resource per kind for the test box.
var policySamples = map[string]string{
	portal.KindTopic:          `{"name": "edh-shared-scada-dev-readings", "identifier": "readings", "partitions": 24, "config": {"retention.ms": "-1"}}`,
	portal.KindConnector:      `{"name": "edh-shared-scada-dev-s3-connector", "class": "S3_SINK", "tasks": 2, "topics": ["edh-shared-scada-dev-readings"], "config": {}}`,
	portal.KindSchema:         `{"subject": "edh-shared-scada-run-readings-value", "schema_type": "AVRO", "compatibility": "NONE", "schema": "{}"}`,
	portal.KindServiceAccount: `{"name": "sa-edh-shared-scada-dev-usr-ingest-producer", "identifier": "ingest", "description": ""}`,
	portal.KindIdentityPool:   `{"name": "edh-shared-scada-dev-ops-consumer", "filter": "claims.sub == \"x\"", "identity_claim": "claims.sub"}`,
	portal.KindAPIKey:         `{"owner": "sa-edh-shared-scada-dev-usr-ingest-producer", "resource": "kafka", "max_age_hours": 2160}`,
}

// policyForm fills the editor from a policy.
func (h *Pages) policyForm(area adminarea.AdminArea, pol policy.Policy, isNew bool) views.PolicyForm {
	f := views.PolicyForm{New: isNew, ID: pol.ID, Zone: pol.Zone, Description: pol.Description, Kind: pol.Kind, Units: strings.Join(pol.Units, ", "),
		Stages: strings.Join(pol.Stages, ", "), Operations: policy.PolicyOps(pol), Expression: pol.Expression, Message: pol.Message, Field: pol.Field,
		Action: pol.Action, Zones: area.Zones, Errors: map[string]string{}, TestOperation: policy.OpCreate, TestStage: "dev"}
	if f.Kind == "" {
		f.Kind = portal.KindTopic
	}
	f.TestSample = policySamples[f.Kind]
	return f
}

func (h *Pages) newPolicy(c echo.Context) error {
	p, area, err := h.adminPage(c, "New policy", views.Crumb{Label: "policies", Href: "/admin/policies"}, views.Crumb{Label: "new"})
	if err != nil {
		return err
	}
	if !area.Platform {
		// Only platform admins write policies: the form is theirs.
		return portal.New(portal.NotFound, "not found")
	}
	pol := policy.Policy{Kind: portal.KindTopic, Action: policy.PolicyReportOnly, Expression: "resource.partitions <= 12",
		Message: "at most 12 partitions, not ${resource.partitions}", Field: "partitions_count"}
	if len(area.Zones) > 0 {
		pol.Zone = area.Zones[0]
	}
	return h.Render(c, http.StatusOK, p, views.PolicyPage(p, area, h.policyForm(area, pol, true)))
}

func (h *Pages) showPolicy(c echo.Context) error {
	id := c.Param("id")
	p, area, err := h.adminPage(c, "Policy "+id, views.Crumb{Label: "policies", Href: "/admin/policies"}, views.Crumb{Label: id})
	if err != nil {
		return err
	}
	pol, err := h.Guardrails.Policy(c.Request().Context(), id)
	if err != nil {
		return err
	}
	return h.Render(c, http.StatusOK, p, views.PolicyPage(p, area, h.policyForm(area, pol, false)))
}

// readPolicyForm reads the editor (and its test box) as sent.
func readPolicyForm(c echo.Context, f *views.PolicyForm) policy.Policy {
	split := func(s string) []string {
		var out []string
		for _, x := range strings.Split(s, ",") {
			if x = strings.TrimSpace(x); x != "" {
				out = append(out, x)
			}
		}
		return out
	}
	f.ID, f.Zone, f.Description = strings.TrimSpace(c.FormValue("id")), c.FormValue("landing_zone"), c.FormValue("description")
	f.Kind, f.Units, f.Stages = c.FormValue("kind"), c.FormValue("business_units"), c.FormValue("stages")
	form, _ := c.FormParams()
	f.Operations = form["operations"]
	f.Expression, f.Message, f.Field, f.Action = c.FormValue("expression"), c.FormValue("message"), strings.TrimSpace(c.FormValue("field")), c.FormValue("action")
	f.TestBU, f.TestStage, f.TestOperation = c.FormValue("test_business_unit"), c.FormValue("test_stage"), c.FormValue("test_operation")
	f.TestSample, f.TestBefore = c.FormValue("test_resource"), c.FormValue("test_before")
	ops := f.Operations
	if len(ops) == 2 && ops[0] == policy.OpCreate && ops[1] == policy.OpUpdate {
		ops = nil // the default
	}
	return policy.Policy{ID: f.ID, Zone: f.Zone, Description: f.Description, Kind: f.Kind, Units: split(f.Units), Stages: split(f.Stages),
		Operations: ops, Expression: f.Expression, Message: f.Message, Field: f.Field, Action: f.Action}
}

// savePolicy creates (path without id) or replaces a policy from the
// editor, then shows its report.
func (h *Pages) savePolicy(c echo.Context) error {
	id := c.Param("id")
	p, area, err := h.adminPage(c, "Policy", views.Crumb{Label: "policies", Href: "/admin/policies"}, views.Crumb{Label: "edit"})
	if err != nil {
		return err
	}
	f := views.PolicyForm{New: id == "", Zones: area.Zones, Errors: map[string]string{}}
	pol := readPolicyForm(c, &f)
	if id != "" {
		pol.ID, f.ID = id, id
	}
	saved, _, err := h.Guardrails.PutPolicy(c.Request().Context(), pol, id == "")
	if err == nil {
		return h.Done(c, "Policy "+saved.ID+" saved ("+saved.Action+").", "/admin/policy/"+saved.ID+"/report")
	}
	if !page.FieldErrors(err, f.Errors, "id") {
		return err
	}
	return h.FailedForm(c, p, err, func() templ.Component { return views.PolicyPage(p, area, f) })
}

// testPolicy judges the test box's sample with the policy as written.
func (h *Pages) testPolicy(c echo.Context) error {
	p, area, err := h.adminPage(c, "Policy", views.Crumb{Label: "policies", Href: "/admin/policies"}, views.Crumb{Label: "test"})
	if err != nil {
		return err
	}
	f := views.PolicyForm{Zones: area.Zones, Errors: map[string]string{}}
	pol := readPolicyForm(c, &f)
	f.New = c.FormValue("new") == "true"
	raw := func(s string) json.RawMessage {
		if strings.TrimSpace(s) == "" {
			return nil
		}
		return json.RawMessage(s)
	}
	v, err := h.Guardrails.TestPolicy(c.Request().Context(), policy.PolicyTest{Policy: pol, BU: f.TestBU, Stage: f.TestStage,
		Operation: f.TestOperation, Resource: raw(f.TestSample), Before: raw(f.TestBefore)})
	if err != nil {
		if !page.FieldErrors(err, f.Errors, "") {
			return err
		}
		return h.FailedForm(c, p, err, func() templ.Component { return views.PolicyPage(p, area, f) })
	}
	f.Verdict = &v
	return h.Render(c, http.StatusOK, p, views.PolicyPage(p, area, f))
}

func (h *Pages) policyReport(c echo.Context) error {
	id := c.Param("id")
	p, area, err := h.adminPage(c, "Report of "+id, views.Crumb{Label: "policies", Href: "/admin/policies"},
		views.Crumb{Label: id, Href: "/admin/policy/" + id}, views.Crumb{Label: "report"})
	if err != nil {
		return err
	}
	r, err := h.Guardrails.Report(c.Request().Context(), id)
	if err != nil {
		return err
	}
	if c.QueryParam("format") == "csv" {
		return policy.ServePolicyReportCSV(c.Response(), r)
	}
	return h.Render(c, http.StatusOK, p, views.PolicyReportPage(p, area, r))
}

func (h *Pages) deletePolicy(c echo.Context) error {
	if _, _, err := h.adminPage(c, "Policy"); err != nil {
		return err
	}
	id := c.Param("id")
	if err := h.Guardrails.DeletePolicy(c.Request().Context(), id); err != nil {
		return err
	}
	return h.Done(c, "Policy "+id+" deleted.", "/admin/policies")
}

func (h *Pages) listBudgets(c echo.Context) error {
	p, area, err := h.adminPage(c, "Budgets", views.Crumb{Label: "budgets"})
	if err != nil {
		return err
	}
	o, err := h.Guardrails.Budgets(c.Request().Context())
	if err != nil {
		return err
	}
	return h.Render(c, http.StatusOK, p, views.BudgetsPage(p, area, o, map[string]string{}))
}

// setBudget sets a unit's limits from the budgets page: an empty field
// is no limit.
func (h *Pages) setBudget(c echo.Context) error {
	p, area, err := h.adminPage(c, "Budgets", views.Crumb{Label: "budgets"})
	if err != nil {
		return err
	}
	bu, stage := c.Param("bu"), c.Param("stage")
	limits := map[string]int64{}
	var v portal.Validation
	for _, d := range policy.BudgetDimensions() {
		s := strings.TrimSpace(c.FormValue(d))
		if s == "" {
			continue
		}
		n, perr := policy.ParseAmount(d, s)
		if perr != nil {
			v.Add(portal.Invalid("limits."+d, "%s", perr.Error()))
			continue
		}
		limits[d] = n
	}
	err = v.Err()
	var b portal.Budget
	if err == nil {
		b, err = h.Guardrails.SetBudget(c.Request().Context(), bu, stage, limits)
	}
	if err == nil {
		msg := "Budget of " + bu + "/" + stage + " set."
		if len(b.Warnings) > 0 {
			msg += " " + strings.Join(b.Warnings, " ")
		}
		return h.Done(c, msg, "/admin/budgets")
	}
	if len(portal.Problems(err)) == 0 {
		return err
	}
	o, lerr := h.Guardrails.Budgets(c.Request().Context())
	if lerr != nil {
		return lerr
	}
	return h.FailedForm(c, p, err, func() templ.Component {
		return views.BudgetsPage(p, area, o, map[string]string{"": bu + "/" + stage + ": " + portal.FirstMessage(err)})
	})
}
