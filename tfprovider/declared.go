package tfprovider

import (
	"context"
	"fmt"
	"sort"
	"strings"

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

// keys are the attributes every resource has: its id (BU/STAGE/NAME),
// its unit and stage, and its name in the unit.
type keys struct {
	ID, BU, Stage, Name *types.String
}

// declared is a kind of resource that the portal's documents declare
// (topics, schemas, connectors, service accounts, identity pools, alert
// rules): it is planned by the portal's plan and written by its apply,
// one resource a document, and read back through the unit's export.
// A kind says how its model reads and writes a document's item.
type declared[M any] struct {
	typeName string // "topic": the resource is portal_topic
	kind     string // the document's kind, "Topic"
	what     string // how messages name it, "topic"
	doc      string
	attrs    map[string]schema.Attribute
	keys     func(m *M) keys
	// item declares the model; false when a value is not known yet (it
	// comes from another resource's apply).
	item func(m *M) (wire.DocumentItem, bool)
	// read sets the model from the exported item: drift.
	read func(ctx context.Context, d *portalData, m *M, it wire.DocumentItem) error
	// settle sets what an apply made known (ids, full names).
	settle func(ctx context.Context, d *portalData, m *M, c wire.PlanChange) error
	// modify adjusts a plan: m is the plan, cfg the configuration, prior
	// the state (nil for a create).
	modify func(ctx context.Context, d *portalData, m, cfg, prior *M, diags *diag.Diagnostics)
	// update, where set, makes an update itself: what the kind's
	// documents do not change (a description kept since creation).
	update func(ctx context.Context, d *portalData, m, prior *M) error
	// remove deletes the resource.
	remove func(ctx context.Context, d *portalData, m *M) error
	fields fields
}

// declaredResource is a resource of a declared kind.
type declaredResource[M any] struct {
	base
	k *declared[M]
}

var (
	_ resource.ResourceWithImportState = (*declaredResource[struct{}])(nil)
	_ resource.ResourceWithModifyPlan  = (*declaredResource[struct{}])(nil)
	_ resource.ResourceWithConfigure   = (*declaredResource[struct{}])(nil)
)

// Metadata names the resource.
func (r *declaredResource[M]) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + r.k.typeName
}

// Schema is the kind's attributes with the id, unit and stage.
func (r *declaredResource[M]) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{Description: r.k.doc, Attributes: withKeys(r.k.attrs)}
}

// withKeys adds the id, unit and stage to a resource's attributes.
func withKeys(attrs map[string]schema.Attribute) map[string]schema.Attribute {
	attrs = scopeAttributes(attrs)
	attrs["id"] = schema.StringAttribute{Computed: true, Description: "BU/STAGE/NAME, as import takes it.",
		PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}}
	return attrs
}

// ImportState takes BU/STAGE/NAME.
func (r *declaredResource[M]) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importScoped(ctx, "name", req, resp)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
}

// Read refreshes the model from the unit's export: one request for
// every resource of the unit, however many.
func (r *declaredResource[M]) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m M
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	k := r.k.keys(&m)
	bu, stage, name := str(*k.BU), str(*k.Stage), str(*k.Name)
	it, found, err := r.d.reads.Item(ctx, bu, stage, r.k.kind, name)
	if err != nil {
		r.refusal(&resp.Diagnostics, fmt.Sprintf("Reading %s %s/%s", r.k.what, bu, stage), err, nil)
		return
	}
	if !found {
		resp.State.RemoveResource(ctx)
		return
	}
	if err := r.k.read(ctx, r.d, &m, it); err != nil {
		r.refusal(&resp.Diagnostics, fmt.Sprintf("Reading %s %s", r.k.what, name), err, nil)
		return
	}
	*k.ID = types.StringValue(bu + "/" + stage + "/" + name)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// ModifyPlan fills the unit and stage from the provider and asks the
