package events_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/events"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/servicetest"
	"github.com/edh-platform/rms-portal/internal/store"
)

// TestChannelsTakeTheirStagesAlertsInTheirFormat: a unit's channels get
// the alerts of their stage only (no other event, no other stage's): a
// Slack/Teams message, Alertmanager's alerts (ended when resolved), and a
// signed CloudEvent.
func TestChannelsTakeTheirStagesAlertsInTheirFormat(t *testing.T) {
	w := servicetest.New(t)
	ctx := context.Background()
	var mu sync.Mutex
	got := map[string][]string{}
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		got[r.URL.Path] = append(got[r.URL.Path], r.Header.Get("Content-Type")+" "+r.Header.Get("webhook-signature")+" "+string(body))
		mu.Unlock()
	}))
	defer srv.Close()
	now := time.Now()
	secret := "whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQ="
	for _, h := range []store.WebhookRecord{
		{ID: "ch-slack", Zone: "edh-shared", BU: "scada", Stage: "dev", Format: store.FormatSlack, AlertsOnly: true, URL: srv.URL + "/slack"},
		{ID: "ch-am", Zone: "edh-shared", BU: "scada", Stage: "dev", Format: store.FormatAlertmanager, AlertsOnly: true, URL: srv.URL + "/am"},
		{ID: "ch-ce", Zone: "edh-shared", BU: "scada", Stage: "dev", AlertsOnly: true, URL: srv.URL + "/ce", Secret: secret},
		{ID: "ch-qas", Zone: "edh-shared", BU: "scada", Stage: "qas", Format: store.FormatSlack, AlertsOnly: true, URL: srv.URL + "/qas"},
	} {
		h.Created = now
		if err := w.Store.CreateWebhookRecord(ctx, h); err != nil {
			t.Fatal(err)
		}
	}
	alert := func(action portal.Action, stage string) trail.AuditEvent {
		return trail.AuditEvent{Time: now, Actor: "portal", LandingZone: "edh-shared", BU: "scada", Stage: stage, Action: action, Resource: "lag edh-shared-scada-dev-billing",
			Outcome: "ok", Detail: "any group's lag in time above 5m0s for 1m0s", Changes: []trail.Change{{Field: "rule", After: "lag"}, {Field: "kind", After: "lag_time"},
				{Field: "subject", After: "edh-shared-scada-dev-billing"}, {Field: "value", After: "7m0s behind"}, {Field: "fired_at", After: "2026-11-28T12:00:00Z"}}}
	}
	giveUp := trail.AuditEvent{Time: now, Actor: "portal", LandingZone: "edh-shared", BU: "scada", Stage: "dev", Action: portal.ActConnectorGiveUp,
		Resource: "edh-shared-scada-dev-sink-connector", Outcome: "ok", Detail: "3 restarts did not bring it back: write timed out"}
	for _, e := range []trail.AuditEvent{alert(portal.ActAlertFire, "dev"), {Time: now, LandingZone: "edh-shared", BU: "scada", Stage: "dev", Action: portal.ActTopicCreate,
		Resource: "t", Outcome: "ok"}, alert(portal.ActAlertFire, "qas"), alert(portal.ActAlertResolve, "dev"), giveUp} {
		if _, err := w.Store.AppendAudit(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	d := events.NewDispatcher(events.DispatcherOptions{Store: w.Store, Holder: "a", Log: servicetest.Discard(), Now: func() time.Time { return now },
		Client: srv.Client()})
	for range 3 {
		if err := d.Round(ctx); err != nil {
			t.Fatal(err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if s := got["/slack"]; len(s) != 3 || !strings.Contains(s[0], `{"text":":rotating_light: FIRING scada/dev: lag (any group's lag in time above 5m0s for 1m0s) for edh-shared-scada-dev-billing: 7m0s behind"}`) ||
		!strings.Contains(s[1], "RESOLVED scada/dev") || !strings.HasPrefix(s[0], "application/json  ") ||
		!strings.Contains(s[2], ":x: GAVE UP scada/dev: the portal no longer restarts connector edh-shared-scada-dev-sink-connector: 3 restarts did not bring it back") {
		t.Errorf("slack (an auto-restart's give-up too): %q", s)
	}
	if q := got["/qas"]; len(q) != 1 || !strings.Contains(q[0], "FIRING scada/qas") {
		t.Errorf("qas's channel: %q", q)
	}
	am := got["/am"]
	if len(am) != 3 {
		t.Fatalf("alertmanager: %q", am)
	}
	// Alertmanager's summaries are plain text: no chat's emoji.
	for _, m := range am {
		if strings.Contains(m, ":rotating_light:") || strings.Contains(m, ":white_check_mark:") || strings.Contains(m, ":x:") {
			t.Errorf("an Alertmanager summary carries a chat's emoji: %s", m)
		}
	}
	if !strings.Contains(am[2], `"alertname":"portal_connector_given-up"`) || !strings.Contains(am[2], `"subject":"edh-shared-scada-dev-sink-connector"`) {
		t.Errorf("alertmanager's give-up: %s", am[2])
	}
	var alerts []struct {
		Labels      map[string]string `json:"labels"`
		Annotations map[string]string `json:"annotations"`
		StartsAt    string            `json:"startsAt"`
		EndsAt      string            `json:"endsAt"`
	}
	if err := json.Unmarshal([]byte(am[1][strings.Index(am[1], "["):]), &alerts); err != nil || len(alerts) != 1 || alerts[0].Labels["alertname"] != "lag" ||
		alerts[0].Labels["business_unit"] != "scada" || alerts[0].Labels["subject"] != "edh-shared-scada-dev-billing" || alerts[0].StartsAt != "2026-11-28T12:00:00Z" ||
		alerts[0].EndsAt == "" {
		t.Errorf("alertmanager's resolved alert: %+v %v (%s)", alerts, err, am[1])
	}
	ce := got["/ce"]
	if len(ce) != 3 || !strings.HasPrefix(ce[0], "application/cloudevents+json v1,") || !strings.Contains(ce[0], `"type":"portal.alert.fired"`) ||
		!strings.Contains(ce[1], `"type":"portal.alert.resolved"`) {
		t.Errorf("cloudevents: %q", ce)
	}
}

// TestChannelsAreCheckedAndOwned: Developers and up add and remove their
// unit's channels, checked as webhooks are (https, no credentials, no
// internal address), refusals audited and changing nothing; another
// unit's channel is not found; a CloudEvents channel's secret is shown
// once.
func TestChannelsAreCheckedAndOwned(t *testing.T) {
	w := servicetest.New(t)
	dev := portal.Scope{BU: "scada", Stage: "dev"}
	dv := servicetest.As("scada", portal.Developer)
	if _, err := w.Webhooks.CreateChannel(servicetest.As("scada", portal.Viewer), dev, "slack", "https://hooks.example.com/x"); !portal.Is(err, portal.InsufficientRole) {
		t.Errorf("a Viewer: %v", err)
	}
	for _, bad := range []struct{ format, url string }{{"slack", "http://hooks.example.com/x"}, {"slack", "https://10.1.2.3/x"},
		{"slack", "https://user:pw@hooks.example.com/x"}, {"teams", "https://hooks.example.com/x"}, {"slack", ""}} {
		if _, err := w.Webhooks.CreateChannel(dv, dev, bad.format, bad.url); err == nil || !portal.KindOf(err).IsValidation() {
			t.Errorf("%v: %v", bad, err)
		}
	}
	if _, err := w.Webhooks.CreateChannel(dv, dev, "teams", "https://hooks.example.com/x"); err == nil ||
		err.Error() != `format: must be cloudevents (the default), slack or alertmanager, not "teams"` && !strings.Contains(err.Error(), `must be cloudevents (the default), slack or alertmanager, not "teams"`) {
		t.Errorf("an unknown format's message: %v", err)
	}
	if chs, _ := w.Webhooks.Channels(dv, dev); len(chs) != 0 {
		t.Fatalf("refusals made channels: %+v", chs)
	}
	ce, err := w.Webhooks.CreateChannel(dv, dev, "", "https://receiver.example.com/portal")
	if err != nil || !strings.HasPrefix(ce.Secret, "whsec_") {
		t.Fatalf("a CloudEvents channel: %+v %v", ce, err)
	}
	slack, err := w.Webhooks.CreateChannel(dv, dev, "slack", "https://hooks.example.com/services/T/B/X")
	if err != nil || slack.Secret != "" {
		t.Fatalf("a Slack channel: %+v %v", slack, err)
	}
	chs, err := w.Webhooks.Channels(servicetest.As("scada", portal.Viewer), dev)
	if err != nil || len(chs) != 2 || chs[0].Secret != "" || chs[1].Secret != "" {
		t.Errorf("channels: %+v %v", chs, err)
	}
	// An incoming webhook's token (its path) is shown to nobody after the
	// answer that made it: not in the list, not in the trail.
	for _, ch := range chs {
		if strings.Contains(ch.URL, "T/B/X") || strings.Contains(ch.URL, "/portal") && !strings.HasSuffix(ch.URL, "/portal") {
			t.Errorf("the channel's URL is shown whole: %s", ch.URL)
		}
	}
	for _, e := range w.AuditEvents(t) {
		for _, c := range e.Changes {
			if strings.Contains(c.After+c.Before, "T/B/X") {
				t.Errorf("the trail holds the channel's token: %+v", e)
			}
		}
	}
	if slack.URL != "https://hooks.example.com/services/T/B/X" {
		t.Errorf("the answer that made it: %s", slack.URL)
	}
	if other, _ := w.Webhooks.Channels(servicetest.As("crm", portal.Admin), portal.Scope{BU: "crm", Stage: "dev"}); len(other) != 0 {
		t.Errorf("crm sees scada's channels: %+v", other)
	}
	if err := w.Webhooks.DeleteChannel(servicetest.As("crm", portal.Admin), portal.Scope{BU: "crm", Stage: "dev"}, slack.ID); !portal.Is(err, portal.NotFound) {
		t.Errorf("crm deleting scada's channel: %v", err)
	}
	if err := w.Webhooks.DeleteChannel(dv, dev, slack.ID); err != nil {
		t.Fatal(err)
	}
	if err := w.Webhooks.DeleteChannel(dv, dev, slack.ID); !portal.Is(err, portal.NotFound) || !strings.Contains(err.Error(), "alert channel") || strings.Contains(err.Error(), "webhook") {
		t.Errorf("deleting an unknown channel: %v", err)
	}
	if ce2, err := w.Webhooks.CreateChannel(dv, dev, "cloudevents", "https://receiver.example.com/named"); err != nil || ce2.Format != "" || ce2.Secret == "" {
		t.Errorf("a channel asked for by the format's name: %+v %v", ce2, err)
	} else if err := w.Webhooks.DeleteChannel(dv, dev, ce2.ID); err != nil {
		t.Fatal(err)
	}
	// Ten at most per unit and stage, apart from the zone's webhooks.
	for i := range events.MaxChannels - 1 {
		if _, err := w.Webhooks.CreateChannel(dv, dev, "slack", fmt.Sprintf("https://hooks.example.com/%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Webhooks.CreateChannel(dv, dev, "slack", "https://hooks.example.com/one-too-many"); !portal.Is(err, portal.Conflict) {
		t.Errorf("an eleventh channel: %v", err)
	}
	var refused, made int
	for _, e := range w.AuditEvents(t) {
		if e.Action == portal.ActAlertChannelCreate {
			if e.Outcome == "ok" {
				made++
			} else {
				refused++
			}
		}
	}
	if made != 12 || refused != 8 {
		t.Errorf("the trail: %d made, %d refused", made, refused)
	}
}

// TestAFailedChannelDeliveryKeepsItsTokenOut: a channel whose receiver
// cannot be reached keeps a failure that does not quote its URL whole.
func TestAFailedChannelDeliveryKeepsItsTokenOut(t *testing.T) {
	w := servicetest.New(t)
	ctx := context.Background()
	now := time.Now()
	secretURL := "http://127.0.0.1:1/services/T0/B0/the-token"
	if err := w.Store.CreateWebhookRecord(ctx, store.WebhookRecord{ID: "ch-down", Zone: "edh-shared", BU: "scada", Stage: "dev", Format: store.FormatSlack,
		AlertsOnly: true, URL: secretURL, Created: now}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Store.AppendAudit(ctx, trail.AuditEvent{Time: now, Actor: "portal", LandingZone: "edh-shared", BU: "scada", Stage: "dev",
		Action: portal.ActAlertFire, Resource: "r s", Outcome: "ok"}); err != nil {
		t.Fatal(err)
	}
	d := events.NewDispatcher(events.DispatcherOptions{Store: w.Store, Holder: "a", Log: servicetest.Discard(), Now: func() time.Time { return now }})
	if err := d.Round(ctx); err != nil {
		t.Fatal(err)
	}
	ds, err := w.Store.Deliveries(ctx, "ch-down", 10)
	if err != nil || len(ds) != 1 || ds[0].LastError == "" || strings.Contains(ds[0].LastError, "the-token") {
		t.Errorf("the failed delivery: %+v %v", ds, err)
	}
}
