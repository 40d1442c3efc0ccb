package api

import (
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/api/operations"
	"github.com/edh-platform/rms-portal/internal/httpserver"
)

// Register mounts every operation of the API (api/operations) and its
// documentation on e. Each operation leads to one handler, the API's
// method named as the operation (handlers_gen.go lists them, so that an
// operation without its method does not compile), and each handler to
// one service method.
func (a *API) Register(e *echo.Echo) {
	handlers := a.handlers()
	for _, op := range operations.All() {
		h, ok := handlers[op.ID]
		if !ok {
			// A programming error that any test of the API finds.
			panic("api: no handler for the operation " + op.ID)
		}
		delete(handlers, op.ID)
		path := Base + op.RouterPath()
		switch {
		case op.Public:
			// The version needs no token: operators and probes ask for it.
			e.Add(op.Method, path, h)
		case op.Body != nil && op.Body.Document:
			// Resources as code: the document may be YAML, so these
			// handlers read the media type themselves.
			e.Add(op.Method, path, h, a.scoped(op.Path, a.authenticate)...)
		default:
			// Middleware is attached per route rather than to a group:
			// group middleware makes echo route every unknown method to a
			// catch-all 404, which would hide 405 Method Not Allowed.
			e.Add(op.Method, path, h, a.scoped(op.Path, a.authenticate, requireJSON)...)
		}
	}
	for id := range handlers {
		panic("api: a handler for no operation: " + id)
	}
	if a.docs != nil {
		a.docs.Register(e)
	}
}

// scoped adds, to the routes of a scope, the parsing of the scope after
// the caller is known (an unauthenticated caller learns nothing of which
// scopes are well-formed), then the lane of large bodies.
func (a *API) scoped(path string, mw ...echo.MiddlewareFunc) []echo.MiddlewareFunc {
	if strings.HasPrefix(path, "/{bu}/{stage}/") {
		after := []echo.MiddlewareFunc{httpserver.ParseScope}
		if a.lane != nil {
			after = append(after, a.lane.Middleware)
		}
		return append(mw[:1:1], append(after, mw[1:]...)...)
	}
	return mw
}
