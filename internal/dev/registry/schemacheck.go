package registry

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/hamba/avro/v2"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// parsed is a schema checked by its parser, with the canonical text used
// to recognise a schema registered before.
type parsed struct {
	typ       string
	canonical string
	avro      avro.Schema
	json      map[string]any
}

// parseSchema parses text of a type; refs are the texts of referenced
// schemas by name, parsed first so that their named types resolve.
func parseSchema(typ, text string, refs []string) (parsed, error) {
	switch typ {
	case "AVRO":
		cache := &avro.SchemaCache{}
		for _, r := range refs {
			if _, err := avro.ParseWithCache(r, "", cache); err != nil {
				return parsed{}, fmt.Errorf("a referenced schema is invalid: %w", err)
			}
		}
		s, err := avro.ParseWithCache(text, "", cache)
		if err != nil {
			return parsed{}, fmt.Errorf("invalid Avro schema: %w", err)
		}
		if err := uniqueFields(s, map[avro.Schema]bool{}); err != nil {
			return parsed{}, fmt.Errorf("invalid Avro schema: %w", err)
		}
		return parsed{typ: typ, canonical: canonicalAvro(s), avro: s}, nil
	case "JSON":
		var doc map[string]any
		if err := json.Unmarshal([]byte(text), &doc); err != nil {
			return parsed{}, fmt.Errorf("invalid JSON schema: not a JSON object: %w", err)
		}
		c := jsonschema.NewCompiler()
		c.UseLoader(refusingLoader{}) // a $ref to a file must not read this machine's files
		schemaDoc, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
		if err != nil {
			return parsed{}, fmt.Errorf("invalid JSON schema: %w", err)
		}
		if err := c.AddResource("schema.json", schemaDoc); err != nil {
			return parsed{}, fmt.Errorf("invalid JSON schema: %w", err)
		}
		if _, err := c.Compile("schema.json"); err != nil {
			return parsed{}, fmt.Errorf("invalid JSON schema: %w", err)
		}
		var buf bytes.Buffer
		_ = json.Compact(&buf, []byte(text))
		return parsed{typ: typ, canonical: buf.String(), json: doc}, nil
	}
	return parsed{}, fmt.Errorf("schema type %s is not supported by this registry", typ)
}

// readable reports why data written with writer cannot be read with
// reader, or "" when it can.
func readable(reader, writer parsed) string {
	if reader.typ != writer.typ {
		return fmt.Sprintf("the schema type changed from %s to %s", writer.typ, reader.typ)
	}
	if reader.typ == "AVRO" {
		return avroReadable(reader.avro, writer.avro, "")
	}
	return strings.Join(jsonReadable(reader.json, writer.json, "#"), "; ")
}

// avroReadable checks records field by field, so that the reason names the
// field, and leaves the rules to hamba/avro's compatibility check.
func avroReadable(reader, writer avro.Schema, path string) string {
	rr, rok := reader.(*avro.RecordSchema)
	wr, wok := writer.(*avro.RecordSchema)
	if rok && wok && rr.FullName() == wr.FullName() {
		for _, f := range rr.Fields() {
			at := f.Name()
			if path != "" {
				at = path + "." + f.Name()
			}
			wf := fieldOf(wr, f)
			if wf == nil {
				if !f.HasDefault() {
					return fmt.Sprintf("field %s was added without a default, so earlier records cannot be read", at)
				}
				continue
			}
			if why := avroReadable(f.Type(), wf.Type(), at); why != "" {
				return why
			}
		}
		return ""
	}
	re, rok := reader.(*avro.EnumSchema)
	we, wok := writer.(*avro.EnumSchema)
	if rok && wok && re.FullName() == we.FullName() {
		return enumReadable(re, we, path)
	}
	if err := avro.NewSchemaCompatibility().Compatible(reader, writer); err != nil {
		if path != "" {
			return "field " + path + ": " + err.Error()
		}
		return err.Error()
	}
	return ""
}

func fieldOf(r *avro.RecordSchema, f *avro.Field) *avro.Field {
	for _, wf := range r.Fields() {
		if wf.Name() == f.Name() || slices.Contains(f.Aliases(), wf.Name()) {
			return wf
		}
	}
	return nil
}

