package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// decode reads a JSON object body into v, refusing unknown fields, and
// turns every decoding problem into an error the caller can act on.
func decode(c echo.Context, v any) error {
	body, err := io.ReadAll(c.Request().Body)
	if err != nil {
		var he *echo.HTTPError
		if errors.As(err, &he) {
			return he
		}
		if strings.Contains(err.Error(), "too large") {
			return echo.NewHTTPError(http.StatusRequestEntityTooLarge)
		}
		return portal.Wrap(err, portal.MalformedBody, "the request body could not be read")
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return portal.New(portal.MalformedBody, "the request body is empty; send a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return decodeError(err)
	}
	if dec.More() {
		return portal.New(portal.MalformedBody, "the request body holds more than one JSON value")
	}
	return nil
}

func decodeError(err error) error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		return portal.New(portal.MalformedBody, "the request body is not valid JSON (at byte %d): %s", syntax.Offset, syntax.Error())
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			return portal.New(portal.MalformedBody, "the request body must be a JSON object, not %s", typ.Value)
		}
		return portal.Invalid(field, "%s must be %s, not %s", field, jsonType(typ.Type.Kind().String()), typ.Value)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name, _ := strconv.Unquote(strings.TrimPrefix(err.Error(), "json: unknown field "))
		return portal.Invalid(name, "unknown field %q", name)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return portal.New(portal.MalformedBody, "the request body is truncated JSON")
	}
	return portal.Wrap(err, portal.MalformedBody, "the request body could not be decoded")
}

func jsonType(kind string) string {
	switch kind {
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
	q := portal.ListQuery{PageToken: c.QueryParam("page_token"), Search: c.QueryParam("search")}
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

// listResponse is the shape of every list.
type listResponse[T any] struct {
	Items         []T    `json:"items"`
	NextPageToken string `json:"next_page_token"`
	TotalSize     int    `json:"total_size"`
}

// location sets the Location header of a created resource.
func location(c echo.Context, parts ...string) {
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	c.Response().Header().Set(echo.HeaderLocation, Base+"/"+strings.Join(parts, "/"))
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
