package events

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/store"
)

// Message is an event as a receiver of the webhook's format takes it: a
// CloudEvent (signed), a Slack- and Teams-compatible incoming-webhook
// message, or an Alertmanager alert (POST /api/v2/alerts).
func Message(format string, ev CloudEvent) []byte {
	var body []byte
	switch format {
	case store.FormatSlack:
		body, _ = json.Marshal(map[string]string{"text": Text(ev)})
	case store.FormatAlertmanager:
		body, _ = json.Marshal([]alertmanagerAlert{alertmanagerOf(ev)})
	default:
		body, _ = json.Marshal(ev)
	}
	return body
}

// contentType is the Content-Type of a format's messages.
func contentType(format string) string {
	if format == store.FormatCloudEvents {
		return "application/cloudevents+json"
	}
	return "application/json"
}

// change is the value of one of an event's changes.
func change(ev CloudEvent, field string) string {
	for _, c := range ev.Data.Changes {
		if c.Field == field {
			return c.After
		}
	}
	return ""
}

// Text says an event in one line for a chat (Slack, Teams): its
// Summary after an emoji of its kind.
func Text(ev CloudEvent) string {
	switch portal.ActionNamed(ev.Data.Action) {
	case ActionAlertFire:
		return ":rotating_light: " + Summary(ev)
	case ActionAlertResolve:
		return ":white_check_mark: " + Summary(ev)
	case ActionGiveUp:
		return ":x: " + Summary(ev)
	}
	return Summary(ev)
}

// Summary says an event in one line of plain text for people: an
// alert's state, unit, rule, subject and value; an auto-restart that
// gave up; another event's type and subject.
func Summary(ev CloudEvent) string {
	where := ev.Data.Scope.BusinessUnit + "/" + ev.Data.Scope.Stage
	switch portal.ActionNamed(ev.Data.Action) {
	case ActionAlertFire:
		return fmt.Sprintf("FIRING %s: %s (%s) for %s: %s", where, change(ev, "rule"), ev.Data.Detail, change(ev, "subject"), change(ev, "value"))
	case ActionAlertResolve:
		return fmt.Sprintf("RESOLVED %s: %s for %s: %s", where, change(ev, "rule"), change(ev, "subject"), change(ev, "value"))
	case ActionGiveUp:
		return fmt.Sprintf("GAVE UP %s: the portal no longer restarts connector %s: %s", where, ev.Subject, ev.Data.Detail)
	}
	return fmt.Sprintf("%s %s: %s (%s by %s)", ev.Type, where, ev.Subject, ev.Data.Outcome, ev.Data.Actor)
}

// Actions the units' alert channels take: alerts, and an auto-restart
// that gave up (the connector stays failed until a person acts).
var (
	ActionAlertFire    = portal.ActAlertFire
	ActionAlertResolve = portal.ActAlertResolve
	ActionGiveUp       = portal.ActConnectorGiveUp
)

type alertmanagerAlert struct {
	Labels       map[string]string `json:"labels"`
	Annotations  map[string]string `json:"annotations"`
	StartsAt     string            `json:"startsAt,omitempty"`
	EndsAt       string            `json:"endsAt,omitempty"`
	GeneratorURL string            `json:"generatorURL,omitempty"`
}

// alertmanagerOf is an alert event as Alertmanager's API takes it: one
// alert, labelled by rule, unit, stage and subject, ended when resolved.
func alertmanagerOf(ev CloudEvent) alertmanagerAlert {
	a := alertmanagerAlert{Labels: map[string]string{"alertname": change(ev, "rule"), "landing_zone": ev.Data.Scope.LandingZone,
		"business_unit": ev.Data.Scope.BusinessUnit, "stage": ev.Data.Scope.Stage, "subject": change(ev, "subject"), "kind": change(ev, "kind"),
		"source": "rms-portal"},
		Annotations: map[string]string{"summary": Summary(ev), "description": ev.Data.Detail, "value": change(ev, "value")},
		StartsAt:    change(ev, "fired_at")}
	if a.Labels["alertname"] == "" {
		a.Labels["alertname"] = strings.ReplaceAll(ev.Type, ".", "_")
		a.StartsAt = ev.Time.UTC().Format(time.RFC3339)
	}
	if a.Labels["subject"] == "" {
		a.Labels["subject"] = ev.Subject
	}
	if portal.ActionNamed(ev.Data.Action) == ActionAlertResolve {
		a.EndsAt = ev.Time.UTC().Format(time.RFC3339)
	}
	return a
}
