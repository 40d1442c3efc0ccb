// Package page is what every page of the HTML front door shares: the
// layout built from one service call, rendering (whole documents, htmx's
// main column, fragments), the error page and the form's answer, and the
// session and secret-page marks a request carries. The pages of each area
// (handlers, handlers/identity, handlers/admin) are built on a Kit.
package page

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/auth"
	"github.com/edh-platform/rms-portal/internal/contract"
)

// Size is how many rows a list page shows at once.
const Size = 50

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

// Kit is what a page handler reaches: the services it calls, the
// sessions that keep its toasts and handoffs, and the log.
type Kit struct {
	contract.Services
	Sessions Sessions
	Log      *slog.Logger
}

// Route mounts one page's handler; the front door attaches the session's
// middleware (and the scope's, under /:bu/:stage/).
type Route func(method, path string, handler echo.HandlerFunc)
