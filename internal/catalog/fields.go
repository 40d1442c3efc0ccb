package catalog

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
)

// maxFields bounds the field names kept of one schema (a huge schema is
// one tenant's, and the catalog is everyone's).
const maxFields = 500

// maxSchemaBytes bounds the schema text read for field names.
const maxSchemaBytes = 1 << 20

// Fields lists the field names of a schema (lower case, nested ones too,
// unique, sorted), for search: an Avro record's fields, a JSON Schema's
// properties, a Protobuf message's fields. A schema that does not parse,
// or is too large, has none.
func Fields(schemaType, text string) []string {
	if len(text) > maxSchemaBytes {
		return nil
	}
	f := fieldSet{}
	switch strings.ToUpper(schemaType) {
	case "PROTOBUF":
		for _, m := range protoField.FindAllStringSubmatch(text, maxFields) {
			f.add(m[1])
		}
	default: // AVRO (the registry's default) and JSON are both JSON documents
		var doc any
		if json.Unmarshal([]byte(text), &doc) != nil {
			return nil
		}
		if strings.ToUpper(schemaType) == "JSON" {
			jsonProperties(doc, f, 0)
		} else {
			avroFields(doc, f, 0)
		}
	}
	out := make([]string, 0, len(f))
	for n := range f {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

type fieldSet map[string]bool

func (f fieldSet) add(name string) {
	if name != "" && len(f) < maxFields {
		f[strings.ToLower(name)] = true
	}
}

// protoField matches a field line of a message: an optional label, a
// type, the name, its number.
var protoField = regexp.MustCompile(`(?m)^\s*(?:optional\s+|repeated\s+|required\s+)?(?:map<[^>]+>|[A-Za-z_][\w.]*)\s+([A-Za-z_]\w*)\s*=\s*\d+`)

// avroFields walks an Avro schema: records' fields, and the types of
// fields, arrays, maps and unions.
func avroFields(node any, f fieldSet, depth int) {
	if depth > 32 || len(f) >= maxFields {
		return
	}
	switch n := node.(type) {
	case []any: // a union
		for _, t := range n {
			avroFields(t, f, depth+1)
		}
	case map[string]any:
		if fields, ok := n["fields"].([]any); ok {
			for _, fd := range fields {
				if m, ok := fd.(map[string]any); ok {
					name, _ := m["name"].(string)
					f.add(name)
					avroFields(m["type"], f, depth+1)
				}
			}
		}
		for _, k := range []string{"items", "values", "type"} {
			if t, ok := n[k]; ok && k != "type" || ok && isComplex(t) {
				avroFields(t, f, depth+1)
			}
		}
	}
}

func isComplex(t any) bool {
	switch t.(type) {
	case map[string]any, []any:
		return true
	}
	return false
}

// jsonProperties walks a JSON Schema's properties, items and
// definitions.
func jsonProperties(node any, f fieldSet, depth int) {
	if depth > 32 || len(f) >= maxFields {
		return
	}
	switch n := node.(type) {
	case []any:
		for _, t := range n {
			jsonProperties(t, f, depth+1)
		}
	case map[string]any:
		if props, ok := n["properties"].(map[string]any); ok {
			for name, sub := range props {
				f.add(name)
				jsonProperties(sub, f, depth+1)
			}
		}
		for _, k := range []string{"items", "definitions", "$defs", "oneOf", "anyOf", "allOf"} {
			if sub, ok := n[k]; ok {
				if defs, isMap := sub.(map[string]any); isMap && (k == "definitions" || k == "$defs") {
					for _, d := range defs {
						jsonProperties(d, f, depth+1)
					}
					continue
				}
				jsonProperties(sub, f, depth+1)
			}
		}
	}
}
