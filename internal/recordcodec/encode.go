// Package recordcodec writes records' values with their schema: Avro's
// binary encoding, or JSON once its JSON Schema holds. It is pure: no
// registry, no cluster; problems name the value's field.
package recordcodec

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/hamba/avro/v2"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/schema"
)

// Encode writes one value (JSON text) for the value's field
// ("records[2].value"); problems name the field within it
// ("records[2].value.amount").
type Encode func(v, field string) ([]byte, []*portal.Error)

// Encoder returns how values are written with a schema version: Avro's
// binary encoding, or the JSON itself once its JSON Schema holds.
func Encoder(sv schema.SchemaVersion) (Encode, error) {
	if len(sv.References) > 0 {
		return nil, portal.Invalid("subject", "subject %s version %d refers to other schemas; the portal does not write with those yet", sv.Subject, sv.Version)
	}
	switch sv.Type {
	case schema.SchemaAvro, "":
		parsed, err := avro.Parse(sv.Schema)
		if err != nil {
			return nil, portal.Invalid("subject", "the schema of %s version %d does not parse: %s", sv.Subject, sv.Version, err)
		}
		return func(v, field string) ([]byte, []*portal.Error) {
			doc, err := decodeJSON(v)
			if err != nil {
				return nil, []*portal.Error{portal.Invalid(field, "the value is not JSON: %s", err)}
			}
			native, err := avroNative(parsed, doc, "")
			if err != nil {
				return nil, []*portal.Error{fieldError(field, err)}
			}
			b, err := avro.Marshal(parsed, native)
			if err != nil {
				return nil, []*portal.Error{portal.Invalid(field, "the value does not fit the Avro schema: %s", err)}
			}
			return b, nil
		}, nil
	case schema.SchemaJSON:
		c := jsonschema.NewCompiler()
		// A schema's $ref to a file or a URL is not followed: the library
		// would read the portal's own files.
		c.UseLoader(noLoader{})
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(sv.Schema))
		if err == nil {
			err = c.AddResource("mem:///schema.json", doc)
		}
		var compiled *jsonschema.Schema
		if err == nil {
			compiled, err = c.Compile("mem:///schema.json")
		}
		if err != nil {
			return nil, portal.Invalid("subject", "the JSON Schema of %s version %d does not compile: %s", sv.Subject, sv.Version, err)
		}
		return func(v, field string) ([]byte, []*portal.Error) {
			inst, err := jsonschema.UnmarshalJSON(strings.NewReader(v))
			if err != nil {
				return nil, []*portal.Error{portal.Invalid(field, "the value is not JSON: %s", err)}
			}
			if err := compiled.Validate(inst); err != nil {
				return nil, schemaProblems(field, err)
			}
			return []byte(v), nil
		}, nil
	}
	return nil, portal.Invalid("subject", "subject %s holds a %s schema; the portal writes Avro and JSON Schema", sv.Subject, sv.Type)
}

// noLoader refuses to load referenced documents.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("the schema refers to %s; the portal does not load referenced documents", url)
}

// schemaProblems turns a JSON Schema validation error into one problem
// per failing place of the value.
func schemaProblems(field string, err error) []*portal.Error {
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return []*portal.Error{portal.Invalid(field, "%s", err)}
	}
	var out []*portal.Error
	var walk func(u jsonschema.OutputUnit)
	walk = func(u jsonschema.OutputUnit) {
		if len(u.Errors) == 0 && u.Error != nil {
			out = append(out, portal.Invalid(field+pointerPath(u.InstanceLocation), "%s", u.Error.String()))
		}
		for _, c := range u.Errors {
			walk(c)
		}
	}
	walk(*ve.BasicOutput())
	if len(out) == 0 {
		out = append(out, portal.Invalid(field, "the value does not hold to its JSON Schema"))
	}
	return out
}

// pointerPath turns a JSON pointer ("/items/0/id") into the field's
// dotted tail (".items[0].id").
func pointerPath(ptr string) string {
	if ptr == "" || ptr == "/" {
		return ""
	}
	var b strings.Builder
	for _, part := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		part = strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")
		if _, err := strconv.Atoi(part); err == nil {
			b.WriteString("[" + part + "]")
			continue
		}
		b.WriteString("." + part)
	}
	return b.String()
}

// pathError is a problem at a place inside the value.
type pathError struct {
	path string
	msg  string
}

func (e *pathError) Error() string { return e.path + ": " + e.msg }

func fieldError(field string, err error) *portal.Error {
	if pe, ok := err.(*pathError); ok {
		return portal.Invalid(field+pe.path, "%s", pe.msg)
	}
	return portal.Invalid(field, "%s", err)
}

func decodeJSON(v string) (any, error) {
	d := json.NewDecoder(strings.NewReader(v))
	d.UseNumber()
	var doc any
	if err := d.Decode(&doc); err != nil {
		return nil, err
	}
	if d.More() {
		return nil, fmt.Errorf("more than one JSON value")
	}
	return doc, nil
}

