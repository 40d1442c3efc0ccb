package tfprovider

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/edh-platform/rms-portal/client"
	"github.com/edh-platform/rms-portal/internal/wire"
	"github.com/edh-platform/rms-portal/tfprovider/reads"
)

// schemaModel is portal_schema: a subject of the stage's Schema Registry.
type schemaModel struct {
	ID           types.String `tfsdk:"id"`
	BusinessUnit types.String `tfsdk:"business_unit"`
	Stage        types.String `tfsdk:"stage"`
	Name         types.String `tfsdk:"name"`
	Subject      types.String `tfsdk:"subject"`
	SchemaType   types.String `tfsdk:"schema_type"`
	Schema       types.String `tfsdk:"schema"`
	References   []refModel   `tfsdk:"references"`
	Version      types.Int64  `tfsdk:"version"`
	SchemaID     types.Int64  `tfsdk:"schema_id"`
	HardDelete   types.Bool   `tfsdk:"hard_delete"`
}

// refModel is a schema's reference to another subject's version.
type refModel struct {
	Name    types.String `tfsdk:"name"`
	Subject types.String `tfsdk:"subject"`
	Version types.Int64  `tfsdk:"version"`
}

func newSchema() resource.Resource {
	keep := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	keepN := []planmodifier.Int64{int64planmodifier.UseStateForUnknown()}
	return &declaredResource[schemaModel]{k: &declared[schemaModel]{
		typeName: "schema", kind: "Schema", what: "schema",
		doc: "The key or value schema of one of the unit's topics: a subject of the stage's Schema Registry. A changed schema is a new version, checked for compatibility at plan time.",
		attrs: map[string]schema.Attribute{
			"name": schema.StringAttribute{Required: true, PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
				Description: "The topic's identifier and the part: orders-value, orders-key."},
			"subject":     schema.StringAttribute{Computed: true, PlanModifiers: keep, Description: "The subject's full name in the registry."},
			"schema_type": schema.StringAttribute{Optional: true, Computed: true, PlanModifiers: keep, Description: "AVRO (the default) or JSON."},
			"schema": schema.StringAttribute{Required: true,
				Description: "The schema's text, compared normalised (spacing and the order of a JSON object's keys do not make a new version): file(\"orders.avsc\")."},
			"references": schema.ListNestedAttribute{Optional: true, Description: "Schemas this one refers to.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"name":    schema.StringAttribute{Required: true, Description: "The name the schema uses (scada.Money)."},
					"subject": schema.StringAttribute{Required: true, Description: "The referenced subject, by identifier or full name."},
					"version": schema.Int64Attribute{Required: true, Description: "Its version."},
				}}},
			"version":   schema.Int64Attribute{Computed: true, PlanModifiers: keepN, Description: "The subject's latest version."},
			"schema_id": schema.Int64Attribute{Computed: true, PlanModifiers: keepN, Description: "The registry's id of the latest version."},
			"hard_delete": schema.BoolAttribute{Optional: true,
				Description: "Destroy deletes every version for good; otherwise softly (the registry keeps them and a new version continues the numbering)."},
		},
		keys: func(m *schemaModel) keys { return keys{&m.ID, &m.BusinessUnit, &m.Stage, &m.Name} },
		item: schemaItem,
		read: func(ctx context.Context, d *portalData, m *schemaModel, it wire.DocumentItem) error {
			s := it.Spec
			m.SchemaType = types.StringValue(specString(s, "schemaType"))
			if remote := specString(s, "schema"); normalSchema(remote) != normalSchema(str(m.Schema)) {
				m.Schema = types.StringValue(remote)
			}
			m.References = nil
			raw, _ := s["references"].([]any)
			for _, r := range raw {
				ref, _ := r.(map[string]any)
				m.References = append(m.References, refModel{Name: types.StringValue(specString(ref, "name")),
					Subject: types.StringValue(specString(ref, "subject")), Version: types.Int64Value(specInt(ref, "version"))})
			}
			return schemaVersion(ctx, d, m)
		},
		settle: func(ctx context.Context, d *portalData, m *schemaModel, c wire.PlanChange) error {
			if c.Name != "" {
				m.Subject = types.StringValue(c.Name)
			}
			if m.SchemaType.IsUnknown() {
				m.SchemaType = types.StringValue("AVRO")
				if c := c.Diff["schemaType"]; c.After != nil {
					m.SchemaType = types.StringValue(*c.After)
				}
			}
			return schemaVersion(ctx, d, m)
		},
		modify: func(_ context.Context, _ *portalData, m, _, prior *schemaModel, diags *diag.Diagnostics) {
			if looksQualified(str(m.Name), str(m.BusinessUnit), str(m.Stage)) {
				diags.AddAttributeError(path.Root("name"), "A full name", "give the subject's identifier in the unit (orders-value), not its full name")
			}
			if prior == nil {
				return
			}
			if normalSchema(str(m.Schema)) == normalSchema(str(prior.Schema)) && !m.Schema.IsUnknown() {
				m.Schema = prior.Schema // the same schema, written otherwise
			}
			if !m.Schema.Equal(prior.Schema) || !sameRefs(m.References, prior.References) ||
				(!m.SchemaType.IsUnknown() && !m.SchemaType.Equal(prior.SchemaType)) {
				m.Version, m.SchemaID = types.Int64Unknown(), types.Int64Unknown()
			}
		},
		remove: func(ctx context.Context, d *portalData, m *schemaModel) error {
			bu, stage, subject := str(m.BusinessUnit), str(m.Stage), str(m.Name)
			versions, _, err := d.api.ListSchemaVersions(ctx, bu, stage, subject)
			if err != nil {
				return err
			}
			for _, v := range versions.Items {
				n := strconv.Itoa(v.Version)
				if _, err := d.api.DeleteSchema(ctx, bu, stage, subject, n, nil); err != nil && !client.IsNotFound(err) {
					return err
				}
				if m.HardDelete.ValueBool() {
					if _, err := d.api.DeleteSchema(ctx, bu, stage, subject, n, &client.DeleteSchemaParams{Permanent: true}); err != nil && !client.IsNotFound(err) {
						return err
					}
				}
			}
			return nil
		},
		fields: fieldMap(map[string]string{"name": "name", "schema": "schema", "schemaType": "schema_type", "schema_type": "schema_type",
			"references": "references", "topic": "name", "subjectType": "name"}),
	}}
}

