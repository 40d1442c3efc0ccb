package tfprovider

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	pschema "github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"

	"github.com/edh-platform/rms-portal/internal/golden"
)

// docsDir is where a provider registry reads the provider's pages (the
// layout tfplugindocs writes: index.md, resources/, data-sources/).
const docsDir = "../docs/terraform"

// examplesDir holds each page's example (resource.tf, data-source.tf,
// import.sh), as tfplugindocs reads them.
const examplesDir = "../examples/terraform"

// TestRegistryDocsAreGenerated: the registry's pages are written from
// the provider's schemas and the examples (make docs); a page that
// differs from what the schema says fails.
func TestRegistryDocsAreGenerated(t *testing.T) {
	pages := registryPages(t)
	if golden.Updating() {
		for _, sub := range []string{"resources", "data-sources"} {
			_ = os.RemoveAll(filepath.Join(docsDir, sub))
			if err := os.MkdirAll(filepath.Join(docsDir, sub), 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	for name, text := range pages {
		golden.File(t, filepath.Join(docsDir, name), []byte(text), "the provider's schema")
	}
	if golden.Updating() {
		return
	}
	for _, sub := range []string{"resources", "data-sources"} {
		entries, _ := os.ReadDir(filepath.Join(docsDir, sub))
		for _, e := range entries {
			if _, ok := pages[sub+"/"+e.Name()]; !ok {
				t.Errorf("%s/%s documents nothing the provider has: run make docs", sub, e.Name())
			}
		}
	}
}

// attribute is one attribute as a page lists it.
type attribute struct {
	name, kind, desc                     string
	required, optional, computed, secret bool
	nested                               map[string]attribute
}

func registryPages(t *testing.T) map[string]string {
	ctx := context.Background()
	p := New("docs")()
	pages := map[string]string{}
	var ps provider.SchemaResponse
	p.Schema(ctx, provider.SchemaRequest{}, &ps)
	var index strings.Builder
	fmt.Fprintf(&index, "---\npage_title: \"portal Provider\"\ndescription: |-\n  %s\n---\n\n# portal Provider\n\n%s\n\n", ps.Schema.Description, ps.Schema.Description)
	index.WriteString("It speaks the portal's API (the typed client of its API document) with a person's or a pipeline's token, so every change is " +
		"checked, audited and refused as at the API; `terraform plan` asks the portal's own plan, so a guardrail policy, a budget or a naming " +
		"rule refuses at plan time, at the attribute it is about. A refresh reads each unit's resources through its export and lists, " +
		"not one request a resource.\n\n")
	index.WriteString(example(t, "main.tf", "terraform"))
	index.WriteString(schemaText(providerAttrs(ps.Schema.Attributes)))
	pages["index.md"] = index.String()

	for _, f := range p.Resources(ctx) {
		r := f()
		var m resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "portal"}, &m)
		var s resource.SchemaResponse
		r.Schema(ctx, resource.SchemaRequest{}, &s)
		var b strings.Builder
		page(&b, m.TypeName, "Resource", s.Schema.Description)
		b.WriteString(example(t, filepath.Join("resources", m.TypeName, "resource.tf"), "terraform"))
		b.WriteString(schemaText(resourceAttrs(s.Schema.Attributes)))
		b.WriteString("## Import\n\nImport is supported using the following syntax, by the item's path (`BU/STAGE/NAME`):\n\n")
		b.WriteString(example(t, filepath.Join("resources", m.TypeName, "import.sh"), "shell"))
		pages["resources/"+strings.TrimPrefix(m.TypeName, "portal_")+".md"] = b.String()
	}
	for _, f := range p.DataSources(ctx) {
		d := f()
		var m datasource.MetadataResponse
		d.Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: "portal"}, &m)
		var s datasource.SchemaResponse
		d.Schema(ctx, datasource.SchemaRequest{}, &s)
		var b strings.Builder
		page(&b, m.TypeName, "Data Source", s.Schema.Description)
		b.WriteString(example(t, filepath.Join("data-sources", m.TypeName, "data-source.tf"), "terraform"))
		b.WriteString(schemaText(sourceAttrs(s.Schema.Attributes)))
		pages["data-sources/"+strings.TrimPrefix(m.TypeName, "portal_")+".md"] = b.String()
	}
	return pages
}

func page(b *strings.Builder, name, kind, desc string) {
	fmt.Fprintf(b, "---\npage_title: \"%s %s - portal\"\nsubcategory: \"\"\ndescription: |-\n  %s\n---\n\n# %s (%s)\n\n%s\n\n",
		name, kind, desc, name, kind, desc)
}

