// Package wire is the REST API's contract: the JSON of every body the API
// reads or writes, declared once. The API encodes and decodes these types,
// portalctl reads them, and the API document's schemas are written from
// them (SchemasYAML, Document).
package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// The API document's schemas are derived from the wire types, so that an
// answer and its documentation cannot part: a field's JSON name and type
// come from the struct, and what reflection cannot see from its tags:
//
//	doc:"..."       the description
//	enum:"a,b"      the values it takes
//	example:"..."   an example (parsed as the field's type)
//	format:"..."    date-time, uri, ...
//	pattern:"..."   a regular expression
//	oa:"..."        comma-separated flags: required, readonly, nullable,
//	                unique, min=N, max=N, minlen=N, maxlen=N, minitems=N,
//	                maxitems=N, default=V; hidden leaves a field out of a
//	                ClosedSchema (what a client adds to a file it read)
//	schema:"{...}"  the whole property's schema as flow YAML, for fields
//	                whose Go type says nothing (json.RawMessage)
//
// A pointer without omitempty is nullable: encoding/json writes null.

// Component is one named schema of the document.
type Component struct {
	Name string
	// Value is a zero value of the wire type.
	Value any
	// Doc describes the schema as a whole.
	Doc string
	// Enum lists a scalar type's values.
	Enum []string
	// Example is a whole example in flow YAML.
	Example string
	// Closed refuses properties the type does not have.
	Closed bool
}

// SchemasYAML renders the components' schemas as the YAML mapping that
// the document holds under components.schemas, indented by indent spaces.
func SchemasYAML(comps []Component, indent int) ([]byte, error) {
	g := generator{names: map[reflect.Type]string{}}
	for _, c := range comps {
		t := reflect.TypeOf(c.Value)
		if _, dup := g.names[t]; dup {
			return nil, fmt.Errorf("wire: %s declared twice", t)
		}
		g.names[t] = c.Name
	}
	root := &yaml.Node{Kind: yaml.MappingNode}
	for _, c := range comps {
		s, err := g.component(c)
		if err != nil {
			return nil, fmt.Errorf("wire: %s: %w", c.Name, err)
		}
		root.Content = append(root.Content, str(c.Name), s.node())
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(root); err != nil {
		return nil, err
	}
	pad := strings.Repeat(" ", indent)
	var out bytes.Buffer
	for _, line := range strings.SplitAfter(buf.String(), "\n") {
		if line != "" {
			out.WriteString(pad + line)
		}
	}
	return out.Bytes(), nil
}

type generator struct {
	names map[reflect.Type]string
	// closed: every object refuses properties its type does not have
	// (ClosedSchema).
	closed bool
}

// component renders one named schema: a struct as an object, anything
// else as its type, which its own name must not refer back to.
func (g generator) component(c Component) (*schema, error) {
	t := reflect.TypeOf(c.Value)
	var s *schema
	var err error
	if t.Kind() == reflect.Struct {
		s, err = g.object(t)
	} else {
		delete(g.names, t)
		s, err = g.typed(t)
		g.names[t] = c.Name
	}
	if err != nil {
		return nil, err
	}
	if len(c.Enum) > 0 {
		s.set("enum", strs(c.Enum))
	}
	if c.Closed {
		s.set("additionalProperties", scalar("!!bool", "false"))
	}
	if c.Doc != "" {
		s.set("description", str(c.Doc))
	}
	if c.Example != "" {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(c.Example), &n); err != nil {
			return nil, fmt.Errorf("example: %w", err)
		}
		s.set("example", n.Content[0])
	}
	return s, nil
}

func strs(v []string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
	for _, x := range v {
		n.Content = append(n.Content, str(x))
	}
	return n
}

// schema is an ordered mapping under construction.
type schema struct {
	keys []string
	vals map[string]*yaml.Node
}

func newSchema() *schema { return &schema{vals: map[string]*yaml.Node{}} }

func (s *schema) set(k string, v *yaml.Node) {
	if _, ok := s.vals[k]; !ok {
		s.keys = append(s.keys, k)
	}
	s.vals[k] = v
}

