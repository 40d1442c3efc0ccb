package tfprovider

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/edh-platform/rms-portal/internal/wire"
)

// accountModel is portal_service_account.
type accountModel struct {
	ID           types.String `tfsdk:"id"`
	BusinessUnit types.String `tfsdk:"business_unit"`
	Stage        types.String `tfsdk:"stage"`
	Name         types.String `tfsdk:"name"`
	Type         types.String `tfsdk:"type"`
	Description  types.String `tfsdk:"description"`
	AccountID    types.String `tfsdk:"account_id"`
	FullName     types.String `tfsdk:"full_name"`
}

// principalTypes are the types of accounts and pools: each selects role
// bindings scoped to the unit's prefix.
const principalTypes = "producer, consumer, stream-processor or metrics: each selects role bindings, all scoped to the unit's prefix."

func newAccount() resource.Resource {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	keep := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	return &declaredResource[accountModel]{k: &declared[accountModel]{
		typeName: "service_account", kind: "ServiceAccount", what: "service account",
		doc: "A service account of the unit, with the role bindings of its type.",
		attrs: map[string]schema.Attribute{
			"name":        schema.StringAttribute{Required: true, PlanModifiers: replace, Description: "The account's identifier in the unit (billing-app)."},
			"type":        schema.StringAttribute{Required: true, PlanModifiers: replace, Description: principalTypes},
			"description": schema.StringAttribute{Optional: true, Computed: true, Description: "At most 128 characters."},
			"account_id":  schema.StringAttribute{Computed: true, PlanModifiers: keep, Description: "Confluent Cloud's id (sa-...): what API keys and grants name."},
			"full_name":   schema.StringAttribute{Computed: true, PlanModifiers: keep, Description: "Its display name upstream, by the convention."},
		},
		keys: func(m *accountModel) keys { return keys{&m.ID, &m.BusinessUnit, &m.Stage, &m.Name} },
		item: func(m *accountModel) (wire.DocumentItem, bool) {
			name, ok := knownString(m.Name)
			typ, tok := knownString(m.Type)
			desc, dok := knownString(m.Description)
			return wire.DocumentItem{APIVersion: "portal/v1", Kind: "ServiceAccount", Metadata: wire.DocumentMetadata{Name: name, Description: desc},
				Spec: map[string]any{"type": typ}}, ok && tok && dok
		},
		read: func(ctx context.Context, d *portalData, m *accountModel, it wire.DocumentItem) error {
			m.Type = types.StringValue(specString(it.Spec, "type"))
			m.Description = types.StringValue(it.Metadata.Description)
			return accountFacts(ctx, d, m)
		},
		settle: func(ctx context.Context, d *portalData, m *accountModel, _ wire.PlanChange) error {
			return accountFacts(ctx, d, m)
		},
		modify: func(_ context.Context, _ *portalData, m, cfg, prior *accountModel, _ *diag.Diagnostics) {
			if cfg.Description.IsNull() {
				m.Description = types.StringValue("")
				if prior != nil {
					m.Description = prior.Description
				}
			}
			if prior == nil {
				m.AccountID, m.FullName = types.StringUnknown(), types.StringUnknown()
			}
		},
		// The portal's documents keep an account's description as it was
		// made; its own request changes it.
		update: func(ctx context.Context, d *portalData, m, prior *accountModel) error {
			m.AccountID, m.FullName = prior.AccountID, prior.FullName
			if m.Description.Equal(prior.Description) {
				return nil
			}
			desc := m.Description.ValueString()
			_, _, err := d.api.UpdateServiceAccount(ctx, str(m.BusinessUnit), str(m.Stage), str(prior.AccountID), wire.DescriptionUpdate{Description: &desc})
			return err
		},
		remove: func(ctx context.Context, d *portalData, m *accountModel) error {
			_, _, err := d.api.DeleteServiceAccount(ctx, str(m.BusinessUnit), str(m.Stage), str(m.AccountID), nil)
			return err
		},
		fields: fieldMap(map[string]string{"name": "name", "type": "type", "description": "description"}),
	}}
}

// accountFacts reads an account's id and full name from the unit's list.
func accountFacts(ctx context.Context, d *portalData, m *accountModel) error {
	list, err := d.reads.Accounts(ctx, str(m.BusinessUnit), str(m.Stage))
	if err != nil {
		return err
	}
	for _, a := range list {
		if a.Identifier == str(m.Name) && (str(m.Type) == "" || a.Type == str(m.Type)) {
			m.AccountID, m.FullName = types.StringValue(a.ID), types.StringValue(a.Name)
			return nil
		}
	}
	m.AccountID, m.FullName = types.StringValue(""), types.StringValue("")
	return nil
}

// poolModel is portal_identity_pool.
type poolModel struct {
	ID            types.String `tfsdk:"id"`
	BusinessUnit  types.String `tfsdk:"business_unit"`
	Stage         types.String `tfsdk:"stage"`
	Name          types.String `tfsdk:"name"`
	Type          types.String `tfsdk:"type"`
	Description   types.String `tfsdk:"description"`
	IdentityClaim types.String `tfsdk:"identity_claim"`
	Filter        types.String `tfsdk:"filter"`
	TestClaims    types.String `tfsdk:"test_claims"`
	PoolID        types.String `tfsdk:"pool_id"`
	FullName      types.String `tfsdk:"full_name"`
}