// avroNative turns a JSON value into what hamba/avro encodes for s:
// numbers of the right width, unions as {branch: value}, bytes and fixed
// from strings. Records take their fields' defaults and refuse fields
// the schema does not have.
func avroNative(s avro.Schema, v any, path string) (any, error) {
	bad := func(format string, args ...any) error {
		return &pathError{path: path, msg: fmt.Sprintf(format, args...)}
	}
	switch t := s.(type) {
	case *avro.RefSchema:
		return avroNative(t.Schema(), v, path)
	case *avro.RecordSchema:
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, bad("expected an object for record %s", t.Name())
		}
		out := make(map[string]any, len(t.Fields()))
		known := map[string]bool{}
		for _, f := range t.Fields() {
			known[f.Name()] = true
			fv, present := obj[f.Name()]
			if !present {
				if !f.HasDefault() {
					return nil, &pathError{path: path + "." + f.Name(), msg: "is required by the schema"}
				}
				fv = f.Default()
				if fv == nil {
					out[f.Name()] = nil
					continue
				}
				out[f.Name()] = fv
				continue
			}
			n, err := avroNative(f.Type(), fv, path+"."+f.Name())
			if err != nil {
				return nil, err
			}
			out[f.Name()] = n
		}
		for k := range obj {
			if !known[k] {
				return nil, &pathError{path: path + "." + k, msg: "is not a field of record " + t.Name()}
			}
		}
		return out, nil
	case *avro.UnionSchema:
		if v == nil {
			if !t.Nullable() {
				return nil, bad("null is not one of the union's types")
			}
			return nil, nil
		}
		// Avro's JSON encoding names the branch: {"string": "x"}.
		if obj, ok := v.(map[string]any); ok && len(obj) == 1 {
			for name, inner := range obj {
				if branch, _ := t.Types().Get(name); branch != nil {
					n, err := avroNative(branch, inner, path)
					if err != nil {
						return nil, err
					}
					return map[string]any{name: n}, nil
				}
			}
		}
		for _, branch := range t.Types() {
			if branch.Type() == avro.Null {
				continue
			}
			if n, err := avroNative(branch, v, path); err == nil {
				return map[string]any{unionName(branch): n}, nil
			}
		}
		return nil, bad("the value fits none of the union's types")
	case *avro.ArraySchema:
		list, ok := v.([]any)
		if !ok {
			return nil, bad("expected an array")
		}
		out := make([]any, len(list))
		for i, item := range list {
			n, err := avroNative(t.Items(), item, fmt.Sprintf("%s[%d]", path, i))
			if err != nil {
				return nil, err
			}
			out[i] = n
		}
		return out, nil
	case *avro.MapSchema:
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, bad("expected an object (an Avro map)")
		}
		out := make(map[string]any, len(obj))
		for k, item := range obj {
			n, err := avroNative(t.Values(), item, path+"."+k)
			if err != nil {
				return nil, err
			}
			out[k] = n
		}
		return out, nil
	case *avro.EnumSchema:
		str, ok := v.(string)
		if !ok {
			return nil, bad("expected one of %s", strings.Join(t.Symbols(), ", "))
		}
		for _, sym := range t.Symbols() {
			if sym == str {
				return str, nil
			}
		}
		return nil, bad("%q is not one of %s", str, strings.Join(t.Symbols(), ", "))
	case *avro.FixedSchema:
		str, ok := v.(string)
		if !ok || len(str) != t.Size() {
			return nil, bad("expected a string of %d bytes", t.Size())
		}
		return []byte(str), nil
	case *avro.PrimitiveSchema:
		return avroPrimitive(t, v, bad)
	}
	return nil, bad("the portal cannot write Avro %s values", s.Type())
}

// unionName is how hamba/avro names a union's branch in a map.
func unionName(s avro.Schema) string {
	if n, ok := s.(avro.NamedSchema); ok {
		return n.FullName()
	}
	if ref, ok := s.(*avro.RefSchema); ok {
		return ref.Schema().FullName()
	}
	return string(s.Type())
}

func avroPrimitive(t *avro.PrimitiveSchema, v any, bad func(string, ...any) error) (any, error) {
	if t.Logical() != nil {
		return nil, bad("the portal cannot write Avro %s values yet", t.Logical().Type())
	}
	switch t.Type() {
	case avro.Null:
		if v != nil {
			return nil, bad("expected null")
		}
		return nil, nil
	case avro.Boolean:
		b, ok := v.(bool)
		if !ok {
			return nil, bad("expected true or false")
		}
		return b, nil
	case avro.String:
		str, ok := v.(string)
		if !ok {
			return nil, bad("expected a string")
		}
		return str, nil
	case avro.Bytes:
		str, ok := v.(string)
		if !ok {
			return nil, bad("expected a string (its bytes are written)")
		}
		return []byte(str), nil
	case avro.Int, avro.Long:
		n, ok := v.(json.Number)
		if !ok {
			return nil, bad("expected a whole number")
		}
		i, err := strconv.ParseInt(n.String(), 10, 64)
		if err != nil {
			return nil, bad("expected a whole number, not %s", n)
		}
		if t.Type() == avro.Int {
			if i < math.MinInt32 || i > math.MaxInt32 {
				return nil, bad("%d does not fit an Avro int", i)
			}
			return int(i), nil
		}
		return i, nil
	case avro.Float, avro.Double:
		n, ok := v.(json.Number)
		if !ok {
			return nil, bad("expected a number")
		}
		f, err := n.Float64()
		if err != nil {
			return nil, bad("expected a number, not %s", n)
		}
		if t.Type() == avro.Float {
			return float32(f), nil
		}
		return f, nil
	}
	return nil, bad("the portal cannot write Avro %s values", t.Type())
}
