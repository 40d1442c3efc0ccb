// Package api is the JSON front door: the REST API under /api/v1 and its
// documentation under /api-docs. Handlers authenticate, decode, call one
// service method and encode; they never decide access.
package api

import (
	"context"
	"log/slog"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/fault"
	"github.com/edh-platform/rms-portal/internal/service"
)

// addRoute registers one authenticated API route; path is relative to Base.
type addRoute func(method, path string, h echo.HandlerFunc)

// Base is the path prefix of the API.
const Base = "/api/v1"

// TopicService is what the API needs of topics.
type TopicService interface {
	List(ctx context.Context, bu, stage string, q service.ListQuery) (service.Page[service.Topic], error)
	Get(ctx context.Context, bu, stage, name string, includeDefaults bool) (service.TopicDetail, error)
	Create(ctx context.Context, bu, stage string, in service.NewTopic) (service.TopicDetail, error)
	Replace(ctx context.Context, bu, stage, name string, in service.TopicState) (service.TopicDetail, error)
	Patch(ctx context.Context, bu, stage, name string, in service.TopicPatch) (service.TopicDetail, error)
	Delete(ctx context.Context, bu, stage, name string) error
}

// CallerService tells callers who they are.
type CallerService interface {
	Get(ctx context.Context) (service.Caller, error)
}

// TokenVerifier authenticates bearer tokens.
type TokenVerifier interface {
	Verify(ctx context.Context, raw string) (*access.Principal, error)
}

// Options are the API's dependencies.
type Options struct {
	Topics     TopicService
	Metrics    MetricsService
	Connectors ConnectorService
	Schemas    SchemaService
	Accounts   AccountService
	Pools      PoolService
	Me         CallerService
	Verifier   TokenVerifier
	Docs       *Docs
	Logger     *slog.Logger
}

// API is the JSON front door.
type API struct {
	topics     TopicService
	metrics    MetricsService
	connectors ConnectorService
	schemas    SchemaService
	accounts   AccountService
	pools      PoolService
	me         CallerService
	verifier   TokenVerifier
	docs       *Docs
	log        *slog.Logger
}

// New returns the API.
func New(o Options) *API {
	return &API{topics: o.Topics, metrics: o.Metrics, connectors: o.Connectors, schemas: o.Schemas,
		accounts: o.Accounts, pools: o.Pools, me: o.Me, verifier: o.Verifier, docs: o.Docs, log: o.Logger}
}

// Register mounts the API and its documentation on e.
func (a *API) Register(e *echo.Echo) {
	// Middleware is attached per route rather than to a group: group
	// middleware makes echo route every unknown method to a catch-all 404,
	// which would hide 405 Method Not Allowed.
	route := func(method, path string, h echo.HandlerFunc) {
		e.Add(method, Base+path, h, a.authenticate, requireJSON)
	}
	route(http.MethodGet, "/me", a.getMe)
	a.registerTopics(route)
	a.registerMetrics(route)
	a.registerConnectors(route)
	a.registerSchemas(route)
	a.registerAccounts(route)
	a.registerPools(route)
	if a.docs != nil {
		a.docs.Register(e)
	}
}

// IsAPIPath reports whether a request path belongs to the JSON front door,
// whose errors are rendered as error records.
func IsAPIPath(path string) bool {
	return path == Base || strings.HasPrefix(path, Base+"/") || strings.HasPrefix(path, docsPath)
}

// authenticate verifies the bearer token and puts the principal into the
// request context for the services.
func (a *API) authenticate(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		raw, ok := bearer(c.Request().Header.Get(echo.HeaderAuthorization))
		if !ok {
			return fault.New(fault.Unauthenticated, "the Authorization header must be \"Bearer <token>\"")
		}
		p, err := a.verifier.Verify(c.Request().Context(), raw)
		if err != nil {
			return err
		}
		req := c.Request()
		c.SetRequest(req.WithContext(access.WithPrincipal(req.Context(), p)))
		return next(c)
	}
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
			ct := strings.ToLower(strings.TrimSpace(strings.Split(r.Header.Get(echo.HeaderContentType), ";")[0]))
			if ct != echo.MIMEApplicationJSON && !strings.HasSuffix(ct, "+json") {
				return echo.NewHTTPError(http.StatusUnsupportedMediaType,
					"the request body must be JSON (Content-Type: application/json), not "+quoteOrNone(ct))
			}
		}
		return next(c)
	}
}

func quoteOrNone(s string) string {
	if s == "" {
		return "a body without Content-Type"
	}
	return `"` + s + `"`
}
