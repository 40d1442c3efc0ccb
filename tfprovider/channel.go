package tfprovider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/edh-platform/rms-portal/client"
	"github.com/edh-platform/rms-portal/internal/wire"
)

// channelModel is portal_alert_channel.
type channelModel struct {
	ID            types.String `tfsdk:"id"`
	BusinessUnit  types.String `tfsdk:"business_unit"`
	Stage         types.String `tfsdk:"stage"`
	Format        types.String `tfsdk:"format"`
	URL           types.String `tfsdk:"url"`
	SecretInState types.Bool   `tfsdk:"secret_in_state"`
	ChannelID     types.String `tfsdk:"channel_id"`
	Secret        types.String `tfsdk:"secret"`
}

type channelResource struct {
	base
	replaceOnly
}

func newAlertChannel() resource.Resource { return &channelResource{} }

var channelFields = fieldMap(map[string]string{"format": "format", "url": "url"})

func (r *channelResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_alert_channel"
}

func (r *channelResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	keep := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	resp.Schema = schema.Schema{
		Description: "Where the unit's alerts are sent: a CloudEvents webhook (signed with a secret handed out once), a Slack incoming webhook, or an Alertmanager.",
		Attributes: withKeys(map[string]schema.Attribute{
			"format": schema.StringAttribute{Optional: true, Computed: true, PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown(), stringplanmodifier.RequiresReplace()},
				Description: "cloudevents (the default), slack or alertmanager."},
			"url": schema.StringAttribute{Required: true, PlanModifiers: replace, Description: "Where to send (https)."},
			"secret_in_state": schema.BoolAttribute{Optional: true, PlanModifiers: []planmodifier.Bool{replaceOnceSet()},
				Description: "Keep a CloudEvents channel's signing secret in the state (sensitive). Off by default: the secret is then handed out once, in a warning-free apply, and never again."},
			"channel_id": schema.StringAttribute{Computed: true, PlanModifiers: keep},
			"secret":     schema.StringAttribute{Computed: true, Sensitive: true, PlanModifiers: keep, Description: "With secret_in_state: the signing secret of a CloudEvents channel."},
		}),
	}
}

func (r *channelResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importScoped(ctx, "channel_id", req, resp)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
}

func (r *channelResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || r.d == nil {
		return
	}
	var m channelModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	r.scopeOf(&m.BusinessUnit, &m.Stage, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &m)...)
}

func (r *channelResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m channelModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	bu, stage := r.scopeOf(&m.BusinessUnit, &m.Stage, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	c, _, err := r.d.api.CreateAlertChannel(ctx, bu, stage, wire.AlertChannelCreate{Format: str(m.Format), URL: str(m.URL)})
	r.d.reads.Forget(bu, stage)
	if err != nil {
		r.refusal(&resp.Diagnostics, "Making the alert channel", err, channelFields)
		return
	}
	m.ChannelID, m.ID, m.Format = types.StringValue(c.ID), types.StringValue(bu+"/"+stage+"/"+c.ID), types.StringValue(c.Format)
	m.Secret = types.StringNull()
	if c.Secret != "" {
		if m.SecretInState.ValueBool() {
			m.Secret = types.StringValue(c.Secret)
		} else {
			resp.Diagnostics.AddWarning("The signing secret was not kept",
				fmt.Sprintf("Channel %s signs its events with a secret handed out once and kept nowhere (secret_in_state is off): replace the channel to get a new one.", c.ID))
		}
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (r *channelResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m channelModel
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	list, err := r.d.reads.Channels(ctx, str(m.BusinessUnit), str(m.Stage))
	if err != nil {
		r.refusal(&resp.Diagnostics, "Reading alert channels", err, nil)
		return
	}
	for _, c := range list {
		if c.ID == str(m.ChannelID) {
			m.Format, m.URL = types.StringValue(c.Format), types.StringValue(c.URL)
			resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
			return
		}
	}
	resp.State.RemoveResource(ctx)
}

func (r *channelResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var m channelModel
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	_, err := r.d.api.DeleteAlertChannel(ctx, str(m.BusinessUnit), str(m.Stage), str(m.ChannelID))
	r.d.reads.Forget(str(m.BusinessUnit), str(m.Stage))
	if err != nil && !client.IsNotFound(err) {
		r.refusal(&resp.Diagnostics, "Deleting alert channel "+str(m.ChannelID), err, channelFields)
	}
}
