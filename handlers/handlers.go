// Package handlers is the HTML front door: server-rendered pages with templ,
// enhanced by htmx. Handlers authenticate (through the session), parse
// forms, call one service method and render; access is decided by the
// service layer, which pages only consult to show or hide controls.
package handlers

import (
	"log/slog"
	"net/http"

	"github.com/edh-platform/rms-portal/handlers/admin"
	"github.com/edh-platform/rms-portal/handlers/identity"
	"github.com/edh-platform/rms-portal/handlers/page"
	"github.com/edh-platform/rms-portal/internal/auth"
	"github.com/edh-platform/rms-portal/internal/contract"
	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// Resolver turns a session's identity into a principal with roles.
type Resolver interface {
	Resolve(id portal.Identity) *portal.Principal
}

// Options are the HTML front door's dependencies.
type Options struct {
	// Services are what every handler calls.
	Services contract.Services
	Sessions page.Sessions
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
	*page.Kit
	resolver Resolver
	throttle *auth.Throttle
	baseURL  string
	csrf     *http.CrossOriginProtection
	lane     *httpserver.Lane
	// The areas with packages of their own, on the same kit.
	admin    *admin.Pages
	identity *identity.Pages
}

// New returns the HTML front door.
func New(o Options) *Handlers {
	kit := &page.Kit{Services: o.Services, Sessions: o.Sessions, Log: o.Logger}
	return &Handlers{Kit: kit, resolver: o.Resolver, throttle: o.Throttle, baseURL: o.BaseURL,
		csrf: http.NewCrossOriginProtection(), lane: o.Lane, admin: admin.New(kit), identity: identity.New(kit)}
}
