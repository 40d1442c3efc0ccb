package tfprovider

import (
	"context"

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

// topicModel is portal_topic.
type topicModel struct {
	ID             types.String `tfsdk:"id"`
	BusinessUnit   types.String `tfsdk:"business_unit"`
	Stage          types.String `tfsdk:"stage"`
	Name           types.String `tfsdk:"name"`
	FullName       types.String `tfsdk:"full_name"`
	Partitions     types.Int64  `tfsdk:"partitions"`
	Config         types.Map    `tfsdk:"config"`
	Description    types.String `tfsdk:"description"`
	Owner          types.String `tfsdk:"owner"`
	Tags           types.Set    `tfsdk:"tags"`
	Classification types.String `tfsdk:"classification"`
	DeleteReason   types.String `tfsdk:"delete_reason"`
}

func newTopic() resource.Resource {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	keep := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	catalog := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Optional: true, Computed: true, Description: desc +
			" Give any of description, owner, tags and classification to declare the topic's catalog entry whole (those left out are cleared); give none to leave it as the portal has it."}
	}
	return &declaredResource[topicModel]{k: &declared[topicModel]{
		typeName: "topic", kind: "Topic", what: "topic",
		doc: "A topic of the unit, named by the convention ({landing zone}-{unit}-{stage}-{name}), with its partitions, its settings and its entry in the zone's catalog.",
		attrs: map[string]schema.Attribute{
			"name": schema.StringAttribute{Required: true, PlanModifiers: replace,
				Description: "The topic's identifier in the unit (orders); the full name is made by the convention."},
			"full_name": schema.StringAttribute{Computed: true, PlanModifiers: keep, Description: "The topic's name on the cluster."},
			"partitions": schema.Int64Attribute{Optional: true, Computed: true,
				Description: "Partitions: they only grow (a plan that shrinks them is refused). Left out: 1 for a new topic, else as it is."},
			"config": schema.MapAttribute{ElementType: types.StringType, Optional: true,
				Description: "Every override of an editable setting (retention.ms, cleanup.policy, ...); editable settings left out are reset to the cluster's default."},
			"description": catalog("What the topic holds (the zone's catalog)."),
			"owner":       catalog("The catalog's owner contact: a team, a mail address, a channel."),
			"tags": schema.SetAttribute{ElementType: types.StringType, Optional: true, Computed: true,
				Description: "Catalog tags (lower case). With description, owner and classification, the catalog entry."},
			"classification": catalog("A data classification of the platform (public, internal, confidential, restricted by default): it bounds grants on the topic."),
			"delete_reason": schema.StringAttribute{Optional: true,
				Description: "Why the topic is deleted though live dependants use it (consumer groups, other units' grants, connectors): with it an Admin's destroy confirms the delete, the reason kept in the audit trail. Without it such a destroy is refused, its dependants listed."},
		},
		keys: func(m *topicModel) keys { return keys{&m.ID, &m.BusinessUnit, &m.Stage, &m.Name} },
		item: topicItem,
		read: func(ctx context.Context, d *portalData, m *topicModel, it wire.DocumentItem) error {
			s := it.Spec
			m.Partitions = types.Int64Value(specInt(s, "partitions"))
			m.Config = mapValue(specMap(s, "config"), m.Config.IsNull())
			m.Description = types.StringValue(specString(s, "description"))
			m.Owner = types.StringValue(specString(s, "owner"))
			m.Tags = setValue(specStrings(s, "tags"))
			m.Classification = types.StringValue(specString(s, "classification"))
			if m.FullName.IsNull() || m.FullName.IsUnknown() {
				return topicFullName(ctx, d, m)
			}
			return nil
		},
		settle: func(_ context.Context, _ *portalData, m *topicModel, c wire.PlanChange) error {
			if c.Name != "" {
				m.FullName = types.StringValue(c.Name)
			}
			return nil
		},
		modify: func(_ context.Context, _ *portalData, m, cfg, prior *topicModel, diags *diag.Diagnostics) {
			if looksQualified(str(m.Name), str(m.BusinessUnit), str(m.Stage)) {
				diags.AddAttributeError(path.Root("name"), "A full name", "give the topic's identifier in the unit (orders), not its full name: the convention makes that")
			}
			if m.Partitions.IsUnknown() {
				m.Partitions = types.Int64Value(1)
				if prior != nil {
					m.Partitions = prior.Partitions
				}
			}
			declares := !cfg.Description.IsNull() || !cfg.Owner.IsNull() || !cfg.Tags.IsNull() || !cfg.Classification.IsNull()
			pick := func(v *types.String, c, was types.String) {
				switch {
				case !c.IsNull():
				case declares || prior == nil:
					*v = types.StringValue("")
				default:
					*v = was
				}
			}
			var was topicModel
			if prior != nil {
				was = *prior
			}
			pick(&m.Description, cfg.Description, was.Description)
			pick(&m.Owner, cfg.Owner, was.Owner)
			pick(&m.Classification, cfg.Classification, was.Classification)
			if cfg.Tags.IsNull() {
				if declares || prior == nil {
					m.Tags = setValue(nil)
				} else {
					m.Tags = was.Tags
				}
			}
			if prior == nil {
				m.FullName = types.StringUnknown()
			}
		},
		remove: func(ctx context.Context, d *portalData, m *topicModel) error {
			p := &client.DeleteTopicParams{}
			if reason := str(m.DeleteReason); reason != "" {
				p.Confirm, p.Reason = str(m.Name), reason
			}
			_, _, err := d.api.DeleteTopic(ctx, str(m.BusinessUnit), str(m.Stage), str(m.Name), p)
			return err
		},
		fields: fieldMap(map[string]string{"name": "name", "partitions": "partitions", "partitions_count": "partitions",
			"description": "description", "owner": "owner", "owner_contact": "owner", "tags": "tags", "classification": "classification",
			"confirm": "delete_reason", "reason": "delete_reason"}, "config"),
	}}
}

// topicItem declares a topic: its partitions, its overrides and its
// catalog entry whole.
func topicItem(m *topicModel) (wire.DocumentItem, bool) {
	name, ok := knownString(m.Name)
	cfg, cok := strMap(m.Config)
	tags, tok := strSet(m.Tags)
	if !ok || !cok || !tok || m.Partitions.IsUnknown() || m.Description.IsUnknown() || m.Owner.IsUnknown() || m.Classification.IsUnknown() {
		return wire.DocumentItem{}, false
	}
	spec := map[string]any{"config": cfg}
	if !m.Partitions.IsNull() {
		spec["partitions"] = m.Partitions.ValueInt64()
	}
	for key, v := range map[string]types.String{"description": m.Description, "owner": m.Owner, "classification": m.Classification} {
		spec[key] = v.ValueString()
	}
	if tags == nil {
		tags = []string{}
	}
	spec["tags"] = tags
	return wire.DocumentItem{APIVersion: "portal/v1", Kind: "Topic", Metadata: wire.DocumentMetadata{Name: name}, Spec: spec}, true
}

// topicFullName finds an imported topic's name on the cluster.
func topicFullName(ctx context.Context, d *portalData, m *topicModel) error {
	topics, err := d.reads.Topics(ctx, str(m.BusinessUnit), str(m.Stage))
	if err != nil {
		return err
	}
	for _, t := range topics {
		if t.Identifier == str(m.Name) {
			m.FullName = types.StringValue(t.Name)
			return nil
		}
	}
	m.FullName = types.StringValue("")
	return nil
}
