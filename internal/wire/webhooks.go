package wire

// Webhook is a signed webhook of a zone.
type Webhook struct {
	ID          string `json:"id"`
	LandingZone string `json:"landing_zone"`
	BU          string `json:"business_unit,omitempty"`
	URL         string `json:"url"`
	// Secret is answered by the create only.
	Secret    string `json:"secret,omitempty" doc:"whsec_ and the key in base64; in the create's answer only."`
	CreatedBy string `json:"created_by"`
	Created   string `json:"created_at" format:"date-time"`
	Pending   int    `json:"pending_deliveries"`
	Failed    int    `json:"failed_deliveries"`
}

// Delivery is one event delivery of a webhook.
type Delivery struct {
	EventID    int64  `json:"event_id"`
	EventAt    string `json:"event_time" format:"date-time"`
	Type       string `json:"type" example:"portal.topic.created"`
	State      string `json:"state" enum:"pending,delivered,failed"`
	Attempts   int    `json:"attempts"`
	Next       string `json:"next_attempt_at,omitempty" format:"date-time"`
	LastStatus int    `json:"last_status,omitempty"`
	LastError  string `json:"last_error,omitempty"`
	Done       string `json:"done_at,omitempty" format:"date-time"`
}

// WebhookCreate asks for a webhook.
type WebhookCreate struct {
	LandingZone string `json:"landing_zone" oa:"required" example:"edh-shared"`
	BU          string `json:"business_unit" doc:"Only this unit's events; the whole zone's when left out."`
	URL         string `json:"url" oa:"required" format:"uri" example:"https://hooks.example.com/portal" doc:"An https receiver, or kafka://<landing zone>/<stage>/<topic> for a topic of a platform cluster (records keyed by the event's subject)."`
}

// WebhookDeliveries is a webhook with its recent deliveries.
type WebhookDeliveries struct {
	Webhook Webhook    `json:"webhook"`
	Items   []Delivery `json:"items"`
}

// WebhookList is a page of Webhook.
type WebhookList = List[Webhook]
