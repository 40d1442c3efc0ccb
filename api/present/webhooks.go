package present

import (
	"github.com/edh-platform/rms-portal/internal/portal/webhook"
	"github.com/edh-platform/rms-portal/internal/wire"
)

// Webhook is an audit webhook, with the secret the domain value holds:
// only the one that creates it has one.
func Webhook(w webhook.Webhook) wire.Webhook {
	return wire.Webhook{ID: w.ID, LandingZone: w.Zone, BU: w.BU, URL: w.URL, Secret: w.Secret, CreatedBy: w.CreatedBy, Created: Stamp(w.Created),
		Pending: w.Pending, Failed: w.Failed}
}