// node renders the schema; a schema with no nested mapping is written in
// flow style, as a person writes a leaf.
func (s *schema) node() *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode}
	leaf := true
	for _, k := range s.keys {
		v := s.vals[k]
		n.Content = append(n.Content, str(k), v)
		if (v.Kind == yaml.MappingNode && v.Style != yaml.FlowStyle) || (v.Kind == yaml.ScalarNode && strings.Contains(v.Value, "\n")) {
			leaf = false
		}
	}
	if leaf && len(s.keys) <= 6 {
		n.Style = yaml.FlowStyle
	}
	return n
}

func str(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if strings.Contains(s, "\n") {
		n.Style = yaml.LiteralStyle
	}
	return n
}

func scalar(tag, v string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: v}
}

// object renders a struct's schema, flattening embedded structs as
// encoding/json does.
func (g generator) object(t reflect.Type) (*schema, error) {
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("%s is not a struct", t)
	}
	s := newSchema()
	s.set("type", str("object"))
	props := newSchema()
	var required []string
	if err := g.fields(t, props, &required); err != nil {
		return nil, err
	}
	if len(required) > 0 {
		s.set("required", strs(required))
	}
	pn := &yaml.Node{Kind: yaml.MappingNode}
	for _, k := range props.keys {
		pn.Content = append(pn.Content, str(k), props.vals[k])
	}
	s.set("properties", pn)
	if g.closed {
		s.set("additionalProperties", scalar("!!bool", "false"))
	}
	return s, nil
}

func (g generator) fields(t reflect.Type, props *schema, required *[]string) error {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name, opts, _ := strings.Cut(tag, ",")
		if name == "-" || (!f.IsExported() && !f.Anonymous) || (g.closed && flag(f, "hidden")) {
			continue
		}
		if f.Anonymous && name == "" {
			if err := g.fields(f.Type, props, required); err != nil {
				return err
			}
			continue
		}
		if name == "" {
			name = f.Name
		}
		p, err := g.property(f, strings.Contains(opts, "omitempty"))
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		props.set(name, p)
		if flag(f, "required") {
			*required = append(*required, name)
		}
	}
	return nil
}

func flag(f reflect.StructField, name string) bool {
	_, ok := option(f, name)
	return ok
}

// option reads one of the oa tag's flags, or its value.
func option(f reflect.StructField, name string) (string, bool) {
	for _, o := range strings.Split(f.Tag.Get("oa"), ",") {
		k, v, _ := strings.Cut(o, "=")
		if k == name {
			return v, true
		}
	}
	return "", false
}

func (g generator) property(f reflect.StructField, omitempty bool) (*yaml.Node, error) {
	if raw := f.Tag.Get("schema"); raw != "" {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(raw), &n); err != nil {
			return nil, fmt.Errorf("schema tag: %w", err)
		}
		return n.Content[0], nil
	}
	t := f.Type
	nullable := false
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
		nullable = !omitempty
	}
	if name, ok := g.names[t]; ok {
		ref := newSchema()
		ref.set("$ref", str("#/components/schemas/"+name))
		if d := f.Tag.Get("doc"); d != "" || nullable {
			// A sibling of $ref is ignored by OpenAPI 3.0: wrap it.
			w := newSchema()
			all := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle, Content: []*yaml.Node{ref.node()}}
			w.set("allOf", all)
			if nullable {
				w.set("nullable", scalar("!!bool", "true"))
			}
			if d != "" {
				w.set("description", str(d))
			}
			return w.node(), nil
		}
		return ref.node(), nil
	}
	s, err := g.typed(t)
	if err != nil {
		return nil, err
	}
	if nullable || flag(f, "nullable") {
		s.set("nullable", scalar("!!bool", "true"))
	}
	if err := annotate(s, f, t); err != nil {
		return nil, err
	}
	return s.node(), nil
}

