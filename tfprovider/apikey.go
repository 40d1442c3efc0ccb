package tfprovider

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/edh-platform/rms-portal/client"
	"github.com/edh-platform/rms-portal/internal/wire"
)

// apiKeyModel is portal_api_key.
type apiKeyModel struct {
	ID            types.String `tfsdk:"id"`
	BusinessUnit  types.String `tfsdk:"business_unit"`
	Stage         types.String `tfsdk:"stage"`
	Account       types.String `tfsdk:"service_account_id"`
	Resource      types.String `tfsdk:"resource"`
	Description   types.String `tfsdk:"description"`
	ExpiresAt     types.String `tfsdk:"expires_at"`
	Rotation      types.String `tfsdk:"rotation"`
	Overlap       types.String `tfsdk:"overlap"`
	SecretInState types.Bool   `tfsdk:"secret_in_state"`
	SecretFile    types.String `tfsdk:"secret_file"`
	KeyID         types.String `tfsdk:"key_id"`
	Secret        types.String `tfsdk:"secret"`
	ClientConfig  types.Map    `tfsdk:"client_config"`
	State         types.String `tfsdk:"state"`
	ResourceID    types.String `tfsdk:"resource_id"`
}

type apiKeyResource struct{ base }

func newAPIKey() resource.Resource { return &apiKeyResource{} }

var apiKeyFields = fieldMap(map[string]string{"resource": "resource", "description": "description", "expires_at": "expires_at", "overlap": "overlap"})

func (r *apiKeyResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_api_key"
}

func (r *apiKeyResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	keep := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	resp.Schema = schema.Schema{
		Description: "An API key of one of the unit's service accounts, for the stage's Kafka cluster or its Schema Registry. " +
			"Its secret is handed out once: kept in the state only with secret_in_state, or written to secret_file. Changing rotation rotates it: " +
			"a successor with a new secret, the old key kept for overlap so that clients move over. Destroying it deletes the key and those it replaced.",
		Attributes: withKeys(map[string]schema.Attribute{
			"service_account_id": schema.StringAttribute{Required: true, PlanModifiers: replace,
				Description: "The account's id (portal_service_account.x.account_id)."},
			"resource": schema.StringAttribute{Required: true, PlanModifiers: replace, Description: "kafka or schema-registry."},
			"description": schema.StringAttribute{Optional: true, Computed: true, PlanModifiers: keep,
				Description: "At most 128 characters."},
			"expires_at": schema.StringAttribute{Optional: true, Computed: true, PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown(), stringplanmodifier.RequiresReplace()},
				Description: "When the portal deletes the key (RFC 3339); by default the platform's longest allowed. A rotation's successor gets its own."},
			"rotation": schema.StringAttribute{Optional: true,
				Description: "Any text (a date, a counter): changing it from one value to another rotates the key (setting it where it was unset, as after an import, does not)."},
			"overlap": schema.StringAttribute{Optional: true,
				Description: "How long the old key stays once rotated (1h, 24h; the platform's default when left out)."},
			"secret_in_state": schema.BoolAttribute{Optional: true, PlanModifiers: []planmodifier.Bool{replaceOnceSet()},
				Description: "Keep the secret and the client configuration in the Terraform state (sensitive). Off by default: the state then holds no secret."},
			"secret_file": schema.StringAttribute{Optional: true,
				Description: "A file the client configuration (with the secret) is written to when the key is made or rotated, readable by its owner only."},
			"key_id":        schema.StringAttribute{Computed: true, PlanModifiers: keep, Description: "The key (its id)."},
			"secret":        schema.StringAttribute{Computed: true, Sensitive: true, PlanModifiers: keep, Description: "With secret_in_state only."},
			"client_config": schema.MapAttribute{ElementType: types.StringType, Computed: true, Sensitive: true, Description: "With secret_in_state only: the client's settings."},
			"state":         schema.StringAttribute{Computed: true, Description: "provisioning until clients can sign in with it, then ready."},
			"resource_id":   schema.StringAttribute{Computed: true, PlanModifiers: keep, Description: "The cluster's or registry's id."},
		}),
	}
}

func (r *apiKeyResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importScoped(ctx, "key_id", req, resp)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("client_config"), types.MapNull(types.StringType))...)
}

