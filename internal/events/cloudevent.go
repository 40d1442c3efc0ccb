// Package events tells other systems about every change: each audit event
// of a write (done, refused or failed) becomes a CloudEvents 1.0 event,
// delivered at least once to the webhooks platform admins configure per
// landing zone or unit, signed in the shape of the Standard Webhooks
// specification, from an outbox in the store that one replica at a time
// works through (a lease), retried with backoff for up to a day.
package events

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"strconv"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
)

// CloudEvent is an event in the CloudEvents 1.0 structured JSON format.
type CloudEvent struct {
	SpecVersion     string    `json:"specversion"`
	ID              string    `json:"id"`
	Source          string    `json:"source"`
	Type            string    `json:"type"`
	Subject         string    `json:"subject,omitempty"`
	Time            time.Time `json:"time"`
	DataContentType string    `json:"datacontenttype"`
	Data            Data      `json:"data"`
}

// Data is what happened: who, where, the outcome and the change's
// fields before and after (the audit trail's: never a secret).
type Data struct {
	Actor     string         `json:"actor"`
	ActorRole string         `json:"actor_role"`
	Service   bool           `json:"service"`
	Scope     Scope          `json:"scope"`
	Action    string         `json:"action"`
	Outcome   string         `json:"outcome"`
	Detail    string         `json:"detail,omitempty"`
	Changes   []trail.Change `json:"changes"`
	RequestID string         `json:"request_id,omitempty"`
	// Door is the front door the change came through (portal, api, mcp).
	Door string `json:"door,omitempty"`
}

// Scope is where it happened.
type Scope struct {
	LandingZone  string `json:"landing_zone"`
	BusinessUnit string `json:"business_unit,omitempty"`
	Stage        string `json:"stage,omitempty"`
}

// Published tells whether an audit event is told to other systems: a
// write, done, refused or failed; not a read, not an attempt still under
// way, and not an anonymous refusal.
func Published(e trail.AuditEvent) bool {
	return e.Outcome != "" && e.Outcome != "unknown" && e.LandingZone != "" && !strings.HasSuffix(e.Action.String(), "read-records") &&
		!strings.HasPrefix(e.Action.String(), "auth.")
}

// FromAudit is the CloudEvent of an audit event: type portal.<kind>.<past
// tense> when it was done ("portal.topic.created"), portal.<action>.refused
// or .failed when it was not.
func FromAudit(e trail.AuditEvent) CloudEvent {
	typ := "portal." + e.Action.String()
	switch {
	case e.Outcome == "ok":
		if p := e.Action.Past(); p != "" {
			typ = "portal." + e.Action.Kind() + "." + p
		}
	case strings.HasPrefix(e.Outcome, "UPSTREAM_") || e.Outcome == string(portal.Internal):
		typ += ".failed"
	default:
		typ += ".refused"
	}
	source := "/rms-portal/" + e.LandingZone
	if e.BU != "" {
		source += "/" + e.BU + "/" + e.Stage
	}
	changes := e.Changes
	if changes == nil {
		changes = []trail.Change{}
	}
	return CloudEvent{SpecVersion: "1.0", ID: strconv.FormatInt(e.ID, 10), Source: source, Type: typ, Subject: e.Resource, Time: e.Time.UTC(),
		DataContentType: "application/json", Data: Data{Actor: e.Actor, ActorRole: e.ActorRole, Service: e.Service,
			Scope: Scope{LandingZone: e.LandingZone, BusinessUnit: e.BU, Stage: e.Stage}, Action: e.Action.String(), Outcome: e.Outcome,
			Detail: e.Detail, Changes: changes, RequestID: e.RequestID, Door: e.Door}}
}

// SecretPrefix starts every webhook secret, as Standard Webhooks writes
// them: whsec_ and the key in base64.
const SecretPrefix = "whsec_"

// Sign is the webhook-signature header's value for a message: v1, and the
// HMAC-SHA256 of "id.timestamp.body" with the secret's key, in base64.
func Sign(secret, id string, at time.Time, body []byte) string {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, SecretPrefix))
	if err != nil {
		key = []byte(secret)
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + strconv.FormatInt(at.Unix(), 10) + "."))
	mac.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
}

// Verify checks a webhook-signature header (space-separated signatures)
// against a message, as a receiver does.
func Verify(secret, id string, at time.Time, body []byte, header string) bool {
	want := Sign(secret, id, at, body)
	for _, sig := range strings.Fields(header) {
		if hmac.Equal([]byte(sig), []byte(want)) {
			return true
		}
	}
	return false
}
