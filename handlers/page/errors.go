package page

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/auth"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/requestid"
	"github.com/edh-platform/rms-portal/views"
)

// Problem is how a page explains an error.
type Problem struct {
	Status  int
	Title   string
	Message string
}

// Explain maps an error to a page problem, once for the HTML front door.
func Explain(err error, reqID string) Problem {
	ps := portal.Problems(err)
	if len(ps) == 0 {
		var he *echo.HTTPError
		if errors.As(err, &he) {
			switch he.Code {
			case http.StatusNotFound:
				return Problem{he.Code, "Page not found", "There is no page at this address."}
			case http.StatusMethodNotAllowed:
				return Problem{he.Code, "Not allowed", "This page does not accept that request."}
			case http.StatusRequestEntityTooLarge:
				return Problem{he.Code, "Too large", "What you sent is too large."}
			}
		}
		return Problem{http.StatusInternalServerError, "Something went wrong",
			fmt.Sprintf("The portal failed unexpectedly. If it happens again, give the platform team the request id %s.", reqID)}
	}
	e := ps[0]
	status := e.Kind.Status()
	switch {
	case e.Kind == portal.UpstreamUnavailable || e.Kind == portal.UpstreamTimeout:
		return Problem{status, titles[e.Kind], e.Message + ". Try again in a moment."}
	case status == http.StatusInternalServerError:
		return Problem{status, "Something went wrong",
			fmt.Sprintf("The portal failed unexpectedly. If it happens again, give the platform team the request id %s.", reqID)}
	}
	return Problem{status, cmp.Or(titles[e.Kind], http.StatusText(status)), e.Message}
}

// titles head the error page of each kind; the status comes from the
// kind (portal.Kind.Status), the same for both front doors.
var titles = map[portal.Kind]string{
	portal.NotFound: "Not found", portal.InsufficientRole: "Not allowed", portal.ReadOnlyEnvironment: "Not allowed",
	portal.CSRFRejected: "Form expired", portal.AlreadyExists: "Conflict", portal.IncompatibleSchema: "Conflict",
	portal.Conflict: "Conflict", portal.DataAccessDisabled: "Not allowed", portal.ProduceDisabled: "Not allowed", portal.MissingParameter: "Invalid request", portal.InvalidParameter: "Invalid request",
	portal.MalformedBody: "Invalid request", portal.Unauthenticated: "Sign-in required", portal.RateLimited: "Too many requests",
	portal.UpstreamUnavailable: "Upstream unavailable", portal.UpstreamTimeout: "Upstream too slow",
	portal.QuotaExceeded: "Quota reached", portal.PreconditionFailed: "Changed meanwhile",
	portal.PolicyViolation: "Refused by a policy", portal.BudgetExceeded: "Budget reached",
	portal.UpstreamPermission: "The platform refused the portal",
}

// RenderError is the HTML front door's error renderer. htmx requests get
// the status and a toast (nothing is swapped); pages get an error page, in
// the layout when someone is signed in.
func (k *Kit) RenderError(c echo.Context, err error) error {
	pr := Explain(err, requestid.From(c.Request().Context()))
	if ps := portal.Problems(err); len(ps) > 0 && ps[0].RetryAfter > 0 {
		c.Response().Header().Set("Retry-After", strconv.Itoa(max(1, int(math.Ceil(ps[0].RetryAfter.Seconds())))))
	}
	if IsHTMX(c) {
		Trigger(c, "error", pr.Message)
		return c.NoContent(pr.Status)
	}
	if portal.PrincipalFrom(c.Request().Context()) == nil {
		return Fragment(c, pr.Status, views.BareError(pr.Status, pr.Title, pr.Message))
	}
	p, perr := k.Page(c, pr.Title, "", portal.Scope{})
	if perr != nil {
		return Fragment(c, pr.Status, views.BareError(pr.Status, pr.Title, pr.Message))
	}
	return k.Render(c, pr.Status, p, views.ErrorPanel(pr.Status, pr.Title, pr.Message))
}

// Trigger asks the page to show a toast after an htmx request.
func Trigger(c echo.Context, kind, message string) {
	b, _ := json.Marshal(map[string]any{"toast": map[string]string{"kind": kind, "message": message}})
	c.Response().Header().Set("HX-Trigger", string(b))
}

// Done finishes a successful form: a toast, then the next page. htmx
// loads that page into the main column; without JavaScript the browser is
// redirected and the toast waits in the session.
func (k *Kit) Done(c echo.Context, message, next string) error {
	kind := "success"
	if w := portal.WarningsFrom(c.Request().Context()); len(w) > 0 {
		// Let through with a warning (a policy in warn mode): said with it.
		kind, message = "warning", message+" Warning: "+strings.Join(w, "; ")
	}
	if IsHTMX(c) {
		Trigger(c, kind, message)
		loc, _ := json.Marshal(map[string]string{"path": next, "target": "#main"})
		c.Response().Header().Set("HX-Location", string(loc))
		return c.NoContent(http.StatusOK)
	}
	k.Sessions.AddToast(c.Response(), c.Request(), auth.Toast{Kind: kind, Message: message})
	return c.Redirect(http.StatusSeeOther, next)
}