func (r *apiKeyResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || r.d == nil {
		return
	}
	var m, cfg apiKeyModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	r.scopeOf(&m.BusinessUnit, &m.Stage, &resp.Diagnostics)
	if cfg.Description.IsNull() && req.State.Raw.IsNull() {
		m.Description = types.StringValue("")
	}
	if !req.State.Raw.IsNull() {
		var prior apiKeyModel
		resp.Diagnostics.Append(req.State.Get(ctx, &prior)...)
		if rotates(m, prior) {
			// The successor is another key with its own secret and expiry.
			m.ID, m.KeyID, m.State, m.ExpiresAt = types.StringUnknown(), types.StringUnknown(), types.StringUnknown(), types.StringUnknown()
			if m.SecretInState.ValueBool() {
				m.Secret, m.ClientConfig = types.StringUnknown(), types.MapUnknown(types.StringType)
			}
		} else {
			m.State, m.ClientConfig = prior.State, prior.ClientConfig
			if m.SecretInState.ValueBool() && prior.Secret.IsNull() {
				resp.Diagnostics.AddAttributeWarning(path.Root("secret_in_state"), "The secret is not known",
					"The key's secret was handed out when it was made and is not in the state (an import, or secret_in_state was off): change rotation to rotate it and keep the successor's.")
			}
		}
	}
	if v := str(m.Overlap); v != "" {
		if _, err := time.ParseDuration(v); err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("overlap"), "Not a duration", fmt.Sprintf("overlap takes a duration such as 1h or 24h, not %q", v))
		}
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &m)...)
}

func (r *apiKeyResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m apiKeyModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	bu, stage := r.scopeOf(&m.BusinessUnit, &m.Stage, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	in := wire.APIKeyCreate{Resource: str(m.Resource), Description: str(m.Description)}
	if at := str(m.ExpiresAt); at != "" {
		t, err := time.Parse(time.RFC3339, at)
		if err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("expires_at"), "Not a time", "expires_at takes an RFC 3339 time (2027-01-31T00:00:00Z)")
			return
		}
		in.Expires = &t
	}
	k, _, err := r.d.api.CreateAPIKey(ctx, bu, stage, str(m.Account), in)
	r.d.reads.Forget(bu, stage)
	if err != nil {
		r.refusal(&resp.Diagnostics, "Making the API key", err, apiKeyFields)
		return
	}
	r.handOut(&m, k, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// handOut records a new key, its secret where the configuration keeps it.
func (r *apiKeyResource) handOut(m *apiKeyModel, k wire.CreatedAPIKey, diags *diag.Diagnostics) {
	setKey(m, k.APIKey)
	m.Secret, m.ClientConfig = types.StringNull(), types.MapNull(types.StringType)
	if m.SecretInState.ValueBool() {
		m.Secret, m.ClientConfig = types.StringValue(k.Secret), mapValue(k.ClientConfig, false)
	}
	if file := str(m.SecretFile); file != "" {
		if err := writeClientConfig(file, k); err != nil {
			diags.AddAttributeError(path.Root("secret_file"), "Writing the client configuration", err.Error())
		}
	}
	if !m.SecretInState.ValueBool() && str(m.SecretFile) == "" {
		diags.AddWarning("The secret was not kept",
			fmt.Sprintf("API key %s's secret was handed out once and kept nowhere (neither secret_in_state nor secret_file): rotate the key to get a new one.", k.ID))
	}
}

// writeClientConfig writes a key's client settings as a properties file
// only its owner may read.
func writeClientConfig(file string, k wire.CreatedAPIKey) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# API key %s (%s %s), written by terraform-provider-portal\n", k.ID, k.Resource, k.ResourceID)
	cfg := k.ClientConfig
	if len(cfg) == 0 {
		cfg = map[string]string{"api.key": k.ID, "api.secret": k.Secret}
	}
	keys := make([]string, 0, len(cfg))
	for key := range cfg {
		keys = append(keys, key)
	}
	slices.Sort(keys)
	for _, key := range keys {
		fmt.Fprintf(&b, "%s=%s\n", key, cfg[key])
	}
	return os.WriteFile(file, []byte(b.String()), 0o600)
}

