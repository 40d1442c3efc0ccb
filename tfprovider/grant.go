package tfprovider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/edh-platform/rms-portal/client"
	"github.com/edh-platform/rms-portal/internal/wire"
)

// grantModel is portal_grant: the unit's request for access to another
// unit's topic, and the grant once approved.
type grantModel struct {
	ID           types.String `tfsdk:"id"`
	BusinessUnit types.String `tfsdk:"business_unit"`
	Stage        types.String `tfsdk:"stage"`
	Owner        types.String `tfsdk:"owner"`
	Topic        types.String `tfsdk:"topic"`
	Prefix       types.Bool   `tfsdk:"prefix"`
	Access       types.String `tfsdk:"access"`
	Principal    types.String `tfsdk:"principal"`
	Reason       types.String `tfsdk:"reason"`
	Duration     types.String `tfsdk:"duration"`
	GrantID      types.String `tfsdk:"grant_id"`
	State        types.String `tfsdk:"state"`
	ExpiresAt    types.String `tfsdk:"expires_at"`
	TopicName    types.String `tfsdk:"topic_name"`
}

// pending grant states wait for the owner's Admins.
var pendingGrant = map[string]bool{"requested": true, "approving": true}

// liveGrant states are a grant that is, or may be, in force.
var liveGrant = map[string]bool{"requested": true, "approving": true, "active": true, "revoking": true, "ending": true}

type grantResource struct {
	base
	replaceOnly
}

func newGrant() resource.Resource { return &grantResource{} }

var grantFields = fieldMap(map[string]string{"owner": "owner", "topic": "topic", "prefix": "prefix", "access": "access",
	"principal": "principal", "reason": "reason", "duration": "duration"})

func (r *grantResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_grant"
}

func (r *grantResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	keep := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	resp.Schema = schema.Schema{
		Description: "Access for one of the unit's service accounts or identity pools to another unit's topic: a request until the owner's Admins approve it " +
			"(pending, which plans show), then a grant that lasts its duration. A grant that ends (rejected, revoked, expired, its topic deleted) " +
			"leaves the state, so that the next plan asks again.",
		Attributes: withKeys(map[string]schema.Attribute{
			"owner":     schema.StringAttribute{Required: true, PlanModifiers: replace, Description: "The unit that owns the topic (of your landing zone)."},
			"topic":     schema.StringAttribute{Required: true, PlanModifiers: replace, Description: "The owner's topic by identifier, or with prefix the beginning of the names it covers."},
			"prefix":    schema.BoolAttribute{Optional: true, Computed: true, PlanModifiers: []planmodifier.Bool{boolplanmodifier.UseStateForUnknown(), boolplanmodifier.RequiresReplace()}},
			"access":    schema.StringAttribute{Required: true, PlanModifiers: replace, Description: "read or write."},
			"principal": schema.StringAttribute{Required: true, PlanModifiers: replace, Description: "One of your unit's service accounts or identity pools in the stage, by id."},
			"reason":    schema.StringAttribute{Required: true, PlanModifiers: replace, Description: "Why: the owner's Admins read it."},
			"duration": schema.StringAttribute{Optional: true, Computed: true, PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown(), stringplanmodifier.RequiresReplace()},
				Description: "7d, 2w, 36h: at most what the topic's classification allows, which is also what it is when left out."},
			"grant_id":   schema.StringAttribute{Computed: true, PlanModifiers: keep},
			"state":      schema.StringAttribute{Computed: true, PlanModifiers: keep, Description: "requested or approving (pending), active."},
			"expires_at": schema.StringAttribute{Computed: true, Description: "When the active grant ends."},
			"topic_name": schema.StringAttribute{Computed: true, PlanModifiers: keep, Description: "The full topic name, or the prefix."},
		}),
	}
}

func (r *grantResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importScoped(ctx, "grant_id", req, resp)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
}

func (r *grantResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || r.d == nil {
		return
	}
	var m grantModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	r.scopeOf(&m.BusinessUnit, &m.Stage, &resp.Diagnostics)
	if m.Prefix.IsUnknown() {
		m.Prefix = types.BoolValue(false)
	}
	if !req.State.Raw.IsNull() {
		var prior grantModel
		resp.Diagnostics.Append(req.State.Get(ctx, &prior)...)
		if pendingGrant[str(prior.State)] {
			resp.Diagnostics.AddWarning("Grant "+str(prior.GrantID)+" is pending",
				fmt.Sprintf("%s access for %s to %s's %s waits for %s's Admins to approve it (%s): until then it gives no access.",
					str(prior.Access), str(prior.Principal), str(prior.Owner), str(prior.Topic), str(prior.Owner), str(prior.State)))
		}
		m.ExpiresAt = prior.ExpiresAt
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &m)...)
}