// portal's plan of a change.
func (r *declaredResource[M]) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || r.d == nil {
		return // a destroy, or the provider not configured yet
	}
	var m, cfg M
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	var prior *M
	if !req.State.Raw.IsNull() {
		prior = new(M)
		resp.Diagnostics.Append(req.State.Get(ctx, prior)...)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	k := r.k.keys(&m)
	bu, stage := r.scopeOf(k.BU, k.Stage, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if !k.Name.IsUnknown() && k.ID.IsUnknown() {
		*k.ID = types.StringValue(bu + "/" + stage + "/" + str(*k.Name))
	}
	if r.k.modify != nil {
		r.k.modify(ctx, r.d, &m, &cfg, prior, &resp.Diagnostics)
	}
	if planned(req) && (prior == nil || r.k.update == nil) {
		if it, known := r.k.item(&m); known {
			r.checkPlan(ctx, &resp.Diagnostics, bu, stage, it, r.k.fields)
		}
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &m)...)
}

// Create plans and applies the resource's document.
func (r *declaredResource[M]) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m M
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	r.save(ctx, &m, nil, &resp.Diagnostics)
	if !resp.Diagnostics.HasError() {
		resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
	}
}

// Update applies the resource's document once the portal still holds
// what the plan was made from.
func (r *declaredResource[M]) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var m, prior M
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &prior)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if r.k.update != nil {
		k := r.k.keys(&m)
		err := r.k.update(ctx, r.d, &m, &prior)
		r.d.reads.Forget(str(*k.BU), str(*k.Stage))
		if err != nil {
			r.refusal(&resp.Diagnostics, fmt.Sprintf("Updating %s %s", r.k.what, str(*k.Name)), err, r.k.fields)
		}
	} else {
		r.save(ctx, &m, &prior, &resp.Diagnostics)
	}
	if !resp.Diagnostics.HasError() {
		resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
	}
}

// Delete removes the resource.
func (r *declaredResource[M]) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var m M
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	k := r.k.keys(&m)
	err := r.k.remove(ctx, r.d, &m)
	r.d.reads.Forget(str(*k.BU), str(*k.Stage))
	if err != nil && !client.IsNotFound(err) {
		r.refusal(&resp.Diagnostics, fmt.Sprintf("Deleting %s %s", r.k.what, str(*k.Name)), err, r.k.fields)
	}
}

