package document

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/ascode"
)

// MaxResources bounds the resources of one document: a plan reads each.
const MaxResources = 500

// Read parses a document: multi-document YAML whose documents are
// resources or {items: [...]} lists, or the same as JSON. Every problem is
// reported at once, each named by its place (items[2].spec.partitions)
// with its line in YAML.
func Read(data []byte) (ascode.Document, error) {
	var roots []*yaml.Node
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return ascode.Document{}, portal.New(portal.MalformedBody, "the document is empty; send resources as YAML or {\"items\": [...]} as JSON")
	}
	if trimmed[0] == '{' || trimmed[0] == '[' {
		// JSON is read by the JSON decoder: YAML's reading of JSON differs
		// on tabs and on large numbers.
		var v any
		dec := json.NewDecoder(bytes.NewReader(trimmed))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			return ascode.Document{}, portal.Wrap(err, portal.MalformedBody, "the document is not valid JSON: %v", err)
		}
		if dec.More() {
			return ascode.Document{}, portal.New(portal.MalformedBody, "the document holds more than one JSON value")
		}
		roots = append(roots, jsonNode(v))
	} else {
		dec := yaml.NewDecoder(bytes.NewReader(data))
		for {
			var n yaml.Node
			err := dec.Decode(&n)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return ascode.Document{}, portal.Wrap(err, portal.MalformedBody, "the document is not valid YAML: %v", strings.TrimPrefix(err.Error(), "yaml: "))
			}
			if len(n.Content) > 0 && !(n.Content[0].Kind == yaml.ScalarNode && n.Content[0].Tag == "!!null") {
				roots = append(roots, n.Content[0])
			}
		}
	}
	var (
		doc   ascode.Document
		v     portal.Validation
		items []*yaml.Node
	)
	for _, root := range roots {
		if root.Kind != yaml.MappingNode {
			v.Add(portal.New(portal.MalformedBody, "%sa document must be a resource or {items: [...]}, not %s", at(root), nodeKind(root)))
			continue
		}
		f := fields(root)
		if list, ok := f["items"]; ok {
			for k, n := range f {
				switch k {
				case "items":
				case "prune":
					if err := n.Decode(&doc.Prune); err != nil {
						v.Add(portal.Invalid("prune", "%sprune must be true or false", at(n)))
					}
				case "force":
					if err := n.Decode(&doc.Force); err != nil {
						v.Add(portal.Invalid("force", "%sforce must be true or false", at(n)))
					}
				case "apiVersion", "kind":
				default:
					v.Add(portal.Invalid(k, "%s%s is not a field of a document; it holds items, prune and force", at(n), k))
				}
			}
			if list.Kind != yaml.SequenceNode {
				v.Add(portal.Invalid("items", "%sitems must be a list of resources", at(list)))
				continue
			}
			items = append(items, list.Content...)
			continue
		}
		items = append(items, root)
	}
	if len(items) > MaxResources {
		v.Add(portal.Invalid("items", "the document holds %d resources; at most %d are planned at once", len(items), MaxResources))
	}
	if err := v.Err(); err != nil {
		return ascode.Document{}, err
	}
	for i, n := range items {
		if r, ok := readResource(n, fmt.Sprintf("items[%d]", i), &v); ok {
			doc.Resources = append(doc.Resources, r)
		}
	}
	return doc, v.Err()
}

func readResource(n *yaml.Node, path string, v *portal.Validation) (portal.Resource, bool) {
	if n.Kind != yaml.MappingNode {
		v.Add(portal.Invalid(path, "%sa resource must be an object with apiVersion, kind, metadata and spec", at(n)))
		return portal.Resource{}, false
	}
	before := len(v.Problems)
	f := fields(n)
	var (
		apiVersion, kind string
		meta             metadata
		spec             any
	)
	decodeScalar(f, "apiVersion", path, &apiVersion, v)
	decodeScalar(f, "kind", path, &kind, v)
	switch {
	case apiVersion == "" && f["apiVersion"] == nil:
		v.Add(portal.Invalid(path+".apiVersion", "%sapiVersion is required: %s", at(n), portal.ResourceAPIVersion))
	case apiVersion != portal.ResourceAPIVersion:
		v.Add(portal.Invalid(path+".apiVersion", "%sapiVersion must be %s, not %q", at(f["apiVersion"]), portal.ResourceAPIVersion, apiVersion))
	}
	if kind != "" {
		if spec = newSpec(kind); spec == nil {
			v.Add(portal.Invalid(path+".kind", "%skind must be one of %s, not %q", at(f["kind"]), strings.Join(portal.ResourceKinds(), ", "), kind))
		}
	} else if f["kind"] == nil {
		v.Add(portal.Invalid(path+".kind", "%skind is required: one of %s", at(n), strings.Join(portal.ResourceKinds(), ", ")))
	}
	if m, ok := f["metadata"]; ok {
		decodeStruct(m, path+".metadata", &meta, v)
	}
	if strings.TrimSpace(meta.Name) == "" {
		v.Add(portal.Invalid(path+".metadata.name", "%smetadata.name is required", at(n)))
	}
	switch s, ok := f["spec"]; {
	case !ok && spec != nil:
		v.Add(portal.Invalid(path+".spec", "%sspec is required", at(n)))
	case spec != nil:
		decodeStruct(s, path+".spec", spec, v)
	}
	for k, kn := range f {
		if !slices.Contains([]string{"apiVersion", "kind", "metadata", "spec"}, k) {
			v.Add(portal.Invalid(path+"."+k, "%s%s is not a field of a resource (apiVersion, kind, metadata, spec)", at(kn), k))
		}
	}
	if len(v.Problems) > before {
		return portal.Resource{}, false
	}
	return toResource(kind, meta, spec), true
}

