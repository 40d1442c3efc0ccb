package api

import (
	"bytes"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/jsonbody"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/wire"
)

// decode reads a JSON object body into v (a pointer to a struct), as
// jsonbody.Decode does.
func decode(c echo.Context, v any) error {
	body, err := readBody(c)
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return portal.New(portal.MalformedBody, "the request body is empty; send a JSON object")
	}
	return jsonbody.Decode(body, v)
}

// decodeOptional is decode for a body that may be left out: an empty one
// leaves v as it is.
func decodeOptional(c echo.Context, v any) error {
	body, err := readBody(c)
	if err != nil || len(bytes.TrimSpace(body)) == 0 {
		return err
	}
	return jsonbody.Decode(body, v)
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

// intParam reads an optional whole number of a query.
func intParam(c echo.Context, name string) (int, error) {
	s := c.QueryParam(name)
	if s == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, portal.Invalid(name, "%s must be a whole number, not %q", name, s)
	}
	return n, nil
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
