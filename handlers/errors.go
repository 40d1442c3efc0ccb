package handlers

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/fault"
	"github.com/edh-platform/rms-portal/internal/requestid"
	"github.com/edh-platform/rms-portal/views"
)

// problem is how a page explains an error.
type problem struct {
	status  int
	title   string
	message string
}

// explain maps an error to a page problem, once for the HTML front door.
func explain(err error, reqID string) problem {
	ps := fault.Problems(err)
	if len(ps) == 0 {
		var he *echo.HTTPError
		if errors.As(err, &he) {
			switch he.Code {
			case http.StatusNotFound:
				return problem{he.Code, "Page not found", "There is no page at this address."}
			case http.StatusMethodNotAllowed:
				return problem{he.Code, "Not allowed", "This page does not accept that request."}
			case http.StatusRequestEntityTooLarge:
				return problem{he.Code, "Too large", "What you sent is too large."}
			}
		}
		return problem{http.StatusInternalServerError, "Something went wrong",
			fmt.Sprintf("The portal failed unexpectedly. If it happens again, give the platform team the request id %s.", reqID)}
	}
	e := ps[0]
	switch e.Kind {
	case fault.NotFound:
		return problem{http.StatusNotFound, "Not found", e.Message}
	case fault.InsufficientRole, fault.ReadOnlyEnvironment:
		return problem{http.StatusForbidden, "Not allowed", e.Message}
	case fault.AlreadyExists, fault.IncompatibleSchema:
		return problem{http.StatusConflict, "Conflict", e.Message}
	case fault.MissingParameter, fault.InvalidParameter, fault.MalformedBody:
		return problem{http.StatusBadRequest, "Invalid request", e.Message}
	case fault.Unauthenticated:
		return problem{http.StatusUnauthorized, "Sign-in required", e.Message}
	case fault.RateLimited:
		return problem{http.StatusTooManyRequests, "Too many requests", e.Message}
	case fault.UpstreamUnavailable:
		return problem{http.StatusServiceUnavailable, "Upstream unavailable", e.Message + ". Try again in a moment."}
	case fault.UpstreamTimeout:
		return problem{http.StatusGatewayTimeout, "Upstream too slow", e.Message + ". Try again in a moment."}
	}
	return problem{http.StatusInternalServerError, "Something went wrong",
		fmt.Sprintf("The portal failed unexpectedly. If it happens again, give the platform team the request id %s.", reqID)}
}

// RenderError is the HTML front door's error renderer. htmx requests get
// the status and a toast (nothing is swapped); pages get an error page, in
// the layout when someone is signed in.
func (h *Handlers) RenderError(c echo.Context, err error) error {
	pr := explain(err, requestid.From(c.Request().Context()))
	if isHTMX(c) {
		trigger(c, "error", pr.message)
		return c.NoContent(pr.status)
	}
	if access.PrincipalFrom(c.Request().Context()) == nil {
		return renderFragment(c, pr.status, views.BareError(pr.status, pr.title, pr.message))
	}
	p, perr := h.page(c, pr.title, "", "", "")
	if perr != nil {
		return renderFragment(c, pr.status, views.BareError(pr.status, pr.title, pr.message))
	}
	return h.render(c, pr.status, p, views.ErrorPanel(pr.status, pr.title, pr.message))
}

// trigger asks the page to show a toast after an htmx request.
func trigger(c echo.Context, kind, message string) {
	b, _ := json.Marshal(map[string]any{"toast": map[string]string{"kind": kind, "message": message}})
	c.Response().Header().Set("HX-Trigger", string(b))
}

// done finishes a successful form: a toast, then the next page. htmx
// loads that page into the main column; without JavaScript the browser is
// redirected and the toast waits in the session.
func (h *Handlers) done(c echo.Context, message, next string) error {
	if isHTMX(c) {
		trigger(c, "success", message)
		loc, _ := json.Marshal(map[string]string{"path": next, "target": "#main"})
		c.Response().Header().Set("HX-Location", string(loc))
		return c.NoContent(http.StatusOK)
	}
	h.sessions.AddToast(c.Response(), c.Request(), toastOK(message))
	return c.Redirect(http.StatusSeeOther, next)
}
