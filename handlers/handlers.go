// Package handlers is the HTML front door: server-rendered pages with templ,
// enhanced by htmx. Handlers authenticate (through the session), parse
// forms, call one service method and render; access is decided by the
// service layer, which pages only consult to show or hide controls.
package handlers

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/auth"
	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/views"
)

// Sessions are the browser sessions and the sign-in flow.
type Sessions interface {
	Current(w http.ResponseWriter, r *http.Request) (*auth.Session, error)
	Begin(ctx context.Context, w http.ResponseWriter, next, loginHint string) (string, error)
	Finish(w http.ResponseWriter, r *http.Request) (string, error)
	End(w http.ResponseWriter, r *http.Request) (*auth.Session, error)
	AddToast(w http.ResponseWriter, r *http.Request, t auth.Toast)
	TakeToasts(w http.ResponseWriter, r *http.Request) []auth.Toast
	// Handoff keeps data for the next read of key; TakeHandoff reads it
	// once.
	Handoff(r *http.Request, key string, data []byte) error
	TakeHandoff(r *http.Request, key string) ([]byte, bool)
	EndSessionURL(ctx context.Context, idToken, after string) string
	// Key is the store's id of the browser's session, as lists show it.
	Key(r *http.Request) string
}

// Resolver turns a session's identity into a principal with roles.
type Resolver interface {
	Resolve(id portal.Identity) *portal.Principal
}

// Options are the HTML front door's dependencies.
type Options struct {
	// Services are what every handler calls.
	Services portal.Services
	Sessions Sessions
	Resolver Resolver
	// Throttle bounds sign-in starts and failed sign-ins per source
	// address; nil for none.
	Throttle *auth.Throttle
	BaseURL  string
	Logger   *slog.Logger
	// Lane admits the requests with large bodies; nil for none.
	Lane *httpserver.Lane
}

// Handlers serve the portal's pages.
type Handlers struct {
	portal.Services
	sessions Sessions
	resolver Resolver
	throttle *auth.Throttle
	baseURL  string
	log      *slog.Logger
	csrf     *http.CrossOriginProtection
	lane     *httpserver.Lane
}

// New returns the HTML front door.
func New(o Options) *Handlers {
	return &Handlers{Services: o.Services, sessions: o.Sessions, resolver: o.Resolver,
		throttle: o.Throttle, baseURL: o.BaseURL, log: o.Logger, csrf: http.NewCrossOriginProtection(), lane: o.Lane}
}

// render writes a page: the whole document, or only the main column when
// htmx asks for it (context changes, form results).
func (h *Handlers) render(c echo.Context, status int, p views.Page, body templ.Component) error {
	// The navigation's review counts, only where a navigation is drawn
	// (never for a fragment such as the search box's results).
	p.Reviews = h.reviews(c)
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

// renderComponent renders comp into a buffer and writes it only when
// rendering succeeded, so that a failing template gives the error page
// rather than a truncated 200.
func renderComponent(c echo.Context, ctx context.Context, status int, comp templ.Component) error {
	var buf bytes.Buffer
	if err := comp.Render(ctx, &buf); err != nil {
		return fmt.Errorf("rendering the page: %w", err)
	}
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
	h.Set("Cache-Control", "no-store")
	h.Add("Vary", "HX-Request, HX-Target")
	c.Response().WriteHeader(status)
	_, err := c.Response().Write(buf.Bytes())
	return err
}

func isHTMX(c echo.Context) bool { return c.Request().Header.Get("HX-Request") == "true" }

// isMainSwap reports an htmx request that targets the main column.
func isMainSwap(c echo.Context) bool {
	return isHTMX(c) && c.Request().Header.Get("HX-Target") == "main"
}
