package tfprovider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/edh-platform/rms-portal/client"
	"github.com/edh-platform/rms-portal/internal/wire"
)

// autoRestartModel is portal_connector_auto_restart.
type autoRestartModel struct {
	ID           types.String `tfsdk:"id"`
	BusinessUnit types.String `tfsdk:"business_unit"`
	Stage        types.String `tfsdk:"stage"`
	Connector    types.String `tfsdk:"connector"`
	Enabled      types.Bool   `tfsdk:"enabled"`
	MaxRestarts  types.Int64  `tfsdk:"max_restarts"`
	GivenUp      types.Bool   `tfsdk:"given_up"`
}

type autoRestartResource struct{ base }

func newAutoRestart() resource.Resource { return &autoRestartResource{} }

var autoRestartFields = fieldMap(map[string]string{"enabled": "enabled", "max_restarts": "max_restarts"})

func (r *autoRestartResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_connector_auto_restart"
}

func (r *autoRestartResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "A connector's auto-restart: the portal restarts it when it fails, with backoff (a minute, doubling up to an hour), until max_restarts restarts did not help, and tells the unit's alert channels when it gives up. Destroying it turns it off.",
		Attributes: withKeys(map[string]schema.Attribute{
			"connector": schema.StringAttribute{Required: true, PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
				Description: "The connector's identifier (portal_connector.x.name)."},
			"enabled":      schema.BoolAttribute{Optional: true, Computed: true, Description: "True unless false."},
			"max_restarts": schema.Int64Attribute{Optional: true, Computed: true, Description: "Restarts before the portal gives up; 0 (the default) for no limit."},
			"given_up":     schema.BoolAttribute{Computed: true, Description: "Its restarts are spent: the connector is left failed."},
		}),
	}
}

func (r *autoRestartResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importScoped(ctx, "connector", req, resp)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
}

func (r *autoRestartResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || r.d == nil {
		return
	}
	var m autoRestartModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	bu, stage := r.scopeOf(&m.BusinessUnit, &m.Stage, &resp.Diagnostics)
	if m.Enabled.IsUnknown() {
		m.Enabled = types.BoolValue(true)
	}
	if m.MaxRestarts.IsUnknown() {
		m.MaxRestarts = types.Int64Value(0)
	}
	if !m.Connector.IsUnknown() {
		m.ID = types.StringValue(bu + "/" + stage + "/" + str(m.Connector))
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &m)...)
}

func (r *autoRestartResource) write(ctx context.Context, m *autoRestartModel) error {
	on := m.Enabled.ValueBool()
	a, _, err := r.d.api.SetConnectorAutoRestart(ctx, str(m.BusinessUnit), str(m.Stage), str(m.Connector),
		wire.AutoRestartUpdate{Enabled: &on, MaxRestarts: int(m.MaxRestarts.ValueInt64())})
	r.d.reads.Forget(str(m.BusinessUnit), str(m.Stage))
	if err == nil {
		m.GivenUp = types.BoolValue(a.GivenUp)
		m.ID = types.StringValue(str(m.BusinessUnit) + "/" + str(m.Stage) + "/" + str(m.Connector))
	}
	return err
}

func (r *autoRestartResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	r.save(ctx, req.Plan, &resp.State, &resp.Diagnostics)
}

func (r *autoRestartResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	r.save(ctx, req.Plan, &resp.State, &resp.Diagnostics)
}

// save turns the switch as planned, and records it.
func (r *autoRestartResource) save(ctx context.Context, plan tfsdk.Plan, state *tfsdk.State, diags *diag.Diagnostics) {
	var m autoRestartModel
	diags.Append(plan.Get(ctx, &m)...)
	r.scopeOf(&m.BusinessUnit, &m.Stage, diags)
	if diags.HasError() {
		return
	}
	if err := r.write(ctx, &m); err != nil {
		r.refusal(diags, "Setting the auto-restart of "+str(m.Connector), err, autoRestartFields)
		return
	}
	diags.Append(state.Set(ctx, &m)...)
}

func (r *autoRestartResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m autoRestartModel
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	list, err := r.d.reads.Connectors(ctx, str(m.BusinessUnit), str(m.Stage))
	if err != nil {
		r.refusal(&resp.Diagnostics, "Reading connectors", err, nil)
		return
	}
	for _, c := range list {
		if c.Identifier == str(m.Connector) {
			a := c.AutoRestart
			m.Enabled, m.MaxRestarts, m.GivenUp = types.BoolValue(a.Enabled), types.Int64Value(int64(a.MaxRestarts)), types.BoolValue(a.GivenUp)
			resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
			return
		}
	}
	resp.State.RemoveResource(ctx)
}

func (r *autoRestartResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var m autoRestartModel
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	m.Enabled, m.MaxRestarts = types.BoolValue(false), types.Int64Value(0)
	if err := r.write(ctx, &m); err != nil && !client.IsNotFound(err) {
		r.refusal(&resp.Diagnostics, "Turning off the auto-restart of "+str(m.Connector), err, autoRestartFields)
	}
}
