// Package jsonbody decodes the JSON front door's request bodies strictly
// into the wire types: unknown fields refused, and every problem of a body
// said at once, each under the name of its field.
package jsonbody

import (
	"bytes"
	"encoding/json"
	"encoding/json/jsontext"
	"errors"
	"io"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// Decode reads a JSON object body into v (a pointer to a struct),
// refusing unknown fields, and reports every problem at once as the error
// record's field errors: each field of the wrong type, each unknown
// field, and in maps of strings (config) each entry that is not a string,
// as config.<key>. A body that is not one JSON object is MalformedBody.
func Decode(body []byte, v any) error {
	byName := map[string]reflect.Value{}
	jsonFields(reflect.ValueOf(v).Elem(), byName)
	// Most bodies are one well-formed object of known fields, decoded in
	// place in one pass: a body of a megabyte (a schema, a record) is not
	// copied field by field first. The others are read again below, field
	// by field, to say everything that is wrong with them.
	if keys, ok := ObjectKeys(body); ok && knownFields(keys, byName) && json.Unmarshal(body, v) == nil {
		return nil
	}
	var fields map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&fields); err != nil {
		return decodeError(err)
	}
	if dec.More() {
		return portal.New(portal.MalformedBody, "the request body holds more than one JSON value")
	}
	if fields == nil {
		return portal.New(portal.MalformedBody, "the request body must be a JSON object, not null")
	}
	return decodeFields(fields, byName)
}

// ObjectKeys returns the member names of raw when it is exactly one JSON
// object, strictly read (valid UTF-8, no name twice), without copying its
// values; false otherwise, when the lenient reading decides.
func ObjectKeys(raw []byte) ([]string, bool) {
	dec := jsontext.NewDecoder(bytes.NewBuffer(raw))
	if t, err := dec.ReadToken(); err != nil || t.Kind() != '{' {
		return nil, false
	}
	var keys []string
	for dec.PeekKind() == '"' {
		t, err := dec.ReadToken()
		if err != nil {
			return nil, false
		}
		keys = append(keys, t.String())
		if dec.SkipValue() != nil {
			return nil, false
		}
	}
	if t, err := dec.ReadToken(); err != nil || t.Kind() != '}' {
		return nil, false
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return nil, false
	}
	return keys, true
}

// knownFields reports whether every key names a field exactly (encoding/json
// would also take other cases of a name).
func knownFields(keys []string, byName map[string]reflect.Value) bool {
	for _, k := range keys {
		if _, ok := byName[k]; !ok {
			return false
		}
	}
	return true
}

// decodeFields decodes each field of a JSON object into the struct
// fields byName holds, collecting every problem.
func decodeFields(fields map[string]json.RawMessage, byName map[string]reflect.Value) error {
	var v2 portal.Validation
	for _, name := range slices.Sorted(maps.Keys(fields)) {
		target, ok := byName[name]
		if !ok {
			v2.Add(portal.Invalid(name, "unknown field %q", name))
			continue
		}
		if err := json.Unmarshal(fields[name], target.Addr().Interface()); err != nil {
			for _, p := range fieldErrors(name, fields[name], target.Type(), err) {
				v2.Add(p)
			}
		}
	}
	return v2.Err()
}

// jsonFields maps the JSON names of a struct's fields to the fields,
// through embedded structs as encoding/json does.
func jsonFields(rv reflect.Value, out map[string]reflect.Value) {
	for i := 0; i < rv.NumField(); i++ {
		f := rv.Type().Field(i)
		tag := f.Tag.Get("json")
		if f.Anonymous && tag == "" && f.Type.Kind() == reflect.Struct {
			jsonFields(rv.Field(i), out)
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if name == "" || name == "-" || !f.IsExported() {
			continue
		}
		out[name] = rv.Field(i)
	}
}

// fieldErrors explains why one field did not decode.
func fieldErrors(name string, raw json.RawMessage, t reflect.Type, err error) []*portal.Error {
	// A map of strings: name each entry of the wrong type.
	if t.Kind() == reflect.Map && t.Key().Kind() == reflect.String {
		var entries map[string]json.RawMessage
		if json.Unmarshal(raw, &entries) == nil {
			var out []*portal.Error
			for _, k := range slices.Sorted(maps.Keys(entries)) {
				if json.Unmarshal(entries[k], reflect.New(t.Elem()).Interface()) != nil {
					out = append(out, portal.Invalid(name+"."+k, "%s.%s must be %s, not %s", name, k, jsonType(t.Elem()), valueKind(entries[k])))
				}
			}
			if len(out) > 0 {
				return out
			}
		}
	}
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) && typ.Field != "" && typ.Field != name {
		field := name + fieldPath(strings.TrimPrefix(typ.Field, name+"."))
		return []*portal.Error{portal.Invalid(field, "%s must be %s, not %s", field, jsonType(typ.Type), typ.Value)}
	}
	return []*portal.Error{portal.Invalid(name, "%s must be %s, not %s", name, jsonType(t), valueKind(raw))}
}

// fieldPath writes encoding/json's path inside a value ("1.name") as the
// error record names fields: ".name", with list indexes in brackets
// ("[1].name").
func fieldPath(p string) string {
	var b strings.Builder
	for _, part := range strings.Split(p, ".") {
		if _, err := strconv.Atoi(part); err == nil {
			b.WriteString("[" + part + "]")
			continue
		}
		b.WriteString("." + part)
	}
	return b.String()
}

// valueKind names a JSON value's type.
func valueKind(raw json.RawMessage) string {
	switch b := bytes.TrimSpace(raw); {
	case len(b) == 0:
		return "empty"
	case b[0] == '"':
		return "a string"
	case b[0] == '{':
		return "an object"
	case b[0] == '[':
		return "an array"
	case b[0] == 't' || b[0] == 'f':
		return "true or false"
	case b[0] == 'n':
		return "null"
	}
	return "a number"
}

func decodeError(err error) error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		return portal.New(portal.MalformedBody, "the request body is not valid JSON (at byte %d): %s", syntax.Offset, syntax.Error())
	case errors.As(err, &typ):
		return portal.New(portal.MalformedBody, "the request body must be a JSON object, not %s", typ.Value)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return portal.New(portal.MalformedBody, "the request body is truncated JSON")
	}
	return portal.Wrap(err, portal.MalformedBody, "the request body could not be decoded")
}

func jsonType(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind().String() {
	case "int", "int64", "int32", "float64", "uint":
		return "a number"
	case "string":
		return "a string"
	case "map", "struct":
		return "an object"
	case "slice":
		return "an array"
	case "bool":
		return "true or false"
	case "ptr":
		return "a value of the documented type"
	}
	return "of the documented type"
}
