// Package handlers is the HTML front door: server-rendered pages with templ,
// enhanced by htmx. Handlers authenticate (through the session), parse
// forms, call one service method and render; access is decided by the
// service layer, which pages only consult to show or hide controls.
package handlers

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/auth"
	"github.com/edh-platform/rms-portal/internal/service"
	"github.com/edh-platform/rms-portal/views"
)

// TopicService is what the topic pages need.
type TopicService interface {
	List(ctx context.Context, bu, stage string, q service.ListQuery) (service.Page[service.Topic], error)
	Get(ctx context.Context, bu, stage, name string, includeDefaults bool) (service.TopicDetail, error)
	Create(ctx context.Context, bu, stage string, in service.NewTopic) (service.TopicDetail, error)
	Replace(ctx context.Context, bu, stage, name string, in service.TopicState) (service.TopicDetail, error)
	Delete(ctx context.Context, bu, stage, name string) error
	ClusterMetrics(ctx context.Context, bu, stage string) (service.ClusterMetrics, error)
	TopicMetrics(ctx context.Context, bu, stage, name string) (service.TopicMetrics, error)
}

// CallerService describes the signed-in person.
type CallerService interface {
	Get(ctx context.Context) (service.Caller, error)
}

// Outlooks tell pages what the caller may do in a scope.
type Outlooks interface {
	Outlook(ctx context.Context, bu, stage string) (service.Outlook, bool)
}

// Sessions are the browser sessions and the sign-in flow.
type Sessions interface {
	Current(w http.ResponseWriter, r *http.Request) (*auth.Session, error)
	Begin(ctx context.Context, w http.ResponseWriter, next, loginHint string) (string, error)
	Finish(w http.ResponseWriter, r *http.Request) (string, error)
	End(w http.ResponseWriter, r *http.Request) *auth.Session
	AddToast(w http.ResponseWriter, r *http.Request, t auth.Toast)
	TakeToasts(w http.ResponseWriter, r *http.Request) []auth.Toast
	EndSessionURL(ctx context.Context, idToken, after string) string
}

// Resolver turns a session's identity into a principal with roles.
type Resolver interface {
	Resolve(id access.Identity) *access.Principal
}

// Options are the HTML front door's dependencies.
type Options struct {
	Topics     TopicService
	Connectors ConnectorService
	Schemas    SchemaService
	Accounts   AccountService
	Pools      PoolService
	Me         CallerService
	Outlooks   Outlooks
	Sessions   Sessions
	Resolver   Resolver
	BaseURL    string
	Logger     *slog.Logger
}

// Handlers serve the portal's pages.
type Handlers struct {
	topics     TopicService
	connectors ConnectorService
	schemas    SchemaService
	accounts   AccountService
	pools      PoolService
	me         CallerService
	outlooks   Outlooks
	sessions   Sessions
	resolver   Resolver
	baseURL    string
	log        *slog.Logger
	csrf       *http.CrossOriginProtection
	jobs       *bulkJobs
}

// New returns the HTML front door.
func New(o Options) *Handlers {
	return &Handlers{topics: o.Topics, connectors: o.Connectors, schemas: o.Schemas,
		accounts: o.Accounts, pools: o.Pools, me: o.Me, outlooks: o.Outlooks, sessions: o.Sessions, resolver: o.Resolver,
		baseURL: o.BaseURL, log: o.Logger, csrf: http.NewCrossOriginProtection(), jobs: newBulkJobs()}
}

// addRoute registers one page that needs a session.
type addRoute func(method, path string, handler echo.HandlerFunc)

// Register mounts the pages on e. The session middleware is attached per
// route: on a group, echo would route every unknown path (API ones too)
// through it.
func (h *Handlers) Register(e *echo.Echo) {
	h.registerAuth(e)
	route := func(method, path string, handler echo.HandlerFunc) { e.Add(method, path, handler, h.requireSession) }
	route(http.MethodGet, "/", h.home)
	route(http.MethodGet, "/context", h.switchContext)
	h.registerTopics(route)
	h.registerMetrics(route)
	h.registerConnectors(route)
	h.registerSchemas(route)
	h.registerAccounts(route)
	h.registerPools(route)
}

// render writes a page: the whole document, or only the main column when
// htmx asks for it (context changes, form results).
func (h *Handlers) render(c echo.Context, status int, p views.Page, body templ.Component) error {
	ctx := templ.WithChildren(c.Request().Context(), body)
	var page templ.Component
	if isMainSwap(c) {
		page = views.Partial(p)
	} else {
		for _, t := range h.sessions.TakeToasts(c.Response(), c.Request()) {
			p.Toasts = append(p.Toasts, views.Toast{Kind: t.Kind, Message: t.Message})
		}
		page = views.Document(p)
	}
	return renderComponent(c, ctx, status, page)
}

// renderFragment writes a component alone (an htmx swap target).
func renderFragment(c echo.Context, status int, comp templ.Component) error {
	return renderComponent(c, c.Request().Context(), status, comp)
}

func renderComponent(c echo.Context, ctx context.Context, status int, comp templ.Component) error {
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
	h.Set("Cache-Control", "no-store")
	h.Add("Vary", "HX-Request, HX-Target")
	c.Response().WriteHeader(status)
	return comp.Render(ctx, c.Response())
}

func isHTMX(c echo.Context) bool { return c.Request().Header.Get("HX-Request") == "true" }

// isMainSwap reports an htmx request that targets the main column.
func isMainSwap(c echo.Context) bool {
	return isHTMX(c) && c.Request().Header.Get("HX-Target") == "main"
}
