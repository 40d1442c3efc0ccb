package tfprovider

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
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

// base is what every resource of the provider holds: the provider's data.
type base struct {
	d *portalData
}

// configure takes the provider's data, once Terraform configured it.
func (b *base) configure(data any, diags *diag.Diagnostics) {
	if data == nil {
		return // the provider is not configured yet (validation)
	}
	d, ok := data.(*portalData)
	if !ok {
		diags.AddError("Unexpected provider data", fmt.Sprintf("%T", data))
		return
	}
	b.d = d
}

// Configure implements resource.ResourceWithConfigure.
func (b *base) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	b.configure(req.ProviderData, &resp.Diagnostics)
}

// replaceOnly is the Update of a resource whose every argument replaces
// it: what an update changes is only what a refresh read.
type replaceOnly struct{}

// Update records the plan.
func (replaceOnly) Update(_ context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.State.Raw = req.Plan.Raw
}

// replaceOnceSet replaces a resource when a switch changes, but not when
// it is first set on an imported resource (whose state has none).
func replaceOnceSet() planmodifier.Bool {
	return boolplanmodifier.RequiresReplaceIf(func(_ context.Context, req planmodifier.BoolRequest, resp *boolplanmodifier.RequiresReplaceIfFuncResponse) {
		resp.RequiresReplace = !req.StateValue.IsNull() && !req.StateValue.Equal(req.PlanValue)
	}, "Changing it makes a new resource (a secret is handed out once).", "Changing it makes a new resource (a secret is handed out once).")
}

// scopeAttributes are the business unit and stage of a resource: the
// provider's when not given; a change makes another resource.
func scopeAttributes(attrs map[string]schema.Attribute) map[string]schema.Attribute {
	keep := []planmodifier.String{stringplanmodifier.UseStateForUnknown(), stringplanmodifier.RequiresReplace()}
	attrs["business_unit"] = schema.StringAttribute{Optional: true, Computed: true, PlanModifiers: keep,
		Description: "The business unit; the provider's when not given."}
	attrs["stage"] = schema.StringAttribute{Optional: true, Computed: true, PlanModifiers: keep,
		Description: "The stage; the provider's when not given."}
	return attrs
}

// scopeOf is a resource's unit and stage: its own, else the provider's.
func (b *base) scopeOf(bu, stage *types.String, diags *diag.Diagnostics) (string, string) {
	pick := func(v *types.String, def, attr string) string {
		if !v.IsNull() && !v.IsUnknown() && v.ValueString() != "" {
			return v.ValueString()
		}
		if def == "" {
			diags.AddAttributeError(path.Root(attr), "Missing "+attr, "give "+attr+" here or in the provider block")
			return ""
		}
		*v = types.StringValue(def)
		return def
	}
	return pick(bu, b.d.bu, "business_unit"), pick(stage, b.d.stage, "stage")
}

// importScoped reads an import id of the form BU/STAGE/NAME into the
// business unit, the stage and the named attribute.
func importScoped(ctx context.Context, attr string, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	parts := strings.SplitN(req.ID, "/", 3)
	if len(parts) != 3 || parts[0] == "" || parts[1] == "" || parts[2] == "" {
		resp.Diagnostics.AddError("Unexpected import id", fmt.Sprintf("import by the item's path, BU/STAGE/%s (scada/dev/orders), not %q", strings.ToUpper(attr), req.ID))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("business_unit"), parts[0])...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("stage"), parts[1])...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(attr), parts[2])...)
}

// fields map the API's error fields ("partitions_count",
// "config.retention.ms") to the resource's attributes.
type fields func(field string) (path.Path, bool)

// fieldMap maps fields by name, and a field under a prefix ("config.")
// to that map attribute's key; a prefix may name its attribute
// ("secrets=secret_config").
func fieldMap(names map[string]string, maps ...string) fields {
	return func(f string) (path.Path, bool) {
		if a, ok := names[f]; ok {
			return path.Root(a), true
		}
		for _, m := range maps {
			prefix, attr, named := strings.Cut(m, "=")
			if !named {
				attr = prefix
			}
			if key, ok := strings.CutPrefix(f, prefix+"."); ok {
				return path.Root(attr).AtMapKey(key), true
			}
		}
		return path.Path{}, false
	}
}