// schemaItem declares a subject's latest version.
func schemaItem(m *schemaModel) (wire.DocumentItem, bool) {
	name, ok := knownString(m.Name)
	text, tok := knownString(m.Schema)
	if !ok || !tok {
		return wire.DocumentItem{}, false
	}
	spec := map[string]any{"schema": text}
	if t := str(m.SchemaType); t != "" {
		spec["schemaType"] = t
	}
	var refs []map[string]any
	for _, r := range m.References {
		if r.Name.IsUnknown() || r.Subject.IsUnknown() || r.Version.IsUnknown() {
			return wire.DocumentItem{}, false
		}
		refs = append(refs, map[string]any{"name": r.Name.ValueString(), "subject": r.Subject.ValueString(), "version": r.Version.ValueInt64()})
	}
	if len(refs) > 0 {
		spec["references"] = refs
	}
	return wire.DocumentItem{APIVersion: "portal/v1", Kind: "Schema", Metadata: wire.DocumentMetadata{Name: name}, Spec: spec}, true
}

// schemaVersion reads the subject's latest version and id from the
// stage's list of subjects.
func schemaVersion(ctx context.Context, d *portalData, m *schemaModel) error {
	bu, stage := str(m.BusinessUnit), str(m.Stage)
	latest, err := reads.Listed(ctx, d.reads, bu, stage, "schemas", func(ctx context.Context, token string) (wire.SchemaList, error) {
		l, _, err := d.api.ListSchemas(ctx, bu, stage, &client.ListSchemasParams{LatestOnly: true, PageSize: 1000, PageToken: token})
		return l, err
	})
	if err != nil {
		return err
	}
	// The subject is the one the state names, else (an import) the
	// shortest that ends with the name: the unit's prefix and the name.
	want, found := str(m.Subject), -1
	for i, s := range latest {
		switch {
		case want != "":
			if s.Subject == want {
				found = i
			}
		case strings.HasSuffix(s.Subject, "-"+str(m.Name)) && (found < 0 || len(s.Subject) < len(latest[found].Subject)):
			found = i
		}
	}
	if found >= 0 {
		s := latest[found]
		m.Subject, m.Version, m.SchemaID = types.StringValue(s.Subject), types.Int64Value(int64(s.Version)), types.Int64Value(int64(s.ID))
		return nil
	}
	if m.Version.IsUnknown() || m.Version.IsNull() {
		m.Version, m.SchemaID = types.Int64Value(0), types.Int64Value(0)
	}
	if m.Subject.IsUnknown() {
		m.Subject = types.StringValue("")
	}
	return nil
}

// normalSchema is a schema's text with JSON's spacing and key order
// made canonical; a text that is not JSON stays as it is.
func normalSchema(text string) string {
	var v any
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return strings.TrimSpace(text)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return strings.TrimSpace(text)
	}
	return strings.TrimSpace(buf.String())
}

// sameRefs compares two lists of references.
func sameRefs(a, b []refModel) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].Name.Equal(b[i].Name) || !a[i].Subject.Equal(b[i].Subject) || !a[i].Version.Equal(b[i].Version) {
			return false
		}
	}
	return true
}