func newPool() resource.Resource {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	keep := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	return &declaredResource[poolModel]{k: &declared[poolModel]{
		typeName: "identity_pool", kind: "IdentityPool", what: "identity pool",
		doc: "An identity pool of the stage's identity provider, for workloads that present their own OIDC tokens, with the role bindings of its type.",
		attrs: map[string]schema.Attribute{
			"name":        schema.StringAttribute{Required: true, PlanModifiers: replace, Description: "The pool's identifier in the unit (ci)."},
			"type":        schema.StringAttribute{Required: true, PlanModifiers: replace, Description: principalTypes},
			"description": schema.StringAttribute{Optional: true, Computed: true, PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown(), stringplanmodifier.RequiresReplace()}, Description: "At most 128 characters; a pool keeps it."},
			"identity_claim": schema.StringAttribute{Optional: true, Computed: true, PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown(), stringplanmodifier.RequiresReplace()},
				Description: "The claim that names the workload (claims.sub, the default)."},
			"filter": schema.StringAttribute{Required: true,
				Description: "CEL over claims that must yield a boolean, at most 300 characters: checked by the portal at plan time, and against test_claims when given."},
			"test_claims": schema.StringAttribute{Optional: true,
				Description: "A decoded token's claims as JSON (jsonencode({sub = \"ci-scada-1\"})): the plan fails unless the filter matches them."},
			"pool_id":   schema.StringAttribute{Computed: true, PlanModifiers: keep, Description: "Confluent Cloud's id (pool-...)."},
			"full_name": schema.StringAttribute{Computed: true, PlanModifiers: keep, Description: "Its display name upstream, by the convention."},
		},
		keys: func(m *poolModel) keys { return keys{&m.ID, &m.BusinessUnit, &m.Stage, &m.Name} },
		item: func(m *poolModel) (wire.DocumentItem, bool) {
			name, ok := knownString(m.Name)
			typ, tok := knownString(m.Type)
			desc, dok := knownString(m.Description)
			filter, fok := knownString(m.Filter)
			spec := map[string]any{"type": typ, "filter": filter}
			if c := str(m.IdentityClaim); c != "" {
				spec["identityClaim"] = c
			}
			return wire.DocumentItem{APIVersion: "portal/v1", Kind: "IdentityPool", Metadata: wire.DocumentMetadata{Name: name, Description: desc}, Spec: spec},
				ok && tok && dok && fok && !m.IdentityClaim.IsUnknown()
		},
		read: func(ctx context.Context, d *portalData, m *poolModel, it wire.DocumentItem) error {
			m.Type = types.StringValue(specString(it.Spec, "type"))
			m.Filter = types.StringValue(specString(it.Spec, "filter"))
			m.IdentityClaim = types.StringValue(specString(it.Spec, "identityClaim"))
			m.Description = types.StringValue(it.Metadata.Description)
			return poolFacts(ctx, d, m)
		},
		settle: func(ctx context.Context, d *portalData, m *poolModel, _ wire.PlanChange) error {
			if m.IdentityClaim.IsUnknown() {
				m.IdentityClaim = types.StringValue("claims.sub")
			}
			return poolFacts(ctx, d, m)
		},
		modify: func(ctx context.Context, d *portalData, m, cfg, prior *poolModel, diags *diag.Diagnostics) {
			if prior == nil {
				if cfg.Description.IsNull() {
					m.Description = types.StringValue("")
				}
				if cfg.IdentityClaim.IsNull() {
					m.IdentityClaim = types.StringValue("claims.sub")
				}
				m.PoolID, m.FullName = types.StringUnknown(), types.StringUnknown()
			}
			testFilter(ctx, d, m, diags)
		},
		remove: func(ctx context.Context, d *portalData, m *poolModel) error {
			_, err := d.api.DeleteIdentityPool(ctx, str(m.BusinessUnit), str(m.Stage), str(m.PoolID), nil)
			return err
		},
		fields: fieldMap(map[string]string{"name": "name", "type": "type", "description": "description", "identityClaim": "identity_claim",
			"identity_claim": "identity_claim", "filter": "filter"}),
	}}
}

// testFilter asks the portal whether the planned filter matches the
// test claims.
func testFilter(ctx context.Context, d *portalData, m *poolModel, diags *diag.Diagnostics) {
	filter, ok := knownString(m.Filter)
	raw := str(m.TestClaims)
	if !ok || raw == "" || m.TestClaims.IsUnknown() {
		return
	}
	var claims map[string]any
	if err := json.Unmarshal([]byte(raw), &claims); err != nil {
		diags.AddAttributeError(path.Root("test_claims"), "Not a JSON object", "test_claims takes a token's claims as a JSON object: "+err.Error())
		return
	}
	res, _, err := d.api.TestIdentityPoolFilter(ctx, str(m.BusinessUnit), str(m.Stage), wire.FilterTest{Filter: filter, Claims: claims})
	if err != nil {
		(&base{d: d}).refusal(diags, "Testing the filter", err, fieldMap(map[string]string{"filter": "filter", "claims": "test_claims"}))
		return
	}
	if !res.Matches {
		why := "the filter does not match test_claims"
		if res.Reason != "" {
			why += ": " + res.Reason
		}
		diags.AddAttributeError(path.Root("filter"), "The filter does not match the test claims", why)
	}
}

// poolFacts reads a pool's id and full name from the unit's list.
func poolFacts(ctx context.Context, d *portalData, m *poolModel) error {
	list, err := d.reads.Pools(ctx, str(m.BusinessUnit), str(m.Stage))
	if err != nil {
		return err
	}
	for _, p := range list {
		if p.Identifier == str(m.Name) && (str(m.Type) == "" || p.Type == str(m.Type)) {
			m.PoolID, m.FullName = types.StringValue(p.ID), types.StringValue(p.Name)
			return nil
		}
	}
	m.PoolID, m.FullName = types.StringValue(""), types.StringValue("")
	return nil
}