func (r *grantResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m grantModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	bu, stage := r.scopeOf(&m.BusinessUnit, &m.Stage, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	g, _, err := r.d.api.RequestGrant(ctx, bu, stage, wire.GrantRequest{Owner: str(m.Owner), Topic: str(m.Topic), Prefix: m.Prefix.ValueBool(),
		Access: str(m.Access), Principal: str(m.Principal), Reason: str(m.Reason), Duration: str(m.Duration)})
	r.d.reads.Forget(bu, stage)
	if err != nil {
		r.refusal(&resp.Diagnostics, "Asking for the grant", err, grantFields)
		return
	}
	setGrant(&m, g)
	if pendingGrant[g.State] {
		resp.Diagnostics.AddWarning("Grant "+g.ID+" is pending",
			fmt.Sprintf("The request waits for %d approval(s) by %s's Admins; it gives no access until then. A later plan shows whether it is active.", g.ApprovalsNeeded, g.Owner))
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// setGrant records what the portal says of a grant.
func setGrant(m *grantModel, g wire.Grant) {
	m.GrantID, m.ID = types.StringValue(g.ID), types.StringValue(str(m.BusinessUnit)+"/"+str(m.Stage)+"/"+g.ID)
	m.State, m.ExpiresAt, m.TopicName = types.StringValue(g.State), types.StringValue(g.Expires), types.StringValue(g.Topic)
	m.Owner, m.Access, m.Prefix, m.Principal = types.StringValue(g.Owner), types.StringValue(g.Access), types.BoolValue(g.Prefix), types.StringValue(g.Principal)
	m.Reason, m.Duration = types.StringValue(g.Reason), types.StringValue(g.Duration)
	if m.Topic.IsNull() || m.Topic.IsUnknown() {
		// An import: the owner's identifier of the topic, as configured.
		topic := g.Topic
		if _, ident, ok := strings.Cut(g.Topic, "-"+g.Owner+"-"+g.Stage+"-"); ok {
			topic = ident
		}
		m.Topic = types.StringValue(topic)
	}
}

func (r *grantResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m grantModel
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	list, err := r.d.reads.Grants(ctx, str(m.BusinessUnit), str(m.Stage))
	if err != nil {
		r.refusal(&resp.Diagnostics, "Reading grants", err, nil)
		return
	}
	for _, g := range list {
		if g.ID != str(m.GrantID) {
			continue
		}
		if !liveGrant[g.State] {
			why := g.State
			if g.DecidedBy != "" {
				why += " by " + g.DecidedBy
			}
			if g.Comment != "" {
				why += ": " + g.Comment
			}
			resp.Diagnostics.AddWarning("Grant "+g.ID+" has ended",
				fmt.Sprintf("%s access to %s was %s. It leaves the state; a plan asks for it again.", g.Access, g.Topic, why))
			break
		}
		topic := m.Topic
		setGrant(&m, g)
		if !topic.IsNull() && strings.HasSuffix(g.Topic, str(topic)) {
			m.Topic = topic
		}
		resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
		return
	}
	resp.State.RemoveResource(ctx)
}

func (r *grantResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var m grantModel
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	bu, stage, id := str(m.BusinessUnit), str(m.Stage), str(m.GrantID)
	why := wire.Decision{Comment: "terraform destroy"}
	g, _, err := r.d.api.GetGrant(ctx, bu, stage, id)
	if err == nil {
		switch {
		case pendingGrant[g.State]:
			_, _, err = r.d.api.WithdrawGrant(ctx, bu, stage, id, why)
		case g.State == "active":
			_, _, err = r.d.api.RevokeGrant(ctx, bu, stage, id, why)
		}
	}
	r.d.reads.Forget(bu, stage)
	if err != nil && !client.IsNotFound(err) {
		r.refusal(&resp.Diagnostics, "Ending grant "+id, err, grantFields)
	}
}
