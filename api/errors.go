package api

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/wire"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/requestid"
)

// Error types that belong to HTTP itself rather than to the domain.
const (
	typeMethodNotAllowed     = "METHOD_NOT_ALLOWED"
	typePayloadTooLarge      = "PAYLOAD_TOO_LARGE"
	typeUnsupportedMediaType = "UNSUPPORTED_MEDIA_TYPE"
	typeHeadersTooLarge      = "HEADERS_TOO_LARGE"
)

// StatusName returns the upper-snake name of an HTTP status.
func StatusName(code int) string {
	text := http.StatusText(code)
	if text == "" {
		return "STATUS_" + strconv.Itoa(code)
	}
	return strings.ToUpper(strings.NewReplacer(" ", "_", "-", "_", "'", "").Replace(text))
}

// defaultRetryAfter is sent with a 429, 503 or 504 that does not know better.
const defaultRetryAfter = 5 * time.Second

// Problem is the API's view of an error: status, items and headers.
type Problem struct {
	Status int
	Items  []wire.ErrorItem
	// RetryAfter, when positive, is sent as Retry-After.
	RetryAfter time.Duration
}

// ProblemOf translates any error into the response a caller gets. Domain
// errors keep their messages; anything else becomes INTERNAL without
// internals, naming the request id so that the logs can be found.
func ProblemOf(err error, reqID string) Problem {
	if ps := portal.Problems(err); len(ps) > 0 {
		p := Problem{Status: ps[0].Kind.Status()}
		for _, e := range ps {
			p.Items = append(p.Items, wire.ErrorItem{Type: string(e.Kind), Message: e.Message, Field: e.Field, Rule: e.Rule})
			if e.RetryAfter > p.RetryAfter {
				p.RetryAfter = e.RetryAfter
			}
		}
		if p.Status == http.StatusInternalServerError {
			p.Items = []wire.ErrorItem{internalItem(reqID)}
		}
		return p
	}
	var he *echo.HTTPError
	if errors.As(err, &he) {
		return httpProblem(he)
	}
	return Problem{Status: http.StatusInternalServerError, Items: []wire.ErrorItem{internalItem(reqID)}}
}

func internalItem(reqID string) wire.ErrorItem {
	return wire.ErrorItem{Type: string(portal.Internal),
		Message: fmt.Sprintf("internal error; the platform team can trace it with request id %s", reqID)}
}

func httpProblem(he *echo.HTTPError) Problem {
	msg := fmt.Sprint(he.Message)
	typ := string(portal.Internal)
	switch he.Code {
	case http.StatusNotFound:
		typ, msg = string(portal.NotFound), "no such endpoint; see /api-docs for the API"
	case http.StatusMethodNotAllowed:
		typ, msg = typeMethodNotAllowed, "this endpoint does not support the method; see /api-docs for the API"
	case http.StatusRequestEntityTooLarge:
		typ, msg = typePayloadTooLarge, "the request body is too large"
	case http.StatusUnsupportedMediaType:
		typ = typeUnsupportedMediaType
	case http.StatusRequestHeaderFieldsTooLarge:
		typ = typeHeadersTooLarge
	case http.StatusBadRequest:
		typ = string(portal.MalformedBody)
	case http.StatusUnauthorized:
		typ = string(portal.Unauthenticated)
	case http.StatusTooManyRequests:
		typ = string(portal.RateLimited)
	case http.StatusServiceUnavailable:
		typ = string(portal.UpstreamUnavailable)
	}
	if he.Code >= 500 && he.Code != http.StatusServiceUnavailable {
		msg = "internal error"
	}
	return Problem{Status: he.Code, Items: []wire.ErrorItem{{Type: typ, Message: msg}}}
}

// WriteProblem renders an error as the error record.
func WriteProblem(c echo.Context, err error) error {
	reqID := requestid.From(c.Request().Context())
	p := ProblemOf(err, reqID)
	h := c.Response().Header()
	if p.Status == http.StatusUnauthorized {
		challenge := `Bearer realm="rms-portal"`
		if c.Request().Header.Get(echo.HeaderAuthorization) != "" {
			desc := strings.NewReplacer(`"`, "'", `\`, "").Replace(p.Items[0].Message)
			challenge += `, error="invalid_token", error_description="` + desc + `"`
		}
		h.Set(echo.HeaderWWWAuthenticate, challenge)
	}
	if allow, ok := c.Get(echo.ContextKeyHeaderAllow).(string); ok && p.Status == http.StatusMethodNotAllowed {
		h.Set(echo.HeaderAllow, allow)
	}
	if p.RetryAfter <= 0 && (p.Status == http.StatusServiceUnavailable || p.Status == http.StatusGatewayTimeout || p.Status == http.StatusTooManyRequests) {
		// Every "try again later" says when.
		p.RetryAfter = defaultRetryAfter
	}
	if p.RetryAfter > 0 {
		h.Set("Retry-After", strconv.Itoa(int((p.RetryAfter+time.Second-1)/time.Second)))
	}
	h.Set("Cache-Control", "no-store")
	if c.Request().Method == http.MethodHead {
		return c.NoContent(p.Status)
	}
	return c.JSON(p.Status, p.Record())
}

// Record is the error record of a problem, as the API answers it.
func (p Problem) Record() wire.ErrorRecord {
	return wire.ErrorRecord{Status: StatusName(p.Status), Code: p.Status,
		Timestamp: time.Now().UTC().Format("2006-01-02T15:04:05.000Z"), Errors: p.Items}
}
