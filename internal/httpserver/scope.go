package httpserver

import (
	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/portal"
)

const scopeKey = "rms.scope"

// ParseScope is the middleware of every route under /:bu/:stage: it
// parses the scope once, at the door, and refuses a malformed one before
// any handler runs; handlers read it with ScopeOf.
func ParseScope(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		s, err := portal.ParseScope(c.Param("bu"), c.Param("stage"))
		if err != nil {
			return err
		}
		c.Set(scopeKey, s)
		return next(c)
	}
}

// ScopeOf is the scope ParseScope found; outside a scoped route (a refusal
// recorded before parsing), the path's parameters as they are.
func ScopeOf(c echo.Context) portal.Scope {
	if s, ok := c.Get(scopeKey).(portal.Scope); ok {
		return s
	}
	return portal.Scope{BU: c.Param("bu"), Stage: c.Param("stage")}
}
