package handlers

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/handlers/page"
	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/alert"
	"github.com/edh-platform/rms-portal/internal/portal/webhook"
	"github.com/edh-platform/rms-portal/views"
)

// alertsPage is a unit's alerts, rules and channels in a stage; a channel
// just made is handed over once by the session, with its secret.
func (h *Handlers) alertsPage(c echo.Context) error {
	secret := ""
	if id := c.QueryParam("created"); id != "" {
		if data, ok := h.Sessions.TakeHandoff(c.Request(), "alert channel "+id); ok {
			var w webhook.Webhook
			if json.Unmarshal(data, &w) == nil && w.ID == id {
				secret = w.Secret
			}
		}
	}
	return h.renderAlerts(c, http.StatusOK, secret, "")
}

func (h *Handlers) renderAlerts(c echo.Context, status int, secret, formError string) error {
	p, err := h.Scoped(c, "alerts", "Alerts")
	if err != nil {
		return err
	}
	ctx, scope := c.Request().Context(), httpserver.ScopeOf(c)
	rules, err := h.Alerts.Rules(ctx, scope)
	if err != nil {
		return err
	}
	history, err := h.Alerts.History(ctx, scope)
	if err != nil {
		return err
	}
	channels, err := h.Channels.Channels(ctx, scope)
	if err != nil {
		return err
	}
	if secret != "" {
		page.ShowsSecret(c)
	}
	return h.Render(c, status, p, views.AlertsPage(p, rules, history, channels, secret, formError))
}

// formProblem is a refusal said on the form's page (a bad value), or nil
// when it is not one.
func formProblem(err error) string {
	if !portal.KindOf(err).IsValidation() {
		return ""
	}
	var msgs []string
	for _, p := range portal.Problems(err) {
		if p.Field != "" {
			msgs = append(msgs, p.Field+": "+p.Message)
		} else {
			msgs = append(msgs, p.Message)
		}
	}
	return strings.Join(msgs, "; ")
}

// number reads a form's number field ("" for zero).
func number(c echo.Context, field string) (float64, error) {
	raw := strings.TrimSpace(c.FormValue(field))
	if raw == "" {
		return 0, nil
	}
	f, err := strconv.ParseFloat(raw, 64)
	if err != nil {
		return 0, portal.Invalid(field, "%q is not a number", portal.Clip(raw, 40))
	}
	return f, nil
}

func (h *Handlers) saveAlertRule(c echo.Context) error {
	threshold, err := number(c, "threshold")
	var forSeconds float64
	if err == nil {
		forSeconds, err = number(c, "for_seconds")
	}
	if err == nil {
		_, err = h.Alerts.PutRule(c.Request().Context(), httpserver.ScopeOf(c), alert.AlertRule{Name: strings.TrimSpace(c.FormValue("name")),
			Kind: c.FormValue("kind"), Target: strings.TrimSpace(c.FormValue("target")), Threshold: threshold,
			For: time.Duration(forSeconds) * time.Second, Enabled: c.FormValue("enabled") == "true"})
	}
	if msg := formProblem(err); msg != "" {
		return h.renderAlerts(c, http.StatusUnprocessableEntity, "", msg)
	}
	if err != nil {
		return err
	}
	return h.alertsDone(c, "Rule "+c.FormValue("name")+" saved.")
}

func (h *Handlers) silenceAlertRule(c echo.Context) error {
	hours, err := number(c, "hours")
	if err == nil {
		_, err = h.Alerts.Silence(c.Request().Context(), httpserver.ScopeOf(c), c.Param("name"),
			alert.Silence{For: time.Duration(hours * float64(time.Hour)), Reason: c.FormValue("reason")})
	}
	if msg := formProblem(err); msg != "" {
		return h.renderAlerts(c, http.StatusUnprocessableEntity, "", msg)
	}
	if err != nil {
		return err
	}
	said := "Rule " + c.Param("name") + " silenced."
	if hours == 0 {
		said = "Rule " + c.Param("name") + " is no longer silenced."
	}
	return h.alertsDone(c, said)
}

// addAlertChannel makes a channel and hands it, with a CloudEvents
// channel's secret, to the page's next answer by the session (303).
func (h *Handlers) addAlertChannel(c echo.Context) error {
	w, err := h.Channels.CreateChannel(c.Request().Context(), httpserver.ScopeOf(c), c.FormValue("format"), strings.TrimSpace(c.FormValue("url")))
	if msg := formProblem(err); msg != "" {
		return h.renderAlerts(c, http.StatusUnprocessableEntity, "", msg)
	}
	if err != nil {
		return err
	}
	if w.Secret == "" {
		return h.alertsDone(c, "Channel added.")
	}
	p, err := h.Scoped(c, "alerts", "Alerts")
	if err != nil {
		return err
	}
	if data, err := json.Marshal(w); err == nil && h.Sessions.Handoff(c.Request(), "alert channel "+w.ID, data) == nil {
		return c.Redirect(http.StatusSeeOther, p.Context.Path("alerts")+"?created="+url.QueryEscape(w.ID))
	}
	return h.renderAlerts(c, http.StatusCreated, w.Secret, "")
}

func (h *Handlers) deleteAlertChannel(c echo.Context) error {
	if err := h.Channels.DeleteChannel(c.Request().Context(), httpserver.ScopeOf(c), c.Param("id")); err != nil {
		return err
	}
	return h.alertsDone(c, "Channel removed.")
}

// alertsDone goes back to the alerts page, saying what was done.
func (h *Handlers) alertsDone(c echo.Context, message string) error {
	p, err := h.Scoped(c, "alerts", "Alerts")
	if err != nil {
		return err
	}
	return h.Done(c, message, p.Context.Path("alerts"))
}
