package admin

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/handlers/page"
	"github.com/edh-platform/rms-portal/internal/auditfile"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/adminarea"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/views"
)

func (h *Pages) listReadOnly(c echo.Context) error {
	p, area, err := h.adminPage(c, "Read-only stages")
	if err != nil {
		return err
	}
	states, err := h.Admin.ReadOnly(c.Request().Context())
	if err != nil {
		return err
	}
	return h.Render(c, http.StatusOK, p, views.ReadOnlyPage(p, area, states, map[string]string{}))
}

func (h *Pages) setReadOnly(c echo.Context) error {
	p, area, err := h.adminPage(c, "Read-only stages")
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	change := adminarea.ReadOnlyChange{ReadOnly: c.FormValue("read_only") == "true", Reason: c.FormValue("reason")}
	if s := c.FormValue("until"); s != "" {
		t, perr := time.Parse(page.LocalTime, s)
		if perr != nil {
			err = portal.Invalid("until", "must be a date and time, such as 2026-12-01T18:00")
		}
		change.Until = t
	}
	var st adminarea.ReadOnlyState
	if err == nil {
		st, err = h.Admin.SetReadOnly(ctx, c.Param("landing_zone"), c.Param("stage"), change)
	}
	if err == nil {
		return h.Done(c, st.LandingZone+"/"+st.Stage+" is now "+map[bool]string{true: "read-only", false: "writable"}[st.ReadOnly]+".", "/admin/read-only")
	}
	errs := map[string]string{}
	if !page.FieldErrors(err, errs, "") {
		return err
	}
	states, lerr := h.Admin.ReadOnly(ctx)
	if lerr != nil {
		return lerr
	}
	msg := c.Param("landing_zone") + "/" + c.Param("stage") + ": "
	for _, m := range errs {
		msg += m + " "
	}
	return h.FailedForm(c, p, err, func() templ.Component {
		return views.ReadOnlyPage(p, area, states, map[string]string{"": strings.TrimSpace(msg)})
	})
}

// auditForm reads the viewer's filters into the service's query.
func auditForm(c echo.Context) (views.AuditFilterForm, trail.AuditQuery, error) {
	f := views.AuditFilterForm{LandingZone: c.QueryParam("landing_zone"), BU: c.QueryParam("business_unit"), Stage: c.QueryParam("stage"),
		Actor: c.QueryParam("actor"), Action: c.QueryParam("action"), Outcome: c.QueryParam("outcome"), Resource: c.QueryParam("resource"),
		Since: c.QueryParam("since"), Until: c.QueryParam("until")}
	q := trail.AuditQuery{LandingZone: f.LandingZone, BU: f.BU, Stage: f.Stage, Actor: f.Actor, Action: f.Action, Outcome: f.Outcome,
		Resource: f.Resource, PageToken: c.QueryParam("page_token"), PageSize: 50}
	var v portal.Validation
	for _, x := range []struct {
		name, value string
		into        *time.Time
	}{{"since", f.Since, &q.Since}, {"until", f.Until, &q.Until}} {
		if x.value == "" {
			continue
		}
		t, err := time.Parse(page.LocalTime, x.value)
		if err != nil {
			if t, err = time.Parse(time.RFC3339, x.value); err != nil {
				v.Add(portal.Invalid(x.name, "%s must be a date and time, such as 2026-11-22T10:00", x.name))
			}
		}
		*x.into = t
	}
	vals := url.Values{}
	for k, val := range map[string]string{"landing_zone": f.LandingZone, "business_unit": f.BU, "stage": f.Stage, "actor": f.Actor,
		"action": f.Action, "outcome": f.Outcome, "resource": f.Resource, "since": f.Since, "until": f.Until} {
		if val != "" {
			vals.Set(k, val)
		}
	}
	f.Query = vals.Encode()
	return f, q, v.Err()
}

