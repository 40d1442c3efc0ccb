package operations

import (
	"net/http"

	"github.com/edh-platform/rms-portal/internal/wire"
)

// alerts are the operations of the alerts tag.
func alerts() []Operation {
	return []Operation{
		{
			ID: "listAlertRules", Method: http.MethodGet, Path: "/{bu}/{stage}/alert-rules",
			Need:    NeedReads,
			Tags:    []string{"alerts"},
			Summary: "The unit's alert rules in the stage, its own and the platform's defaults it did not replace.",
			Answers: []Answer{{Status: 200, Doc: "The rules, by name.", Of: wire.AlertRuleList{}}},
			Fails:   []Failure{Forbidden, NotFound, Unavailable},
		},
		{
			ID: "putAlertRule", Method: http.MethodPut, Path: "/{bu}/{stage}/alert-rule/{name}",
			Need:    NeedWrites,
			Tags:    []string{"alerts"},
			Summary: "Save a rule of the unit (replacing a default of its name).",
			Doc:     "Developers and up (Admins in read-only stages); audited as alert-rule.update.",
			Body:    &Body{Of: wire.AlertRuleUpdate{}, Required: true},
			Answers: []Answer{{Status: 200, Doc: "The rule as saved.", Of: wire.AlertRule{}}},
			Fails:   []Failure{BadRequest, Forbidden, NotFound, Unavailable},
		},
		{
			ID: "deleteAlertRule", Method: http.MethodDelete, Path: "/{bu}/{stage}/alert-rule/{name}",
			Need:    NeedWrites,
			Tags:    []string{"alerts"},
			Summary: "Delete a rule of the unit; a default of its name applies again.",
			Answers: []Answer{{Status: 204, Doc: "Deleted."}},
			Fails:   []Failure{Forbidden, NotFound, Unavailable},
		},
		{
			ID: "silenceAlertRule", Method: http.MethodPost, Path: "/{bu}/{stage}/alert-rule/{name}/silence",
			Need:    NeedWrites,
			Tags:    []string{"alerts"},
			Summary: "Silence a rule for a while (its alerts are kept, not told), or end its silence.",
			Body:    &Body{Of: wire.AlertSilence{}, Required: true},
			Answers: []Answer{{Status: 200, Doc: "The rule with its silence.", Of: wire.AlertRule{}}},
			Fails:   []Failure{BadRequest, Forbidden, NotFound, Unavailable},
		},
		{
			ID: "listAlerts", Method: http.MethodGet, Path: "/{bu}/{stage}/alerts",
			Need:    NeedReads,
			Tags:    []string{"alerts"},
			Summary: "The unit's alerts that fired in the stage, firing first, then newest first (at most 200).",
			Answers: []Answer{{Status: 200, Doc: "The alerts.", Of: wire.AlertList{}}},
			Fails:   []Failure{Forbidden, NotFound, Unavailable},
		},
		{
			ID: "listAlertChannels", Method: http.MethodGet, Path: "/{bu}/{stage}/alert-channels",
			Need:    NeedReads,
			Tags:    []string{"alerts"},
			Summary: "The unit's alert channels in the stage.",
			Answers: []Answer{{Status: 200, Doc: "The channels.", Of: wire.AlertChannelList{}}},
			Fails:   []Failure{Forbidden, NotFound, Unavailable},
		},
		{
			ID: "createAlertChannel", Method: http.MethodPost, Path: "/{bu}/{stage}/alert-channel",
			Need:    NeedWrites,
			Tags:    []string{"alerts"},
			Summary: "Add a channel that takes the stage's alerts of the unit.",
			Doc:     "The URL is checked as a webhook's (https, no credentials, no internal address). Messages are delivered and retried from the trail's outbox: signed CloudEvents (portal.alert.fired, portal.alert.resolved), a Slack- and Teams-compatible incoming-webhook message ({\"text\": ...}), or Alertmanager's alerts (POST /api/v2/alerts).",
			Body:    &Body{Of: wire.AlertChannelCreate{}, Required: true},
			Answers: []Answer{{Status: 201, Doc: "The channel; a CloudEvents channel's signing secret is in this answer only.", Of: wire.AlertChannel{}}},
			Fails:   []Failure{BadRequest, Forbidden, NotFound, Unavailable},
		},
		{
			ID: "deleteAlertChannel", Method: http.MethodDelete, Path: "/{bu}/{stage}/alert-channel/{id}",
			Need:    NeedWrites,
			Tags:    []string{"alerts"},
			Summary: "Remove one of the unit's alert channels.",
			Params:  []Param{{Name: "id", In: "path", Required: true, Schema: "{type: string}"}},
			Answers: []Answer{{Status: 204, Doc: "Removed."}},
			Fails:   []Failure{Forbidden, NotFound, Unavailable},
		},
	}
}