// save writes m through the portal's plan and apply: the plan of one
// item, checked, then applied with its fingerprint as If-Match, so that
// what is applied is what was checked. An update first plans prior (the
// state the Terraform plan was made from): a change there means the
// resource changed in the portal since, and nothing is written.
func (r *declaredResource[M]) save(ctx context.Context, m, prior *M, diags *diag.Diagnostics) {
	k := r.k.keys(m)
	bu, stage := r.scopeOf(k.BU, k.Stage, diags)
	if diags.HasError() {
		return
	}
	name := str(*k.Name)
	it, known := r.k.item(m)
	if !known {
		diags.AddError("Unknown value", fmt.Sprintf("a value of %s %s is not known at apply", r.k.what, name))
		return
	}
	label := fmt.Sprintf("%s %s in %s/%s", r.k.what, name, bu, stage)
	api := r.d.api
	if prior != nil {
		was, _ := r.k.item(prior)
		p, _, err := api.PlanResources(ctx, bu, stage, wire.ResourceDocument{Items: []wire.DocumentItem{was}}, nil)
		if err != nil {
			r.refusal(diags, "Checking "+label, err, r.k.fields)
			return
		}
		// Secrets are write-only: the configured value is sent whatever
		// the portal holds, so they are not what a plan is made from.
		if c, ok := changeOf(p, 0); ok && c.Action != "unchanged" && c.Action != "refused" && !onlySecrets(c) {
			diags.AddError(fmt.Sprintf("The %s changed in the portal since this plan", r.k.what),
				fmt.Sprintf("%s is no longer what the plan was made from (%s): nothing was written. Plan again to see the change and decide.", label, diffText(c)))
			return
		}
	}
	doc := wire.ResourceDocument{Items: []wire.DocumentItem{it}}
	p, _, err := api.PlanResources(ctx, bu, stage, doc, nil)
	if err != nil {
		if !r.byRequest(ctx, diags, err, bu, stage, "terraform: "+label, it) {
			r.refusal(diags, "Planning "+label, err, r.k.fields)
		}
		return
	}
	c, _ := changeOf(p, 0)
	switch {
	case c.Action == "refused":
		refused := &client.Error{ErrorRecord: wire.ErrorRecord{Code: 422, Status: "REFUSED", Errors: c.Errors}}
		if !r.byRequest(ctx, diags, refused, bu, stage, "terraform: "+label, it) {
			r.refusal(diags, "The portal refuses "+label, refused, r.k.fields)
		}
		return
	case prior == nil && c.Action != "create":
		diags.AddError(fmt.Sprintf("The %s exists", r.k.what), fmt.Sprintf("%s exists already: import it (terraform import %s %s/%s/%s), or give another name.",
			label, "portal_"+r.k.typeName+".<name>", bu, stage, name))
		return
	case prior != nil && c.Action == "create":
		diags.AddError(fmt.Sprintf("The %s is gone", r.k.what), fmt.Sprintf("%s was deleted in the portal since this plan: plan again.", label))
		return
	}
	for _, w := range c.Warnings {
		diags.AddWarning("The portal warns", w)
	}
	if c.Action != "unchanged" {
		ap, _, err := api.ApplyResources(ctx, bu, stage, doc, &client.ApplyResourcesParams{IfMatch: p.Fingerprint})
		r.d.reads.Forget(bu, stage)
		if err != nil {
			if client.StatusOf(err) == 412 {
				diags.AddError(fmt.Sprintf("The %s changed while applying", r.k.what),
					fmt.Sprintf("%s changed in the portal between the plan and its apply: nothing was written. Plan again.", label))
				return
			}
			if !r.byRequest(ctx, diags, err, bu, stage, "terraform: "+label, it) {
				r.refusal(diags, "Applying "+label, err, r.k.fields)
			}
			return
		}
		done, _ := changeOf(ap, 0)
		if done.Outcome != "applied" {
			e := wire.ErrorItem{Type: "NOT_APPLIED", Message: "the apply did not make the change (" + done.Outcome + ")"}
			if done.Error != nil {
				e = *done.Error
			}
			r.refusal(diags, "Applying "+label, &client.Error{ErrorRecord: wire.ErrorRecord{Code: 422, Errors: []wire.ErrorItem{e}}}, r.k.fields)
			return
		}
		c = done
	}
	*k.ID = types.StringValue(bu + "/" + stage + "/" + name)
	if r.k.settle != nil {
		if err := r.k.settle(ctx, r.d, m, c); err != nil {
			r.refusal(diags, "Reading "+label+" after the apply", err, nil)
		}
	}
}

// onlySecrets tells a change of secret settings alone.
func onlySecrets(c wire.PlanChange) bool {
	for f := range c.Diff {
		if !strings.HasPrefix(f, "secrets.") {
			return false
		}
	}
	return len(c.Diff) > 0
}

// changeOf is the plan's change of the document's item i.
func changeOf(p wire.Plan, i int) (wire.PlanChange, bool) {
	for _, c := range p.Changes {
		if c.Item != nil && *c.Item == i {
			return c, true
		}
	}
	return wire.PlanChange{}, false
}

// diffText tells a change's fields, before and after.
func diffText(c wire.PlanChange) string {
	var parts []string
	for f, d := range c.Diff {
		show := func(v *string) string {
			if v == nil {
				return "none"
			}
			if len(*v) > 60 {
				return (*v)[:57] + "..."
			}
			return *v
		}
		parts = append(parts, fmt.Sprintf("%s %s in the plan, %s now", f, show(d.After), show(d.Before)))
	}
	sort.Strings(parts)
	if len(parts) == 0 {
		return c.Action
	}
	return strings.Join(parts, "; ")
}