// refusal turns an error of the API into diagnostics: each of the error
// record's problems at its attribute where the field names one. A write
// refused because the stage takes changes by request says how to make
// one (and the provider files one, with change_requests).
func (b *base) refusal(diags *diag.Diagnostics, what string, err error, at fields) {
	var e *client.Error
	if !errors.As(err, &e) {
		diags.AddError(what, err.Error())
		return
	}
	for _, it := range e.Errors {
		summary := fmt.Sprintf("%s: %d %s", what, e.Code, it.Type)
		detail := it.Message
		if it.Type == "READ_ONLY_ENVIRONMENT" {
			detail += "\n\nThis stage takes your changes by request: file the change as a change request (POST /api/v1/{bu}/{stage}/change-requests, " +
				"portalctl request, or change_requests = true on the provider), for an Admin of the unit to approve."
		}
		if at != nil {
			f := strings.TrimPrefix(it.Field, "spec.")
			if i := strings.Index(f, "]."); strings.HasPrefix(f, "items[") && i > 0 {
				f = strings.TrimPrefix(f[i+2:], "spec.")
			}
			if p, ok := at(f); ok {
				diags.AddAttributeError(p, summary, detail)
				continue
			}
		}
		diags.AddError(summary, detail)
	}
}

// byRequest files a document as a change request where the provider is
// told to and the stage refused the write as read-only: it reports
// whether it did (the apply then fails with the request's id).
func (b *base) byRequest(ctx context.Context, diags *diag.Diagnostics, err error, bu, stage, why string, item wire.DocumentItem) bool {
	var e *client.Error
	if !b.d.changeRequests || !errors.As(err, &e) || !e.Has("READ_ONLY_ENVIRONMENT") {
		return false
	}
	r, _, ferr := b.d.api.FileChangeRequest(ctx, bu, stage, wire.ResourceDocument{Items: []wire.DocumentItem{item}},
		&client.FileChangeRequestParams{Reason: why})
	if ferr != nil {
		b.refusal(diags, "Filing the change request", ferr, nil)
		return true
	}
	diags.AddError("Filed as change request "+r.ID,
		fmt.Sprintf("%s/%s takes your changes by request: change request %s (%s) waits for an Admin of %s. Apply again once it is applied.",
			bu, stage, r.ID, r.State, bu))
	return true
}

// checkPlan asks the portal's own plan of a resource, as the apply will
// make it, after the changes planned before it in its unit and stage: a
// guardrail policy, a budget or a naming rule that refuses it is an
// error at plan time, at the attribute it names; a policy that warns is
// a warning. Where the provider files changes by request, a stage that
// takes them so is a warning.
func (b *base) checkPlan(ctx context.Context, diags *diag.Diagnostics, bu, stage string, item wire.DocumentItem, at fields) {
	doc, index := b.d.planned.with(bu, stage, item)
	p, _, err := b.d.api.PlanResources(ctx, bu, stage, doc, nil)
	if err != nil {
		if client.StatusOf(err) >= 400 && client.StatusOf(err) < 500 {
			b.refusal(diags, "The portal refuses the plan", err, at)
		}
		// An outage is the apply's to meet; the plan goes on.
		return
	}
	for _, c := range p.Changes {
		if c.Item == nil || *c.Item != index {
			continue
		}
		for _, w := range c.Warnings {
			diags.AddWarning("The portal warns", w)
		}
		if c.Action != "refused" {
			return
		}
		var errs []wire.ErrorItem
		for _, e := range c.Errors {
			if e.Type == "READ_ONLY_ENVIRONMENT" && b.d.changeRequests {
				diags.AddWarning("Filed as a change request at apply", e.Message+
					"\n\nThe provider files this change as a change request when applied (change_requests = true); an Admin of "+bu+" approves it.")
				continue
			}
			errs = append(errs, e)
		}
		if len(errs) > 0 {
			b.refusal(diags, "The portal refuses this change", &client.Error{ErrorRecord: wire.ErrorRecord{Code: 422, Errors: errs}}, at)
		}
	}
}

// planned tells whether a plan creates or changes the resource (its
// plan is not its state): what checkPlan asks about.
func planned(req resource.ModifyPlanRequest) bool {
	return !req.Plan.Raw.IsNull() && !req.Plan.Raw.Equal(req.State.Raw)
}

// str is a string attribute's value ("" when null or unknown).
func str(v types.String) string {
	if v.IsNull() || v.IsUnknown() {
		return ""
	}
	return v.ValueString()
}
