// Package alert is the contract of alert rules, alerts and their channels.
package alert

import (
	"context"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/webhook"
)

// AlertRule is a unit's alert rule in a stage: what fires (Kind, Target,
// Threshold), after how long (For), whether it is on and silenced. A
// platform default (Default) applies until the unit saves a rule of the
// same name.
type AlertRule struct {
	Name, Kind, Target string
	Threshold          float64
	For                time.Duration
	Enabled            bool
	Default            bool
	// Description says the rule for people.
	Description string
	// Silenced: its alerts are not told until SilencedUntil.
	Silenced      bool
	SilencedUntil time.Time
	SilenceReason string
	SilencedBy    string
	UpdatedBy     string
	UpdatedAt     time.Time
}

// Alert is one firing of a rule for a subject, open or resolved.
type Alert struct {
	ID, Rule, Kind, Subject, State, Value string
	// Scope is where it fired.
	portal.Scope
	Since, FiredAt, ResolvedAt time.Time
	// Silenced: it fired while its rule was silenced, and was not told.
	Silenced bool
}

// Silence silences a rule until Until, or for For from now (neither:
// ends its silence), with a reason.
type Silence struct {
	Until  time.Time
	For    time.Duration
	Reason string
}

// Limits of alert rules.
const (
	MaxAlertFor     = 24 * time.Hour
	MaxAlertSilence = 30 * 24 * time.Hour
)

// AlertService keeps a unit's alert rules and shows their alerts: anyone
// of the unit reads them; Developers and up change, delete and silence
// rules (Admins in read-only stages).
type AlertService interface {
	Rules(ctx context.Context, scope portal.Scope) ([]AlertRule, error)
	// PutRule saves a unit's rule, replacing a default of its name.
	// Errors: InvalidParameter, the roles'.
	PutRule(ctx context.Context, scope portal.Scope, rule AlertRule) (AlertRule, error)
	// DeleteRule deletes a unit's rule (a default of its name applies
	// again). Errors: NotFound, the roles'.
	DeleteRule(ctx context.Context, scope portal.Scope, name string) error
	// Silence silences a rule for a time, or ends its silence.
	Silence(ctx context.Context, scope portal.Scope, name string, s Silence) (AlertRule, error)
	// History lists the unit's alerts that fired, open first.
	History(ctx context.Context, scope portal.Scope) ([]Alert, error)
	// Firing lists the firing alerts of the caller's units, for the home
	// page.
	Firing(ctx context.Context) ([]Alert, error)
}

// AlertChannelService keeps a unit's alert channels: webhooks of its own
// that take its stage's alerts (signed CloudEvents, a Slack- and
// Teams-compatible message, or Alertmanager's alerts).
type AlertChannelService interface {
	Channels(ctx context.Context, scope portal.Scope) ([]webhook.Webhook, error)
	// CreateChannel checks the URL as a webhook's; a CloudEvents channel's
	// signing secret is in this answer only.
	CreateChannel(ctx context.Context, scope portal.Scope, format, url string) (webhook.Webhook, error)
	DeleteChannel(ctx context.Context, scope portal.Scope, id string) error
}
