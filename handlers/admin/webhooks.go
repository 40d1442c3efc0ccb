package admin

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/handlers/page"
	"github.com/edh-platform/rms-portal/internal/portal/webhook"
	"github.com/edh-platform/rms-portal/views"
)

func (h *Pages) listWebhooks(c echo.Context) error {
	p, area, err := h.adminPage(c, "Webhooks", views.Crumb{Label: "webhooks"})
	if err != nil {
		return err
	}
	list, err := h.Webhooks.Webhooks(c.Request().Context())
	if err != nil {
		return err
	}
	// The webhook just made, handed over by the form once: its secret is
	// on this answer alone (a reload or Back finds none).
	var created *webhook.Webhook
	if id := c.QueryParam("created"); id != "" {
		if data, ok := h.Sessions.TakeHandoff(c.Request(), "webhook "+id); ok {
			var w webhook.Webhook
			if json.Unmarshal(data, &w) == nil && w.ID == id {
				created = &w
				page.ShowsSecret(c)
			}
		}
	}
	return h.Render(c, http.StatusOK, p, views.WebhooksPage(p, area, list, created, views.WebhookForm{Zones: area.Zones, Errors: map[string]string{}}))
}

// createWebhook makes a webhook and hands it, with its secret, to the
// list's next answer by the session (303): the history holds the list's
// address, never the form's post.
func (h *Pages) createWebhook(c echo.Context) error {
	p, area, err := h.adminPage(c, "Webhooks", views.Crumb{Label: "webhooks"})
	if err != nil {
		return err
	}
	f := views.WebhookForm{Zone: c.FormValue("landing_zone"), BU: strings.TrimSpace(c.FormValue("business_unit")), URL: strings.TrimSpace(c.FormValue("url")),
		Zones: area.Zones, Errors: map[string]string{}}
	ctx := c.Request().Context()
	w, err := h.Webhooks.CreateWebhook(ctx, webhook.NewWebhook{Zone: f.Zone, BU: f.BU, URL: f.URL})
	if err != nil && !page.FieldErrors(err, f.Errors, "") {
		return err
	}
	list, lerr := h.Webhooks.Webhooks(ctx)
	if lerr != nil {
		return lerr
	}
	if err != nil {
		return h.FailedForm(c, p, err, func() templ.Component { return views.WebhooksPage(p, area, list, nil, f) })
	}
	if data, err := json.Marshal(w); err == nil && h.Sessions.Handoff(c.Request(), "webhook "+w.ID, data) == nil {
		return c.Redirect(http.StatusSeeOther, "/admin/webhooks?created="+url.QueryEscape(w.ID))
	}
	page.ShowsSecret(c)
	return h.Render(c, http.StatusCreated, p, views.WebhooksPage(p, area, list, &w, views.WebhookForm{Zones: area.Zones, Errors: map[string]string{}}))
}

func (h *Pages) deleteWebhook(c echo.Context) error {
	if _, _, err := h.adminPage(c, "Webhooks"); err != nil {
		return err
	}
	id := c.Param("id")
	if err := h.Webhooks.DeleteWebhook(c.Request().Context(), id); err != nil {
		return err
	}
	return h.Done(c, "Webhook "+id+" deleted.", "/admin/webhooks")
}

func (h *Pages) webhookDeliveries(c echo.Context) error {
	id := c.Param("id")
	p, area, err := h.adminPage(c, "Webhook "+id, views.Crumb{Label: "webhooks", Href: "/admin/webhooks"}, views.Crumb{Label: id})
	if err != nil {
		return err
	}
	w, list, err := h.Webhooks.Deliveries(c.Request().Context(), id)
	if err != nil {
		return err
	}
	return h.Render(c, http.StatusOK, p, views.DeliveriesPage(p, area, w, list))
}
