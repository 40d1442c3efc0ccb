// Package webhook is the contract of webhooks: their endpoints and
// deliveries.
package webhook

import (
	"context"
	"time"
)

// Webhook is where a landing zone's (or one unit's) events go. Secret is
// set only in the answer that creates it.
type Webhook struct {
	ID, Zone, BU, URL string
	// Stage and Format are a unit's alert channel's (Format: "" for signed
	// CloudEvents, "slack" for Slack and Teams, "alertmanager").
	Stage, Format string
	AlertsOnly    bool
	Secret        string
	CreatedBy     string
	Created       time.Time
	// Pending and Failed count its deliveries waiting and given up.
	Pending, Failed int
}

// NewWebhook is a webhook to configure: BU empty for the whole zone.
type NewWebhook struct {
	Zone, BU, URL string
}

// WebhookDelivery is one event's delivery to a webhook.
type WebhookDelivery struct {
	EventID    int64
	EventAt    time.Time
	Type       string
	State      string
	Attempts   int
	Next       time.Time
	LastStatus int
	LastError  string
	Done       time.Time
}

// WebhookService configures webhooks (platform admins) and lists their
// deliveries.
type WebhookService interface {
	Webhooks(ctx context.Context) ([]Webhook, error)
	// CreateWebhook makes a webhook with a new signing secret, answered
	// this once. Errors: Validation (an https URL outside dev mode, a
	// known zone and unit).
	CreateWebhook(ctx context.Context, in NewWebhook) (Webhook, error)
	DeleteWebhook(ctx context.Context, id string) error
	// Deliveries lists a webhook's latest deliveries, newest first.
	Deliveries(ctx context.Context, id string) (Webhook, []WebhookDelivery, error)
}
