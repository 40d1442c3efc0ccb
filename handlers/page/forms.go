package page

import (
	"net/http"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/views"
)

// LocalTime is the form of a datetime-local input, read as UTC.
const LocalTime = "2006-01-02T15:04"

// FieldErrors spreads a service error over form fields; anything without
// a field goes to "".
func FieldErrors(err error, errs map[string]string, conflictField string) bool {
	ps := portal.Problems(err)
	if len(ps) == 0 {
		return false
	}
	for _, e := range ps {
		switch {
		case e.Kind == portal.AlreadyExists && conflictField != "":
			errs[conflictField] = e.Message
		case e.Field != "" && e.Kind.IsValidation():
			errs[e.Field] = e.Message
		default:
			errs[""] = e.Message
		}
	}
	return true
}

// FailedForm answers a form that the service refused: the form again,
// with 422 so that htmx swaps it.
func (k *Kit) FailedForm(c echo.Context, p views.Page, err error, form func() templ.Component) error {
	if IsHTMX(c) {
		return Fragment(c, http.StatusUnprocessableEntity, form())
	}
	status := Explain(err, "").Status
	if status == http.StatusBadRequest {
		status = http.StatusUnprocessableEntity
	}
	return k.Render(c, status, p, form())
}

// ProblemLines are a refusal's problems as a form shows them above its
// fields: "field: message".
func ProblemLines(ps []*portal.Error) []string {
	out := make([]string, 0, len(ps))
	for _, e := range ps {
		msg := e.Message
		if e.Field != "" {
			msg = e.Field + ": " + msg
		}
		out = append(out, msg)
	}
	return out
}

// ChangedMeanwhile is the form's message when someone else changed the
// resource after the form was opened: nothing was saved.
func ChangedMeanwhile(what, form string) error {
	return portal.New(portal.PreconditionFailed, "Someone changed %s after you opened this form, so nothing was saved. Open the form again (%s) to see their change, then make yours.", what, form)
}
