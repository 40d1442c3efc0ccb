package events_test

import (
	"strings"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/events"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/portal/webhook"
	"github.com/edh-platform/rms-portal/internal/servicetest"
)

func TestEventTypes(t *testing.T) {
	at := time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC)
	cases := []struct {
		action, outcome, want string
		published             bool
	}{
		{"topic.create", "ok", "portal.topic.created", true},
		{"topic.create", "POLICY_VIOLATION", "portal.topic.create.refused", true},
		{"topic.delete", "UPSTREAM_UNAVAILABLE", "portal.topic.delete.failed", true},
		{"identity-pool.filter", "ok", "portal.identity-pool.updated", true},
		{"policy.update", "ok", "portal.policy.updated", true},
		{"grant.request", "ok", "portal.grant.requested", true},
		{"grant.approve", "ok", "portal.grant.approved", true},
		{"grant.revoke", "ok", "portal.grant.revoked", true},
		{"grant.approve", "INSUFFICIENT_ROLE", "portal.grant.approve.refused", true},
		{"change-request.approve", "ok", "portal.change-request.approved", true},
		{"change-request.withdraw", "ok", "portal.change-request.withdrawn", true},
		{"topic.describe", "ok", "portal.topic.described", true},
		{"grant.expire", "ok", "portal.grant.expired", true},
		{"grant.expiring", "ok", "portal.grant.expiring", true},
		{"grant.end", "ok", "portal.grant.ended", true},
		{"topic.read-records", "ok", "", false},
		{"topic.create", "unknown", "", false},
	}
	for _, c := range cases {
		e := trail.AuditEvent{ID: 7, Time: at, Actor: "carol", LandingZone: "edh-shared", BU: "scada", Stage: "dev", Action: portal.ActionNamed(c.action), Outcome: c.outcome, Resource: "r"}
		if got := events.Published(e); got != c.published {
			t.Errorf("%s %s published: %v", c.action, c.outcome, got)
		}
		if !c.published {
			continue
		}
		ev := events.FromAudit(e)
		if ev.Type != c.want || ev.ID != "7" || ev.Subject != "r" || ev.SpecVersion != "1.0" || ev.Data.Changes == nil {
			t.Errorf("%s %s: %+v", c.action, c.outcome, ev)
		}
	}
}

// The signature is the Standard Webhooks one: HMAC-SHA256 over
// "id.timestamp.body" with the secret's base64 key; any change fails it.
func TestSignature(t *testing.T) {
	secret := "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	at := time.Unix(1614265330, 0)
	body := []byte(`{"test": 2432232314}`)
	// The specification's own example.
	if got := events.Sign(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", at, body); got != "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=" {
		t.Fatalf("signature %s", got)
	}
	sig := events.Sign(secret, "1", at, body)
	if !events.Verify(secret, "1", at, body, "v1,other "+sig) {
		t.Error("a right signature among others was refused")
	}
	if events.Verify(secret, "1", at, []byte(`{"test": 1}`), sig) || events.Verify(secret, "2", at, body, sig) || events.Verify(secret, "1", at.Add(time.Second), body, sig) {
		t.Error("a changed message passed")
	}
}

func TestWebhookURLs(t *testing.T) {
	w := servicetest.New(t)
	admin := w.AsGroups("platform-admins")
	prod := events.NewService(w.Guard, w.Store, events.ServiceOptions{Receivers: servicetest.PublicReceivers()})
	for url, field := range map[string]string{"http://hooks.example.test/x": "url", "ftp://x/y": "url", "https://u:p@hooks.example.test/": "url", "": "url"} {
		_, err := prod.CreateWebhook(admin, webhook.NewWebhook{Zone: "edh-shared", URL: url})
		if ps := portal.Problems(err); len(ps) == 0 || ps[0].Field != field {
			t.Errorf("%q: %v", url, err)
		}
	}
	if _, err := prod.CreateWebhook(admin, webhook.NewWebhook{Zone: "edh-shared", BU: "plant", URL: "https://hooks.example.test/x"}); err == nil || !strings.Contains(err.Error(), "plant") {
		t.Errorf("a unit of another zone: %v", err)
	}
	if _, err := prod.CreateWebhook(admin, webhook.NewWebhook{Zone: "edh-shared", URL: "https://hooks.example.test/x"}); err != nil {
		t.Fatal(err)
	}
	if _, err := prod.CreateWebhook(servicetest.As("scada", portal.SuperAdmin), webhook.NewWebhook{Zone: "edh-shared", URL: "https://hooks.example.test/y"}); !portal.Is(err, portal.NotFound) {
		t.Errorf("a Super Admin configured a webhook: %v", err)
	}
	if list, _ := prod.Webhooks(admin); len(list) != 1 || list[0].Secret != "" {
		t.Errorf("the list: %+v", list)
	}
}

func TestKafkaTargets(t *testing.T) {
	for raw, want := range map[string]string{
		"kafka://edh-shared/run/edh-shared-platform-run-events": "edh-shared run edh-shared-platform-run-events",
		"kafka://edh-shared/run/":                               "",
		"kafka://edh-shared/run":                                "",
		"kafka:///run/t":                                        "",
		"kafka://edh-shared/run/a/b":                            "",
		"kafka://u:p@edh-shared/run/t":                          "",
		"kafka://edh-shared/run/t?x=1":                          "",
		"https://edh-shared/run/t":                              "",
	} {
		got := ""
		if tg, ok := events.KafkaTarget(raw); ok {
			got = tg.Zone + " " + tg.Stage + " " + tg.Topic
		}
		if got != want {
			t.Errorf("%s: %q, want %q", raw, got, want)
		}
	}
}

// TestEveryActionNamesItsEvent: a done declared action's CloudEvent type
// is its kind and its past tense.
func TestEveryActionNamesItsEvent(t *testing.T) {
	for _, a := range portal.Actions() {
		e := events.FromAudit(trail.AuditEvent{ID: 1, LandingZone: "edh-shared", Action: a, Outcome: "ok", Resource: "r"})
		if want := "portal." + a.Kind() + "." + a.Past(); e.Type != want {
			t.Errorf("%s: type %q, want %q", a, e.Type, want)
		}
	}
}