func (h *Pages) adminAudit(c echo.Context) error {
	p, area, err := h.adminPage(c, "Audit trail")
	if err != nil {
		return err
	}
	f, q, err := auditForm(c)
	var events portal.Page[trail.AuditEvent]
	if err == nil {
		events, err = h.Admin.Audit(c.Request().Context(), q)
	}
	status := http.StatusOK
	if err != nil {
		if !portal.KindOf(err).IsValidation() {
			return err
		}
		f.Error, status = portal.Problems(err)[0].Message, http.StatusUnprocessableEntity
	}
	return h.Render(c, status, p, views.AdminAuditPage(p, area, f, events.Items, events.NextPageToken))
}

// exportAudit downloads the filtered trail (the page's export links).
func (h *Pages) exportAudit(c echo.Context) error {
	_, q, err := auditForm(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	started, err := auditfile.Audit(c.Response(), c.QueryParam("format"), func(emit func(trail.AuditEvent) error) error {
		return h.Admin.ExportAudit(ctx, q, emit)
	})
	if err != nil && started {
		h.Log.ErrorContext(ctx, "audit export cut short", "error", err)
		return nil
	}
	return err
}

func (h *Pages) adminUpstreams(c echo.Context) error {
	p, area, err := h.adminPage(c, "Upstream health")
	if err != nil {
		return err
	}
	list, err := h.Admin.Upstreams(c.Request().Context())
	if err != nil {
		return err
	}
	if page.IsHTMX(c) && !page.IsMainSwap(c) {
		return page.Fragment(c, http.StatusOK, views.UpstreamsTable(list))
	}
	return h.Render(c, http.StatusOK, p, views.UpstreamsPage(p, area, list))
}

func (h *Pages) adminConfig(c echo.Context) error {
	p, area, err := h.adminPage(c, "Configuration in force")
	if err != nil {
		return err
	}
	cfg, err := h.Admin.Config(c.Request().Context())
	if err != nil {
		return err
	}
	return h.Render(c, http.StatusOK, p, views.ConfigPage(p, area, cfg))
}

func (h *Pages) adminSessions(c echo.Context) error {
	p, area, err := h.adminPage(c, "Sessions")
	if err != nil {
		return err
	}
	user := strings.TrimSpace(c.QueryParam("user"))
	list, err := h.Admin.Sessions(c.Request().Context(), user)
	if err != nil {
		return err
	}
	return h.Render(c, http.StatusOK, p, views.SessionsPage(p, area, user, list))
}

func (h *Pages) endSession(c echo.Context) error {
	if err := h.Admin.EndSession(c.Request().Context(), c.Param("id")); err != nil {
		return err
	}
	next := "/admin/sessions"
	if u := c.FormValue("user"); u != "" {
		next += "?user=" + url.QueryEscape(u)
	}
	return h.Done(c, "Session ended: that browser is signed out.", next)
}

func (h *Pages) accessPreview(c echo.Context) error {
	p, area, err := h.adminPage(c, "Access preview")
	if err != nil {
		return err
	}
	f := views.AccessForm{Groups: c.FormValue("groups"), Claims: c.FormValue("claims")}
	if c.Request().Method == http.MethodGet {
		// An empty preview asks the service whether the caller may preview
		// at all: platform admins get a validation error, others NotFound.
		if _, err := h.Admin.PreviewAccess(c.Request().Context(), portal.AccessQuery{}); !portal.KindOf(err).IsValidation() {
			return err
		}
		return h.Render(c, http.StatusOK, p, views.AccessPreviewPage(p, area, f, nil))
	}
	q := portal.AccessQuery{Groups: splitGroups(f.Groups)}
	if strings.TrimSpace(f.Claims) != "" {
		if err := json.Unmarshal([]byte(f.Claims), &q.Claims); err != nil {
			f.Error = "The claims are not a JSON object: " + err.Error()
			return h.Render(c, http.StatusUnprocessableEntity, p, views.AccessPreviewPage(p, area, f, nil))
		}
	}
	r, err := h.Admin.PreviewAccess(c.Request().Context(), q)
	if err != nil {
		if !portal.KindOf(err).IsValidation() {
			return err
		}
		f.Error = portal.Problems(err)[0].Message
		return h.Render(c, http.StatusUnprocessableEntity, p, views.AccessPreviewPage(p, area, f, nil))
	}
	return h.Render(c, http.StatusOK, p, views.AccessPreviewPage(p, area, f, &r))
}