// jsonReadable applies the basic JSON Schema rules: the reader may not
// change a type, require a property the writer did not, narrow an enum, or
// drop a property while forbidding additional ones.
func jsonReadable(reader, writer map[string]any, at string) []string {
	var out []string
	if rt, wt := fmt.Sprint(reader["type"]), fmt.Sprint(writer["type"]); reader["type"] != nil && writer["type"] != nil && rt != wt {
		out = append(out, fmt.Sprintf("%s: type changed from %s to %s", at, wt, rt))
	}
	if re, ok := reader["enum"].([]any); ok {
		we, _ := writer["enum"].([]any)
		for _, v := range we {
			if !slices.ContainsFunc(re, func(x any) bool { return fmt.Sprint(x) == fmt.Sprint(v) }) {
				out = append(out, fmt.Sprintf("%s: enum value %v was removed", at, v))
			}
		}
	}
	rp, _ := reader["properties"].(map[string]any)
	wp, _ := writer["properties"].(map[string]any)
	wreq := stringsOf(writer["required"])
	for _, name := range stringsOf(reader["required"]) {
		if !slices.Contains(wreq, name) {
			out = append(out, fmt.Sprintf("%s: property %s is now required", at, name))
		}
	}
	if open, isBool := reader["additionalProperties"].(bool); isBool && !open {
		for _, name := range sortedKeys(wp) {
			if _, ok := rp[name]; !ok {
				out = append(out, fmt.Sprintf("%s: property %s was removed while additional properties are not allowed", at, name))
			}
		}
	}
	for _, name := range sortedKeys(rp) {
		rs, _ := rp[name].(map[string]any)
		ws, _ := wp[name].(map[string]any)
		if rs != nil && ws != nil {
			out = append(out, jsonReadable(rs, ws, at+"/properties/"+name)...)
		}
	}
	return out
}

func stringsOf(v any) []string {
	arr, _ := v.([]any)
	var out []string
	for _, x := range arr {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// compatible checks a new schema against earlier ones under a level and
// returns the reasons it is not compatible.
func compatible(level string, next parsed, earlier []parsed) []string {
	if len(earlier) == 0 || level == "NONE" {
		return nil
	}
	against := earlier[len(earlier)-1:]
	if strings.HasSuffix(level, "_TRANSITIVE") {
		against = earlier
	}
	backward := strings.HasPrefix(level, "BACKWARD") || strings.HasPrefix(level, "FULL")
	forward := strings.HasPrefix(level, "FORWARD") || strings.HasPrefix(level, "FULL")
	var out []string
	for _, old := range against {
		if backward {
			if why := readable(next, old); why != "" {
				out = append(out, "new schema cannot read data written with an earlier one: "+why)
			}
		}
		if forward {
			if why := readable(old, next); why != "" {
				out = append(out, "an earlier schema cannot read data written with the new one: "+why)
			}
		}
	}
	return out
}

// uniqueFields refuses records with two fields of one name, as the Avro
// specification does ("field names must be unique"); the parser used here
// lets them through.
func uniqueFields(s avro.Schema, seen map[avro.Schema]bool) error {
	if seen[s] {
		return nil
	}
	seen[s] = true
	switch x := s.(type) {
	case *avro.RecordSchema:
		names := map[string]bool{}
		for _, f := range x.Fields() {
			if names[f.Name()] {
				return fmt.Errorf("record %s has two fields named %s", x.FullName(), f.Name())
			}
			names[f.Name()] = true
			if err := uniqueFields(f.Type(), seen); err != nil {
				return err
			}
		}
	case *avro.ArraySchema:
		return uniqueFields(x.Items(), seen)
	case *avro.MapSchema:
		return uniqueFields(x.Values(), seen)
	case *avro.UnionSchema:
		for _, t := range x.Types() {
			if err := uniqueFields(t, seen); err != nil {
				return err
			}
		}
	case *avro.RefSchema:
		return uniqueFields(x.Schema(), seen)
	}
	return nil
}

// refusingLoader loads no referenced document.
type refusingLoader struct{}

func (refusingLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("references to other documents (%s) are not supported here", url)
}
