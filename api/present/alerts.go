package present

import (
	"time"

	"github.com/edh-platform/rms-portal/internal/portal/alert"
	"github.com/edh-platform/rms-portal/internal/portal/webhook"
	"github.com/edh-platform/rms-portal/internal/wire"
)

// AlertRule is an alert rule with its threshold and silence.
func AlertRule(r alert.AlertRule) wire.AlertRule {
	return wire.AlertRule{Name: r.Name, Kind: wire.AlertKind(r.Kind), Target: r.Target, Threshold: r.Threshold, ForSeconds: int64(r.For / time.Second), Enabled: r.Enabled,
		Default: r.Default, Description: r.Description, SilencedUntil: TimeOrNil(r.SilencedUntil), SilenceReason: r.SilenceReason, SilencedBy: r.SilencedBy,
		UpdatedBy: r.UpdatedBy, UpdatedAt: TimeOrNil(r.UpdatedAt)}
}

// Channel is a unit's alert channel (a webhook), with the secret the
// domain value holds: only the one that creates it has one.
func Channel(w webhook.Webhook) wire.AlertChannel {
	format := w.Format
	if format == "" {
		format = "cloudevents"
	}
	return wire.AlertChannel{ID: w.ID, Format: format, URL: w.URL, Secret: w.Secret, CreatedBy: w.CreatedBy, CreatedAt: Stamp(w.Created)}
}
