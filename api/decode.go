package api

import (
	"bytes"
	"encoding/json"
	"encoding/json/jsontext"
	"errors"
	"io"
	"maps"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/wire"
)

// decode reads a JSON object body into v (a pointer to a struct),
// refusing unknown fields, and reports every problem at once: each field
// of the wrong type, each unknown field, and in maps of strings (config)
// each entry that is not a string, as config.<key>.
func decode(c echo.Context, v any) error {
	body, err := readBody(c)
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return portal.New(portal.MalformedBody, "the request body is empty; send a JSON object")
	}
	return decodeBody(body, v)
}

// decodeOptional is decode for a body that may be left out: an empty one
// leaves v as it is.
func decodeOptional(c echo.Context, v any) error {
	body, err := readBody(c)
	if err != nil || len(bytes.TrimSpace(body)) == 0 {
		return err
	}
	return decodeBody(body, v)
}

func decodeBody(body []byte, v any) error {
	byName := map[string]reflect.Value{}
	jsonFields(reflect.ValueOf(v).Elem(), byName)
	// Most bodies are one well-formed object of known fields, decoded in
	// place in one pass: a body of a megabyte (a schema, a record) is not
	// copied field by field first. The others are read again below, field
	// by field, to say everything that is wrong with them.
	if keys, ok := objectKeys(body); ok && knownFields(keys, byName) && json.Unmarshal(body, v) == nil {
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

// objectKeys returns the member names of raw when it is exactly one JSON
// object, strictly read (valid UTF-8, no name twice), without copying its
// values; false otherwise, when the lenient reading decides.
func objectKeys(raw []byte) ([]string, bool) {
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

// maxBodyHint bounds what a body's stated length may have allocated at
// once: the server refuses a stated length past its limit before any
// handler runs, so only a limit set higher than this reads in steps.
const maxBodyHint = 64 << 20

// readBody reads the request body within the server's size limit.
func readBody(c echo.Context) ([]byte, error) {
	r := c.Request()
	// A body that says its length is read into one buffer of that size,
	// not one regrown as it comes: bodies of a megabyte are frequent
	// enough (schemas, records) for the copies to show. The length is only
	// a hint; the server's limit still ends a longer body.
	hint := int64(bytes.MinRead)
	if r.ContentLength > 0 && r.ContentLength < maxBodyHint {
		hint += r.ContentLength
	}
	buf := bytes.NewBuffer(make([]byte, 0, hint))
	_, err := buf.ReadFrom(r.Body)
	body := buf.Bytes()
	if err != nil {
		var he *echo.HTTPError
		if errors.As(err, &he) {
			return nil, he
		}
		if strings.Contains(err.Error(), "too large") {
			return nil, echo.NewHTTPError(http.StatusRequestEntityTooLarge)
		}
		return nil, portal.Wrap(err, portal.MalformedBody, "the request body could not be read")
	}
	return body, nil
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

// listQuery reads page_size, page_token, search and order.
func listQuery(c echo.Context) (portal.ListQuery, error) {
	var v portal.Validation
	q := portal.ListQuery{PageToken: c.QueryParam("page_token"), Search: c.QueryParam("search"), Unit: c.QueryParam("unit")}
	if s := c.QueryParam("page_size"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			v.Add(portal.Invalid("page_size", "must be a whole number between 1 and %d, not %q", portal.MaxPageSize, s))
		} else if n == 0 {
			v.Add(portal.Invalid("page_size", "must be between 1 and %d", portal.MaxPageSize))
		} else {
			q.PageSize = n
		}
	}
	switch c.QueryParam("order") {
	case "", "asc":
	case "desc":
		q.Descending = true
	default:
		v.Add(portal.Invalid("order", "must be asc or desc"))
	}
	if s := c.QueryParam("offset"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			v.Add(portal.Invalid("offset", "must be a whole number, 0 or more, not %q", s))
		}
		q.Offset = n
	}
	return q, v.Err()
}

// boolParam reads an optional true/false query parameter.
func boolParam(c echo.Context, name string) (bool, error) {
	switch s := c.QueryParam(name); s {
	case "", "false", "0":
		return false, nil
	case "true", "1":
		return true, nil
	default:
		return false, portal.Invalid(name, "%s must be true or false, not %q", name, s)
	}
}

// location sets the Location header of a created resource.
func location(c echo.Context, scope portal.Scope, parts ...string) {
	parts = append([]string{scope.BU, scope.Stage}, parts...)
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	c.Response().Header().Set(echo.HeaderLocation, Base+"/"+strings.Join(parts, "/"))
}

// etag sends a resource's version, which If-Match names on writes.
func etag(c echo.Context, version string) {
	if version != "" {
		c.Response().Header().Set("ETag", `"`+version+`"`)
	}
}

// ifMatch is the request's precondition (If-Match), if any.
func ifMatch(c echo.Context) portal.IfMatch {
	return portal.ParseIfMatch(c.Request().Header.Get("If-Match"))
}

// durationParam reads an optional duration ("5s") of at most limit.
func durationParam(c echo.Context, name string, limit time.Duration) (time.Duration, error) {
	s := c.QueryParam(name)
	if s == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 || d > limit {
		return 0, portal.Invalid(name, "%s must be a duration between 0s and %s, such as 5s, not %q", name, limit, s)
	}
	return d, nil
}

// listOf answers a whole list as one page.
func listOf[T any](c echo.Context, items []T) error {
	if items == nil {
		items = []T{}
	}
	return c.JSON(http.StatusOK, wire.List[T]{Items: items, TotalSize: len(items)})
}
