package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/portal"
)

type webhookJSON struct {
	ID          string `json:"id"`
	LandingZone string `json:"landing_zone"`
	BU          string `json:"business_unit,omitempty"`
	URL         string `json:"url"`
	// Secret is answered by the create only.
	Secret    string `json:"secret,omitempty"`
	CreatedBy string `json:"created_by"`
	Created   string `json:"created_at"`
	Pending   int    `json:"pending_deliveries"`
	Failed    int    `json:"failed_deliveries"`
}

func webhookOut(w portal.Webhook) webhookJSON {
	return webhookJSON{ID: w.ID, LandingZone: w.Zone, BU: w.BU, URL: w.URL, Secret: w.Secret, CreatedBy: w.CreatedBy, Created: stamp(w.Created),
		Pending: w.Pending, Failed: w.Failed}
}

func (a *API) listWebhooks(c echo.Context) error {
	list, err := a.Webhooks.Webhooks(c.Request().Context())
	if err != nil {
		return err
	}
	out := make([]webhookJSON, len(list))
	for i, w := range list {
		out[i] = webhookOut(w)
	}
	return c.JSON(http.StatusOK, map[string]any{"items": out})
}

func (a *API) createWebhook(c echo.Context) error {
	var in struct {
		LandingZone string `json:"landing_zone"`
		BU          string `json:"business_unit"`
		URL         string `json:"url"`
	}
	if err := decode(c, &in); err != nil {
		return err
	}
	w, err := a.Webhooks.CreateWebhook(c.Request().Context(), portal.NewWebhook{Zone: in.LandingZone, BU: in.BU, URL: in.URL})
	if err != nil {
		return err
	}
	// The secret is in this answer only.
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusCreated, webhookOut(w))
}

func (a *API) deleteWebhook(c echo.Context) error {
	if err := a.Webhooks.DeleteWebhook(c.Request().Context(), c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

type deliveryJSON struct {
	EventID    int64  `json:"event_id"`
	EventAt    string `json:"event_time"`
	Type       string `json:"type"`
	State      string `json:"state"`
	Attempts   int    `json:"attempts"`
	Next       string `json:"next_attempt_at,omitempty"`
	LastStatus int    `json:"last_status,omitempty"`
	LastError  string `json:"last_error,omitempty"`
	Done       string `json:"done_at,omitempty"`
}

func (a *API) webhookDeliveries(c echo.Context) error {
	w, list, err := a.Webhooks.Deliveries(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	out := make([]deliveryJSON, len(list))
	for i, d := range list {
		out[i] = deliveryJSON{EventID: d.EventID, EventAt: stamp(d.EventAt), Type: d.Type, State: d.State, Attempts: d.Attempts,
			LastStatus: d.LastStatus, LastError: d.LastError, Done: stamp(d.Done)}
		if d.State == "pending" {
			out[i].Next = stamp(d.Next)
		}
	}
	return c.JSON(http.StatusOK, map[string]any{"webhook": webhookOut(w), "items": out})
}
