package api

import (
	"net/http"

	"github.com/edh-platform/rms-portal/internal/portal/webhook"
	"github.com/edh-platform/rms-portal/internal/wire"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/api/present"
)

func (a *API) listWebhooks(c echo.Context) error {
	list, err := a.Webhooks.Webhooks(c.Request().Context())
	if err != nil {
		return err
	}
	out := make([]wire.Webhook, len(list))
	for i, w := range list {
		out[i] = present.Webhook(w)
	}
	return listOf(c, out)
}

func (a *API) createWebhook(c echo.Context) error {
	var in wire.WebhookCreate
	if err := decode(c, &in); err != nil {
		return err
	}
	w, err := a.Webhooks.CreateWebhook(c.Request().Context(), webhook.NewWebhook{Zone: in.LandingZone, BU: in.BU, URL: in.URL})
	if err != nil {
		return err
	}
	// The secret is in this answer only.
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusCreated, present.Webhook(w))
}

func (a *API) deleteWebhook(c echo.Context) error {
	if err := a.Webhooks.DeleteWebhook(c.Request().Context(), c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (a *API) webhookDeliveries(c echo.Context) error {
	w, list, err := a.Webhooks.Deliveries(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	out := make([]wire.Delivery, len(list))
	for i, d := range list {
		out[i] = wire.Delivery{EventID: d.EventID, EventAt: present.Stamp(d.EventAt), Type: d.Type, State: d.State, Attempts: d.Attempts,
			LastStatus: d.LastStatus, LastError: d.LastError, Done: present.Stamp(d.Done)}
		if d.State == "pending" {
			out[i].Next = present.Stamp(d.Next)
		}
	}
	return c.JSON(http.StatusOK, wire.WebhookDeliveries{Webhook: present.Webhook(w), Items: out})
}
