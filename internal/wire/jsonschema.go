package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"

	"go.yaml.in/yaml/v3"
)

// ClosedSchema renders v's type as a JSON Schema with no references,
// under the tags' rules (see SchemasYAML), in which every object refuses
// the properties its type does not have: the schema of a file people
// write, where a misspelt key must be named. Fields tagged oa:"hidden"
// are left out.
func ClosedSchema(v any) (*yaml.Node, error) {
	g := generator{names: map[reflect.Type]string{}, closed: true}
	t := reflect.TypeOf(v)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	s, err := g.typed(t)
	if err != nil {
		return nil, fmt.Errorf("wire: %T: %w", v, err)
	}
	return s.node(), nil
}

// JSON writes a YAML node of plain values (mappings, sequences, scalars)
// as indented JSON, keeping the mappings' order.
func JSON(n *yaml.Node) ([]byte, error) {
	var buf bytes.Buffer
	if err := writeJSON(&buf, n); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, buf.Bytes(), "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

func writeJSON(buf *bytes.Buffer, n *yaml.Node) error {
	switch n.Kind {
	case yaml.DocumentNode:
		return writeJSON(buf, n.Content[0])
	case yaml.MappingNode:
		buf.WriteByte('{')
		for i := 0; i < len(n.Content); i += 2 {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := plain(buf, n.Content[i].Value); err != nil {
				return err
			}
			buf.WriteByte(':')
			if err := writeJSON(buf, n.Content[i+1]); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
	case yaml.SequenceNode:
		buf.WriteByte('[')
		for i, c := range n.Content {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := writeJSON(buf, c); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	case yaml.ScalarNode:
		var v any
		if err := n.Decode(&v); err != nil {
			return err
		}
		return plain(buf, v)
	default:
		return fmt.Errorf("wire: no JSON for a YAML node of kind %d", n.Kind)
	}
	return nil
}

// plain writes v as JSON without escaping <, > and &, which a schema's
// descriptions hold ("<topic>-key").
func plain(buf *bytes.Buffer, v any) error {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	buf.Truncate(buf.Len() - 1) // Encode ends with a newline
	return nil
}