// decodeStruct decodes a mapping into the struct out points to, field by
// field, so that each unknown key and each value of the wrong type is
// reported by its own path.
func decodeStruct(n *yaml.Node, path string, out any, v *portal.Validation) {
	if n.Kind != yaml.MappingNode {
		v.Add(portal.Invalid(path, "%s%s must be an object, not %s", at(n), path[strings.LastIndex(path, ".")+1:], nodeKind(n)))
		return
	}
	rv := reflect.ValueOf(out).Elem()
	byName := map[string]reflect.Value{}
	var names []string
	for i := range rv.NumField() {
		tag := strings.Split(rv.Type().Field(i).Tag.Get("json"), ",")[0]
		byName[tag] = rv.Field(i)
		names = append(names, tag)
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, val := n.Content[i].Value, n.Content[i+1]
		field, ok := byName[key]
		if !ok {
			v.Add(portal.Invalid(path+"."+key, "%s%s is not a field here; the fields are %s", at(n.Content[i]), key, strings.Join(names, ", ")))
			continue
		}
		if val.Kind == yaml.ScalarNode && val.Tag == "!!null" {
			continue
		}
		if field.Kind() == reflect.Slice && field.Type().Elem().Kind() == reflect.Struct {
			decodeList(val, path+"."+key, field, v)
			continue
		}
		if err := val.Decode(field.Addr().Interface()); err != nil {
			v.Add(portal.Invalid(path+"."+key, "%s%s must be %s", at(val), key, describe(field.Type())))
		}
	}
}

// decodeList decodes a list of objects item by item, each as decodeStruct
// does, so that a misspelt field of the third item is named as such.
func decodeList(n *yaml.Node, path string, out reflect.Value, v *portal.Validation) {
	if n.Kind != yaml.SequenceNode {
		v.Add(portal.Invalid(path, "%s%s must be a list, not %s", at(n), path[strings.LastIndex(path, ".")+1:], nodeKind(n)))
		return
	}
	list := reflect.MakeSlice(out.Type(), len(n.Content), len(n.Content))
	for i, item := range n.Content {
		decodeStruct(item, fmt.Sprintf("%s[%d]", path, i), list.Index(i).Addr().Interface(), v)
	}
	out.Set(list)
}

func decodeScalar(f map[string]*yaml.Node, key, path string, out *string, v *portal.Validation) {
	n, ok := f[key]
	if !ok {
		return
	}
	if n.Kind != yaml.ScalarNode || n.Decode(out) != nil {
		v.Add(portal.Invalid(path+"."+key, "%s%s must be a string", at(n), key))
	}
}

// fields indexes a mapping's values by key.
func fields(n *yaml.Node) map[string]*yaml.Node {
	out := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		out[n.Content[i].Value] = n.Content[i+1]
	}
	return out
}

// at prefixes a message with the node's line, when it came from YAML.
func at(n *yaml.Node) string {
	if n == nil || n.Line == 0 {
		return ""
	}
	return "line " + strconv.Itoa(n.Line) + ": "
}

func nodeKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "an object"
	}
	return "a value"
}

func describe(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Pointer:
		return describe(t.Elem())
	case reflect.Int:
		return "a whole number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice:
		return "a list"
	case reflect.Map:
		if t.Elem().Kind() == reflect.String {
			return "an object of strings"
		}
		return "an object"
	}
	return "an object"
}

// jsonNode turns a decoded JSON value into a YAML node, so that one reader
// serves both formats.
func jsonNode(v any) *yaml.Node {
	switch x := v.(type) {
	case map[string]any:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k}, jsonNode(x[k]))
		}
		return n
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for _, e := range x {
			n.Content = append(n.Content, jsonNode(e))
		}
		return n
	case string:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: x}
	case json.Number:
		tag := "!!int"
		if strings.ContainsAny(x.String(), ".eE") {
			tag = "!!float"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: x.String()}
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(x)}
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
}
