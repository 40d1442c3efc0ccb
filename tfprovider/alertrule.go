package tfprovider

import (
	"context"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/edh-platform/rms-portal/internal/wire"
)

// alertRuleModel is portal_alert_rule.
type alertRuleModel struct {
	ID           types.String  `tfsdk:"id"`
	BusinessUnit types.String  `tfsdk:"business_unit"`
	Stage        types.String  `tfsdk:"stage"`
	Name         types.String  `tfsdk:"name"`
	Kind         types.String  `tfsdk:"kind"`
	Target       types.String  `tfsdk:"target"`
	Threshold    types.Float64 `tfsdk:"threshold"`
	For          types.String  `tfsdk:"for"`
	Enabled      types.Bool    `tfsdk:"enabled"`
}

func newAlertRule() resource.Resource {
	return &declaredResource[alertRuleModel]{k: &declared[alertRuleModel]{
		typeName: "alert_rule", kind: "AlertRule", what: "alert rule",
		doc: "One of the unit's alert rules: saving one of a platform default's name replaces that default for the unit; destroying it brings the default back.",
		attrs: map[string]schema.Attribute{
			"name": schema.StringAttribute{Required: true, PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
				Description: "The rule's name in the unit."},
			"kind": schema.StringAttribute{Required: true,
				Description: "lag_time, stalled, connector_failed, key_expiring, budget_headroom, topic_growth or cost_forecast."},
			"target": schema.StringAttribute{Optional: true, Computed: true,
				Description: "A group, connector or topic identifier of the unit, or * (the default) for all; none for key_expiring, budget_headroom and cost_forecast."},
			"threshold": schema.Float64Attribute{Optional: true, Computed: true,
				Description: "Seconds behind (lag_time), days before expiry (key_expiring), percent of a limit left (budget_headroom), records a second (topic_growth), percent of the monthly amount (cost_forecast)."},
			"for": schema.StringAttribute{Optional: true, Computed: true,
				Description: "How long the condition holds before the rule fires, as a duration (5m, 1h30m)."},
			"enabled": schema.BoolAttribute{Optional: true, Computed: true, Description: "True unless false."},
		},
		keys: func(m *alertRuleModel) keys { return keys{&m.ID, &m.BusinessUnit, &m.Stage, &m.Name} },
		item: func(m *alertRuleModel) (wire.DocumentItem, bool) {
			name, ok := knownString(m.Name)
			kind, kok := knownString(m.Kind)
			spec := map[string]any{"kind": kind}
			if t := str(m.Target); t != "" && t != "*" {
				spec["target"] = t
			}
			if !m.Threshold.IsNull() && !m.Threshold.IsUnknown() {
				spec["threshold"] = m.Threshold.ValueFloat64()
			}
			if f := str(m.For); f != "" && f != "0s" {
				spec["for"] = f
			}
			if !m.Enabled.IsNull() && !m.Enabled.IsUnknown() {
				spec["enabled"] = m.Enabled.ValueBool()
			}
			return wire.DocumentItem{APIVersion: "portal/v1", Kind: "AlertRule", Metadata: wire.DocumentMetadata{Name: name}, Spec: spec},
				ok && kok && !m.Target.IsUnknown() && !m.For.IsUnknown()
		},
		read: func(_ context.Context, _ *portalData, m *alertRuleModel, it wire.DocumentItem) error {
			s := it.Spec
			m.Kind = types.StringValue(specString(s, "kind"))
			if t := specString(s, "target"); t != "" || (str(m.Target) != "*" && str(m.Target) != "") {
				m.Target = types.StringValue(t)
			}
			th, _ := s["threshold"].(float64)
			m.Threshold = types.Float64Value(th)
			if !sameDuration(str(m.For), specString(s, "for")) {
				m.For = types.StringValue(shortDuration(specString(s, "for")))
			}
			on, given := s["enabled"].(bool)
			m.Enabled = types.BoolValue(!given || on)
			return nil
		},
		modify: func(_ context.Context, _ *portalData, m, cfg, prior *alertRuleModel, _ *diag.Diagnostics) {
			if cfg.Target.IsNull() {
				m.Target = types.StringValue("")
			}
			if cfg.Threshold.IsNull() {
				m.Threshold = types.Float64Value(0)
			}
			if cfg.For.IsNull() {
				m.For = types.StringValue("")
			} else if prior != nil && sameDuration(str(m.For), str(prior.For)) {
				m.For = prior.For
			}
			if cfg.Enabled.IsNull() {
				m.Enabled = types.BoolValue(true)
			}
		},
		remove: func(ctx context.Context, d *portalData, m *alertRuleModel) error {
			_, err := d.api.DeleteAlertRule(ctx, str(m.BusinessUnit), str(m.Stage), str(m.Name))
			return err
		},
		fields: fieldMap(map[string]string{"name": "name", "kind": "kind", "target": "target", "threshold": "threshold", "for": "for",
			"for_seconds": "for", "enabled": "enabled"}),
	}}
}

// sameDuration compares two durations as written (5m and 5m0s; empty
// and 0s).
func sameDuration(a, b string) bool {
	parse := func(s string) (time.Duration, bool) {
		if s == "" {
			return 0, true
		}
		d, err := time.ParseDuration(s)
		return d, err == nil
	}
	x, okA := parse(a)
	y, okB := parse(b)
	return okA && okB && x == y || a == b
}

// shortDuration writes a duration as people do: 5m, not 5m0s.
func shortDuration(s string) string {
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