// example is an example file as a fenced block; every page has one.
func example(t *testing.T, file, lang string) string {
	raw, err := os.ReadFile(filepath.Join(examplesDir, file))
	if err != nil {
		t.Errorf("no example %s: %v", file, err)
	}
	head := "## Example Usage\n\n"
	if lang == "shell" {
		head = ""
	}
	return head + "```" + lang + "\n" + strings.TrimRight(string(raw), "\n") + "\n```\n\n"
}

// schemaText lists attributes as the registry's pages do: required,
// optional, read-only, then nested schemas.
func schemaText(attrs map[string]attribute) string {
	var b strings.Builder
	b.WriteString("## Schema\n\n")
	var nested []attribute
	for _, group := range []struct {
		title string
		in    func(a attribute) bool
	}{
		{"Required", func(a attribute) bool { return a.required }},
		{"Optional", func(a attribute) bool { return a.optional }},
		{"Read-Only", func(a attribute) bool { return !a.required && !a.optional }},
	} {
		var names []string
		for n, a := range attrs {
			if group.in(a) {
				names = append(names, n)
			}
		}
		if len(names) == 0 {
			continue
		}
		slices.Sort(names)
		fmt.Fprintf(&b, "### %s\n\n", group.title)
		for _, n := range names {
			a := attrs[n]
			kind := a.kind
			if a.secret {
				kind += ", Sensitive"
			}
			desc := a.desc
			if a.nested != nil {
				desc += " (see [below for nested schema](#nestedatt--" + n + "))"
				nested = append(nested, a)
			}
			fmt.Fprintf(&b, "- `%s` (%s) %s\n", n, kind, strings.TrimSpace(desc))
		}
		b.WriteString("\n")
	}
	slices.SortFunc(nested, func(x, y attribute) int { return strings.Compare(x.name, y.name) })
	for _, a := range nested {
		fmt.Fprintf(&b, "<a id=\"nestedatt--%s\"></a>\n### Nested Schema for `%s`\n\n", a.name, a.name)
		var names []string
		for n := range a.nested {
			names = append(names, n)
		}
		slices.Sort(names)
		for _, n := range names {
			na := a.nested[n]
			fmt.Fprintf(&b, "- `%s` (%s) %s\n", n, na.kind, strings.TrimSpace(na.desc))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// kindOf names an attribute's type as the registry's pages do.
func kindOf(a interface {
	GetType() attr.Type
}) string {
	s := a.GetType().String()
	switch {
	case strings.HasPrefix(s, "basetypes.StringType"):
		return "String"
	case strings.HasPrefix(s, "basetypes.Int64Type"):
		return "Number"
	case strings.HasPrefix(s, "basetypes.Float64Type"):
		return "Number"
	case strings.HasPrefix(s, "basetypes.BoolType"):
		return "Boolean"
	case strings.HasPrefix(s, "types.MapType"):
		return "Map of String"
	case strings.HasPrefix(s, "types.SetType"):
		return "Set of String"
	case strings.HasPrefix(s, "types.ListType[basetypes.StringType]"):
		return "List of String"
	case strings.HasPrefix(s, "types.ListType"):
		return "Attributes List"
	}
	return s
}

func providerAttrs(in map[string]pschema.Attribute) map[string]attribute {
	out := map[string]attribute{}
	for n, a := range in {
		out[n] = attribute{name: n, kind: kindOf(a), desc: a.GetDescription(), required: a.IsRequired(), optional: a.IsOptional(), secret: a.IsSensitive()}
	}
	return out
}

func resourceAttrs(in map[string]rschema.Attribute) map[string]attribute {
	out := map[string]attribute{}
	for n, a := range in {
		at := attribute{name: n, kind: kindOf(a), desc: a.GetDescription(), required: a.IsRequired(), optional: a.IsOptional(),
			computed: a.IsComputed(), secret: a.IsSensitive()}
		if l, ok := a.(rschema.ListNestedAttribute); ok {
			at.nested = resourceAttrs(l.NestedObject.Attributes)
		}
		out[n] = at
	}
	return out
}

func sourceAttrs(in map[string]dschema.Attribute) map[string]attribute {
	out := map[string]attribute{}
	for n, a := range in {
		at := attribute{name: n, kind: kindOf(a), desc: a.GetDescription(), required: a.IsRequired(), optional: a.IsOptional(),
			computed: a.IsComputed(), secret: a.IsSensitive()}
		if l, ok := a.(dschema.ListNestedAttribute); ok {
			at.nested = sourceAttrs(l.NestedObject.Attributes)
		}
		out[n] = at
	}
	return out
}
