// Package api is the JSON front door: the REST API under /api/v1 and its
// documentation under /api-docs (api/openapi). Handlers authenticate,
// decode (internal/jsonbody), call one service method and answer
// (api/present); they never decide access.
package api

import (
	"context"
	"log/slog"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/api/openapi"
	"github.com/edh-platform/rms-portal/internal/auth"
	"github.com/edh-platform/rms-portal/internal/contract"
	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// Base is the path prefix of the API.
const Base = "/api/v1"

// TokenVerifier authenticates bearer tokens.
type TokenVerifier interface {
	Verify(ctx context.Context, raw string) (*portal.Principal, error)
}

// Options are the API's dependencies.
type Options struct {
	// Services are what every handler calls.
	Services contract.Services
	Verifier TokenVerifier
	// Throttle bounds the requests of callers that fail to authenticate,
	// per source address; nil for none.
	Throttle *auth.Throttle
	Docs     *openapi.Docs
	Logger   *slog.Logger
	// Lane admits the requests with large bodies; nil for none.
	Lane *httpserver.Lane
}

// API is the JSON front door.
type API struct {
	contract.Services
	verifier TokenVerifier
	throttle *auth.Throttle
	docs     *openapi.Docs
	log      *slog.Logger
	lane     *httpserver.Lane
}

// New returns the API.
func New(o Options) *API {
	return &API{Services: o.Services, verifier: o.Verifier, throttle: o.Throttle, docs: o.Docs, log: o.Logger, lane: o.Lane}
}

// IsAPIPath reports whether a request path belongs to the JSON front door,
// whose errors are rendered as error records.
func IsAPIPath(path string) bool {
	return path == Base || strings.HasPrefix(path, Base+"/") || strings.HasPrefix(path, openapi.Path)
}

// authenticate verifies the bearer token and puts the principal into the
// request context for the services.
func (a *API) authenticate(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		// A source that keeps failing is refused before its token is
		// even looked at.
		if err := a.throttle.Check(c.RealIP()); err != nil {
			return err
		}
		raw, ok := bearer(c.Request().Header.Get(echo.HeaderAuthorization))
		if !ok {
			err := portal.New(portal.Unauthenticated, "the Authorization header must be \"Bearer <token>\"")
			a.failed(c, err)
			return err
		}
		p, err := a.verifier.Verify(c.Request().Context(), raw)
		if err != nil {
			a.failed(c, err)
			return err
		}
		req := c.Request()
		c.SetRequest(req.WithContext(portal.WithPrincipal(req.Context(), p)))
		// What a caller reads with its token is its own: no cache, shared
		// or private, keeps it (exports of the audit trail included).
		c.Response().Header().Set("Cache-Control", "no-store")
		return next(c)
	}
}

// failed spends one of the source's unauthenticated requests and audits
// the refusal; a provider that cannot be reached is not the caller's fault.
func (a *API) failed(c echo.Context, err error) {
	if portal.Is(err, portal.Unauthenticated) {
		_ = a.throttle.Take(c.RealIP())
	}
	a.refused(c, err)
}

// refused audits a write refused before it reached a service.
func (a *API) refused(c echo.Context, err error) {
	r := c.Request()
	if r.Method == http.MethodGet || r.Method == http.MethodHead || a.Audit == nil {
		return
	}
	resource := c.Param("name") + c.Param("subject") + c.Param("id")
	// Refused before any service knew the action: the route stands for it.
	a.Audit.Refused(r.Context(), httpserver.ScopeOf(c), portal.RouteAction(r.Method+" "+strings.TrimPrefix(c.Path(), Base)), resource, err)
}

func bearer(h string) (string, bool) {
	if h == "" {
		return "", true // Verify explains that a token is required.
	}
	scheme, token, found := strings.Cut(h, " ")
	if !found || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	return strings.TrimSpace(token), true
}

// requireJSON refuses request bodies that are not JSON.
func requireJSON(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if r.ContentLength != 0 && (r.Method == http.MethodPost || r.Method == http.MethodPut || r.Method == http.MethodPatch) {
			ct := mediaType(r)
			if !isJSON(ct) {
				return echo.NewHTTPError(http.StatusUnsupportedMediaType,
					"the request body must be JSON (Content-Type: application/json), not "+quoteOrNone(ct))
			}
		}
		return next(c)
	}
}

// mediaType is the request's Content-Type without parameters, in lower case.
func mediaType(r *http.Request) string {
	return strings.ToLower(strings.TrimSpace(strings.Split(r.Header.Get(echo.HeaderContentType), ";")[0]))
}

func isJSON(mediaType string) bool {
	return mediaType == echo.MIMEApplicationJSON || strings.HasSuffix(mediaType, "+json")
}

func quoteOrNone(s string) string {
	if s == "" {
		return "a body without Content-Type"
	}
	return `"` + s + `"`
}