// typed renders a type without its field's annotations.
func (g generator) typed(t reflect.Type) (*schema, error) {
	s := newSchema()
	if t == reflect.TypeFor[json.RawMessage]() || t.Kind() == reflect.Interface {
		return s, nil
	}
	if t == reflect.TypeFor[time.Time]() {
		s.set("type", str("string"))
		s.set("format", str("date-time"))
		return s, nil
	}
	if name, ok := g.names[t]; ok {
		s.set("$ref", str("#/components/schemas/"+name))
		return s, nil
	}
	switch t.Kind() {
	case reflect.String:
		s.set("type", str("string"))
	case reflect.Bool:
		s.set("type", str("boolean"))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		s.set("type", str("integer"))
	case reflect.Float32, reflect.Float64:
		s.set("type", str("number"))
	case reflect.Slice, reflect.Array:
		items, err := g.element(t.Elem())
		if err != nil {
			return nil, err
		}
		s.set("type", str("array"))
		s.set("items", items)
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return nil, fmt.Errorf("map key %s", t.Key())
		}
		v, err := g.element(t.Elem())
		if err != nil {
			return nil, err
		}
		s.set("type", str("object"))
		s.set("additionalProperties", v)
	case reflect.Struct:
		return g.object(t)
	default:
		return nil, fmt.Errorf("no schema for %s", t)
	}
	return s, nil
}

// element renders an array's item or a map's value; a pointer there is
// nullable, as encoding/json writes nil as null.
func (g generator) element(t reflect.Type) (*yaml.Node, error) {
	nullable := t.Kind() == reflect.Pointer
	if nullable {
		t = t.Elem()
	}
	s, err := g.typed(t)
	if err != nil {
		return nil, err
	}
	if nullable {
		s.set("nullable", scalar("!!bool", "true"))
	}
	return s.node(), nil
}

// annotate adds what the field's tags declare beyond its type.
func annotate(s *schema, f reflect.StructField, t reflect.Type) error {
	if v := f.Tag.Get("format"); v != "" {
		s.set("format", str(v))
	}
	// A slice's pattern and values are its items'.
	for _, o := range []struct {
		tag, key string
		node     func(string) *yaml.Node
	}{
		{"pattern", "pattern", str},
		{"enum", "enum", func(v string) *yaml.Node { return strs(strings.Split(v, ",")) }},
	} {
		v := f.Tag.Get(o.tag)
		if v == "" {
			continue
		}
		if t.Kind() == reflect.Slice {
			items := s.vals["items"]
			items.Content = append(items.Content, str(o.key), o.node(v))
			items.Style = yaml.FlowStyle
		} else {
			s.set(o.key, o.node(v))
		}
	}
	for _, o := range []struct{ flag, key, tag string }{
		{"min", "minimum", "!!int"}, {"max", "maximum", "!!int"},
		{"minlen", "minLength", "!!int"}, {"maxlen", "maxLength", "!!int"}, {"minitems", "minItems", "!!int"}, {"maxitems", "maxItems", "!!int"},
	} {
		if v, ok := option(f, o.flag); ok {
			if _, err := strconv.Atoi(v); err != nil {
				return fmt.Errorf("%s=%q: %w", o.flag, v, err)
			}
			s.set(o.key, scalar(o.tag, v))
		}
	}
	if v, ok := option(f, "default"); ok {
		s.set("default", typedScalar(t, v))
	}
	if flag(f, "unique") {
		s.set("uniqueItems", scalar("!!bool", "true"))
	}
	if flag(f, "readonly") {
		s.set("readOnly", scalar("!!bool", "true"))
	}
	if v := f.Tag.Get("example"); v != "" {
		s.set("example", typedScalar(t, v))
	}
	if v := f.Tag.Get("doc"); v != "" {
		s.set("description", str(v))
	}
	return nil
}

// typedScalar writes v as the field's JSON type, so an integer's example
// is a number and a list's a list (in flow YAML).
func typedScalar(t reflect.Type, v string) *yaml.Node {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return scalar("!!int", v)
	case reflect.Float32, reflect.Float64:
		return scalar("!!float", v)
	case reflect.Bool:
		return scalar("!!bool", v)
	case reflect.Slice, reflect.Map:
		var n yaml.Node
		if yaml.Unmarshal([]byte(v), &n) == nil && len(n.Content) == 1 {
			return n.Content[0]
		}
	}
	return str(v)
}