// setKey records what the portal says of a key.
func setKey(m *apiKeyModel, k wire.APIKey) {
	m.KeyID, m.ID = types.StringValue(k.ID), types.StringValue(str(m.BusinessUnit)+"/"+str(m.Stage)+"/"+k.ID)
	m.Account, m.Resource, m.ResourceID = types.StringValue(k.Owner.ID), types.StringValue(k.Resource), types.StringValue(k.ResourceID)
	m.Description, m.State = types.StringValue(k.Description), types.StringValue(k.State)
	m.ExpiresAt = types.StringValue("")
	if k.Expires != nil {
		m.ExpiresAt = types.StringValue(*k.Expires)
	}
}

func (r *apiKeyResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m apiKeyModel
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	list, err := r.d.reads.Keys(ctx, str(m.BusinessUnit), str(m.Stage))
	if err != nil {
		r.refusal(&resp.Diagnostics, "Reading API keys", err, nil)
		return
	}
	for _, k := range list {
		if k.ID == str(m.KeyID) && k.State != "deleted" {
			expires := m.ExpiresAt
			setKey(&m, k)
			if !expires.IsNull() && sameTime(str(expires), str(m.ExpiresAt)) {
				m.ExpiresAt = expires
			}
			resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
			return
		}
	}
	resp.State.RemoveResource(ctx)
}

func (r *apiKeyResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var m, prior apiKeyModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &prior)...)
	if resp.Diagnostics.HasError() {
		return
	}
	bu, stage := str(prior.BusinessUnit), str(prior.Stage)
	defer r.d.reads.Forget(bu, stage)
	if rotates(m, prior) {
		k, _, err := r.d.api.RotateAPIKey(ctx, bu, stage, str(prior.KeyID), wire.APIKeyRotate{Overlap: str(m.Overlap)})
		if err != nil {
			r.refusal(&resp.Diagnostics, "Rotating API key "+str(prior.KeyID), err, apiKeyFields)
			return
		}
		r.handOut(&m, k, &resp.Diagnostics)
	} else {
		m.KeyID, m.Secret, m.ClientConfig, m.ResourceID = prior.KeyID, prior.Secret, prior.ClientConfig, prior.ResourceID
	}
	if desc := m.Description.ValueString(); desc != prior.Description.ValueString() && !m.Description.IsUnknown() {
		k, _, err := r.d.api.UpdateAPIKey(ctx, bu, stage, str(m.KeyID), wire.DescriptionUpdate{Description: &desc})
		if err != nil {
			r.refusal(&resp.Diagnostics, "Describing API key "+str(m.KeyID), err, apiKeyFields)
			return
		}
		m.State = types.StringValue(k.State)
	}
	if m.State.IsUnknown() {
		m.State = prior.State
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (r *apiKeyResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var m apiKeyModel
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	bu, stage := str(m.BusinessUnit), str(m.Stage)
	// The keys it replaced, still in their overlap, go with it: the
	// resource is the key and its rotations.
	doomed := []string{str(m.KeyID)}
	if keys, _, err := r.d.api.ListServiceAccountAPIKeys(ctx, bu, stage, str(m.Account), nil); err == nil {
		for changed := true; changed; {
			changed = false
			for _, k := range keys.Items {
				if k.ReplacedBy != "" && slices.Contains(doomed, k.ReplacedBy) && !slices.Contains(doomed, k.ID) {
					doomed, changed = append(doomed, k.ID), true
				}
			}
		}
	}
	defer r.d.reads.Forget(bu, stage)
	for _, id := range doomed {
		if _, err := r.d.api.DeleteAPIKey(ctx, bu, stage, id); err != nil && !client.IsNotFound(err) {
			r.refusal(&resp.Diagnostics, "Deleting API key "+id, err, apiKeyFields)
			return
		}
	}
}

// rotates tells a plan that rotates the key: rotation changed from one
// value to another (set for the first time, on an imported key, it
// does not).
func rotates(plan, prior apiKeyModel) bool {
	return !prior.Rotation.IsNull() && !plan.Rotation.Equal(prior.Rotation)
}

// sameTime compares two RFC 3339 times as instants.
func sameTime(a, b string) bool {
	x, errA := time.Parse(time.RFC3339, a)
	y, errB := time.Parse(time.RFC3339, b)
	return a == b || errA == nil && errB == nil && x.Equal(y)
}
