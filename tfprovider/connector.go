package tfprovider

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/edh-platform/rms-portal/internal/wire"
)

// connectorModel is portal_connector.
type connectorModel struct {
	ID           types.String `tfsdk:"id"`
	BusinessUnit types.String `tfsdk:"business_unit"`
	Stage        types.String `tfsdk:"stage"`
	Name         types.String `tfsdk:"name"`
	FullName     types.String `tfsdk:"full_name"`
	ConnectorID  types.String `tfsdk:"connector_id"`
	Class        types.String `tfsdk:"class"`
	Config       types.Map    `tfsdk:"config"`
	SecretConfig types.Map    `tfsdk:"secret_config"`
	State        types.String `tfsdk:"state"`
}

// secretLabel names where a document's secret comes from: Terraform
// sends the value itself.
const secretLabel = "TERRAFORM_SECRET_CONFIG"

func newConnector() resource.Resource {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	keep := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	return &declaredResource[connectorModel]{k: &declared[connectorModel]{
		typeName: "connector", kind: "Connector", what: "connector",
		doc: "A managed connector of the unit's cluster. Its secret settings are write-only for the portal: sent, never read back.",
		attrs: map[string]schema.Attribute{
			"name":         schema.StringAttribute{Required: true, PlanModifiers: replace, Description: "The connector's identifier in the unit."},
			"full_name":    schema.StringAttribute{Computed: true, PlanModifiers: keep, Description: "Its name upstream (ends with -connector)."},
			"connector_id": schema.StringAttribute{Computed: true, PlanModifiers: keep, Description: "Confluent Cloud's id (lcc-...)."},
			"class":        schema.StringAttribute{Required: true, PlanModifiers: replace, Description: "The connector class (DatagenSource): it cannot change."},
			"config": schema.MapAttribute{ElementType: types.StringType, Optional: true,
				Description: "The settings without secrets; topics and kafka.topic take the unit's topic identifiers."},
			"secret_config": schema.MapAttribute{ElementType: types.StringType, Optional: true, Sensitive: true,
				Description: "Secret settings (kafka.api.secret, connection.password): sent to Confluent Cloud, never read back. " +
					"A value changed here is sent; the portal keeps a keyed digest of each value it sent, so a refresh also tells a value changed in the portal since " +
					"(a secret set outside the portal cannot be told). Which keys are set is read back, so a secret removed in the portal shows as drift."},
			"state": schema.StringAttribute{Computed: true, PlanModifiers: keep, Description: "RUNNING, PROVISIONING, PAUSED, DEGRADED, FAILED, as last read."},
		},
		keys: func(m *connectorModel) keys { return keys{&m.ID, &m.BusinessUnit, &m.Stage, &m.Name} },
		item: connectorItem,
		read: func(ctx context.Context, d *portalData, m *connectorModel, it wire.DocumentItem) error {
			s := it.Spec
			m.Class = types.StringValue(specString(s, "class"))
			m.Config = mapValue(specMap(s, "config"), m.Config.IsNull())
			known, _ := strMap(m.SecretConfig)
			stored, _ := s["secrets"].(map[string]any)
			secrets := map[string]string{}
			for k := range stored {
				// The value is never read back: the one sent is kept.
				secrets[k] = known[k]
			}
			m.SecretConfig = mapValue(secrets, m.SecretConfig.IsNull())
			if err := secretsChanged(ctx, d, m); err != nil {
				return err
			}
			return connectorFacts(ctx, d, m)
		},
		settle: func(ctx context.Context, d *portalData, m *connectorModel, c wire.PlanChange) error {
			if c.Name != "" {
				m.FullName = types.StringValue(c.Name)
			}
			return connectorFacts(ctx, d, m)
		},
		modify: func(_ context.Context, _ *portalData, m, _, prior *connectorModel, _ *diag.Diagnostics) {
			if prior == nil {
				m.FullName, m.ConnectorID, m.State = types.StringUnknown(), types.StringUnknown(), types.StringUnknown()
				return
			}
			if !m.Config.Equal(prior.Config) || !m.SecretConfig.Equal(prior.SecretConfig) {
				m.State = types.StringUnknown()
			}
		},
		remove: func(ctx context.Context, d *portalData, m *connectorModel) error {
			_, err := d.api.DeleteConnector(ctx, str(m.BusinessUnit), str(m.Stage), str(m.Name), nil)
			return err
		},
		fields: fieldMap(map[string]string{"name": "name", "class": "class"}, "config", "secrets=secret_config"),
	}}
}

// connectorItem declares a connector, its secrets with their values.
func connectorItem(m *connectorModel) (wire.DocumentItem, bool) {
	name, ok := knownString(m.Name)
	class, cok := knownString(m.Class)
	cfg, fok := strMap(m.Config)
	secrets, sok := strMap(m.SecretConfig)
	if !ok || !cok || !fok || !sok {
		return wire.DocumentItem{}, false
	}
	spec := map[string]any{"class": class, "config": cfg}
	if len(secrets) > 0 {
		refs := map[string]any{}
		for k, v := range secrets {
			refs[k] = map[string]any{"fromEnv": secretLabel, "value": v}
		}
		spec["secrets"] = refs
	}
	return wire.DocumentItem{APIVersion: "portal/v1", Kind: "Connector", Metadata: wire.DocumentMetadata{Name: name}, Spec: spec}, true
}

// changedElsewhere stands in the state for a secret the portal holds
// with another value than the one Terraform sent: the plan then sends
// the configured one again.
const changedElsewhere = "(changed in the portal)"

// secretsChanged asks the portal's plan whether the secrets the state
// holds are still those it last sent (it keeps a keyed digest of each):
// one plan of the connector, where the state holds secret values.
func secretsChanged(ctx context.Context, d *portalData, m *connectorModel) error {
	known, _ := strMap(m.SecretConfig)
	if len(known) == 0 {
		return nil
	}
	it, ok := connectorItem(m)
	if !ok {
		return nil
	}
	p, _, err := d.api.PlanResources(ctx, str(m.BusinessUnit), str(m.Stage), wire.ResourceDocument{Items: []wire.DocumentItem{it}}, nil)
	if err != nil {
		return err
	}
	c, _ := changeOf(p, 0)
	for f, diff := range c.Diff {
		if key, ok := strings.CutPrefix(f, "secrets."); ok && diff.Before != nil && diff.After != nil && strings.HasPrefix(*diff.After, "(changed") {
			known[key] = changedElsewhere
		}
	}
	m.SecretConfig = mapValue(known, false)
	return nil
}

// connectorFacts reads a connector's id, full name and state from the
// unit's list.
func connectorFacts(ctx context.Context, d *portalData, m *connectorModel) error {
	list, err := d.reads.Connectors(ctx, str(m.BusinessUnit), str(m.Stage))
	if err != nil {
		return err
	}
	for _, c := range list {
		if c.Identifier == str(m.Name) {
			m.FullName, m.ConnectorID, m.State = types.StringValue(c.Name), types.StringValue(c.ID), types.StringValue(c.State)
			return nil
		}
	}
	for _, v := range []*types.String{&m.FullName, &m.ConnectorID, &m.State} {
		if v.IsUnknown() || v.IsNull() {
			*v = types.StringValue("")
		}
	}
	return nil
}
