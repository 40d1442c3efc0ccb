package document

import (
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/wire"
)

// The published JSON Schema of each documented kind, and resource.json,
// which takes any of them, are written from the kinds' specs (their Go
// types and tags, wire.ClosedSchema) and declarations (portal.KindInfo):
// a spec's field and its schema cannot part. `make docs` writes them into
// schemas/ (GeneratedSchemas); metadata.json and document.json, which no
// kind changes, are written by hand.

// ruled is a spec with a rule across its fields that no field's tags can
// say, as flow YAML merged into its schema.
type ruled interface{ schemaRule() string }

func (schemaSpec) schemaRule() string {
	return "{oneOf: [{required: [schema]}, {required: [schemaFile]}]}"
}

// GeneratedSchemas renders the JSON Schema files written from the kinds,
// by file name.
func GeneratedSchemas() (map[string][]byte, error) {
	out := map[string][]byte{}
	var refs []*yaml.Node
	for _, kind := range portal.ResourceKinds() {
		k, _ := portal.KindNamed(kind)
		name := k.Change + ".json"
		b, err := kindSchema(k)
		if err != nil {
			return nil, fmt.Errorf("document: %s: %w", name, err)
		}
		out[name] = b
		refs = append(refs, mapping("$ref", text(name)))
	}
	b, err := wire.JSON(mapping(
		"$schema", text(draft), "$id", text("resource.json"), "title", text("Resource"),
		"description", text("One resource of a desired-state document, as each document of a multi-document YAML file holds it."),
		"oneOf", &yaml.Node{Kind: yaml.SequenceNode, Content: refs}))
	if err != nil {
		return nil, err
	}
	out["resource.json"] = b
	return out, nil
}

const draft = "https://json-schema.org/draft/2020-12/schema"

// kindSchema is one kind's file: the resource's envelope around its spec.
func kindSchema(k portal.KindInfo) ([]byte, error) {
	spec := newSpec(k.Document)
	if spec == nil {
		return nil, fmt.Errorf("no spec for %s", k.Document)
	}
	s, err := wire.ClosedSchema(spec)
	if err != nil {
		return nil, err
	}
	if r, ok := spec.(ruled); ok {
		var rule yaml.Node
		if err := yaml.Unmarshal([]byte(r.schemaRule()), &rule); err != nil {
			return nil, fmt.Errorf("rule: %w", err)
		}
		s.Content = append(s.Content, rule.Content[0].Content...)
	}
	required := &yaml.Node{Kind: yaml.SequenceNode}
	for _, f := range []string{"apiVersion", "kind", "metadata", "spec"} {
		required.Content = append(required.Content, text(f))
	}
	return wire.JSON(mapping(
		"$schema", text(draft), "$id", text(k.Change+".json"), "title", text(k.Document), "description", text(k.About),
		"type", text("object"), "required", required, "additionalProperties", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "false"},
		"properties", mapping(
			"apiVersion", mapping("const", text(portal.ResourceAPIVersion)),
			"kind", mapping("const", text(k.Document)),
			"metadata", mapping("$ref", text("metadata.json")),
			"spec", s)))
}

func text(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

// mapping builds a mapping node of key, value pairs in order.
func mapping(kv ...any) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode}
	for i := 0; i < len(kv); i += 2 {
		n.Content = append(n.Content, text(kv[i].(string)), kv[i+1].(*yaml.Node))
	}
	return n
}
