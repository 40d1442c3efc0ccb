package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/config"
	"github.com/edh-platform/rms-portal/internal/events"
)

// receiver is a webhook receiver on localhost: it checks each delivery's
// signature and keeps the events it accepted, by id; while down it
// answers 503.
type receiver struct {
	srv    *httptest.Server
	secret atomic.Value
	down   atomic.Bool
	mu     sync.Mutex
	got    map[string][]events.CloudEvent
	bad    int
	tried  atomic.Int64
}

func newReceiver(t *testing.T) *receiver {
	r := &receiver{got: map[string][]events.CloudEvent{}}
	r.secret.Store("")
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.tried.Add(1)
		if r.down.Load() {
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		body, _ := io.ReadAll(req.Body)
		ts, _ := strconv.ParseInt(req.Header.Get("webhook-timestamp"), 10, 64)
		id := req.Header.Get("webhook-id")
		r.mu.Lock()
		defer r.mu.Unlock()
		if !events.Verify(r.secret.Load().(string), id, time.Unix(ts, 0), body, req.Header.Get("webhook-signature")) {
			r.bad++
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		var ev events.CloudEvent
		if err := json.Unmarshal(body, &ev); err != nil || ev.ID != id || ev.SpecVersion != "1.0" {
			r.bad++
			http.Error(w, "not a CloudEvent", http.StatusBadRequest)
			return
		}
		r.got[id] = append(r.got[id], ev)
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(r.srv.Close)
	return r
}

// find returns the accepted events of a type about a subject.
func (r *receiver) find(typ, subject string) []events.CloudEvent {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []events.CloudEvent
	for _, evs := range r.got {
		for _, e := range evs {
			if e.Type == typ && e.Subject == subject {
				out = append(out, e)
			}
		}
	}
	return out
}

// waitFor polls until cond holds (the dispatcher works every second).
func waitFor(t *testing.T, what string, within time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, within)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestWebhooksGetEveryEventOnceSigned is the check: a receiver
// on localhost gets every event of its unit once, signed; while it is
// down the deliveries are retried, and it gets them when it is back; the
// secret is answered once and nowhere else.
func TestWebhooksGetEveryEventOnceSigned(t *testing.T) {
	t.Parallel()
	tp := startPortal(t, func(c *config.Config) {
		c.Webhooks.RetryBase, c.Webhooks.RetryMax = 200*time.Millisecond, time.Second
	})
	rcv := newReceiver(t)
	sfx := suffix()
	for _, user := range []string{"bob", "alice", "carol"} {
		wantError(t, tp.call("POST", "/api/v1/admin/webhooks", user, map[string]any{"landing_zone": "edh-shared", "url": rcv.srv.URL}), http.StatusNotFound, "NOT_FOUND")
	}
	r := tp.call("POST", "/api/v1/admin/webhooks", "frank", map[string]any{"landing_zone": "edh-shared", "business_unit": "scada", "url": rcv.srv.URL + "/portal"})
	if r.status != http.StatusCreated || r.header.Get("Cache-Control") != "no-store" {
		t.Fatalf("creating the webhook: %d %s", r.status, r.body)
	}
	hook := r.json(t)
	secret, id := hook["secret"].(string), hook["id"].(string)
	if !strings.HasPrefix(secret, events.SecretPrefix) {
		t.Fatalf("the secret %q is not a Standard Webhooks secret", secret)
	}
	rcv.secret.Store(secret)
	defer tp.call("DELETE", "/api/v1/admin/webhook/"+id, "frank", nil)

	// A change and a refused write of scada, and a change of crm.
	if r := tp.call("POST", "/api/v1/scada/dev/topic", "carol", map[string]any{"name": "first-" + sfx}); r.status != http.StatusCreated {
		t.Fatalf("create: %d %s", r.status, r.body)
	}
	wantError(t, tp.call("POST", "/api/v1/scada/dev/topic", "dave", map[string]any{"name": "nope-" + sfx}), http.StatusForbidden, "INSUFFICIENT_ROLE")
	if r := tp.call("POST", "/api/v1/crm/dev/topic", "alice", map[string]any{"name": "other-" + sfx}); r.status != http.StatusCreated {
		t.Fatalf("crm create: %d %s", r.status, r.body)
	}
	first := "edh-shared-scada-dev-first-" + sfx
	waitFor(t, "the create's event", time.Minute, func() bool { return len(rcv.find("portal.topic.created", first)) > 0 })
	waitFor(t, "the refusal's event", time.Minute, func() bool { return len(rcv.find("portal.topic.create.refused", "nope-"+sfx)) > 0 })
	ev := rcv.find("portal.topic.created", first)[0]
	if ev.Data.Actor != "carol" || ev.Data.Scope.BusinessUnit != "scada" || ev.Data.Outcome != "ok" || ev.Source != "/rms-portal/edh-shared/scada/dev" {
		t.Errorf("the event: %+v", ev)
	}
	if len(rcv.find("portal.topic.created", "edh-shared-crm-dev-other-"+sfx)) != 0 {
		t.Error("a crm event reached scada's webhook")
	}

	// Down: deliveries are tried and fail; back: they arrive.
	rcv.down.Store(true)
	for _, n := range []string{"second", "third"} {
		if r := tp.call("POST", "/api/v1/scada/dev/topic", "carol", map[string]any{"name": n + "-" + sfx}); r.status != http.StatusCreated {
			t.Fatalf("create: %d %s", r.status, r.body)
		}
	}
	tried := rcv.tried.Load()
	waitFor(t, "retries while the receiver is down", time.Minute, func() bool { return rcv.tried.Load() >= tried+3 })
	d := tp.call("GET", "/api/v1/admin/webhook/"+id+"/deliveries", "frank", nil)
	if !strings.Contains(string(d.body), `"state":"pending"`) || !strings.Contains(string(d.body), `"last_status":503`) {
		t.Errorf("the deliveries while down: %s", d.body)
	}
	rcv.down.Store(false)
	for _, n := range []string{"second", "third"} {
		subject := "edh-shared-scada-dev-" + n + "-" + sfx
		waitFor(t, n+"'s event after the receiver came back", time.Minute, func() bool { return len(rcv.find("portal.topic.created", subject)) > 0 })
	}
	// Once each, all signed.
	rcv.mu.Lock()
	for eid, evs := range rcv.got {
		if len(evs) != 1 {
			t.Errorf("event %s arrived %d times", eid, len(evs))
		}
	}
	if rcv.bad != 0 {
		t.Errorf("%d deliveries were not signed right", rcv.bad)
	}
	rcv.mu.Unlock()

	// The secret went out once.
	for _, path := range []string{"/api/v1/admin/webhooks", "/api/v1/admin/webhook/" + id + "/deliveries", "/api/v1/admin/audit?action=webhook.create"} {
		if r := tp.call("GET", path, "frank", nil); strings.Contains(string(r.body), strings.TrimPrefix(secret, events.SecretPrefix)) {
			t.Errorf("%s shows the secret", path)
		}
	}
	for _, n := range []string{"first", "second", "third"} {
		tp.call("DELETE", "/api/v1/scada/dev/topic/"+n+"-"+sfx, "carol", nil)
	}
	tp.call("DELETE", "/api/v1/crm/dev/topic/other-"+sfx, "alice", nil)
}

// TestEventsToAKafkaTopic: a platform admin points a webhook at a topic of
// a platform cluster (kafka://zone/stage/topic); every event of the zone
// is written there as a structured CloudEvent keyed by its subject, signed
// in its headers, through the portal's own Kafka client. A target that
// does not exist is refused.
func TestEventsToAKafkaTopic(t *testing.T) {
	t.Parallel()
	tp := startPortal(t, nil)
	sfx := suffix()
	events := "portal-events-" + sfx
	full := "edh-shared-platform-dev-" + events
	if r := tp.call("POST", "/api/v1/platform/dev/topic", "frank", map[string]any{"name": events}); r.status != http.StatusCreated {
		t.Fatalf("the events topic: %d %s", r.status, r.body)
	}
	wantError(t, tp.call("POST", "/api/v1/admin/webhooks", "frank", map[string]any{"landing_zone": "edh-shared", "url": "kafka://edh-shared/dev/missing-" + sfx}),
		http.StatusBadRequest, "INVALID_PARAMETER:url")
	wantError(t, tp.call("POST", "/api/v1/admin/webhooks", "frank", map[string]any{"landing_zone": "edh-shared", "url": "kafka://nowhere/dev/" + full}),
		http.StatusBadRequest, "INVALID_PARAMETER:url")
	r := tp.call("POST", "/api/v1/admin/webhooks", "frank", map[string]any{"landing_zone": "edh-shared", "url": "kafka://edh-shared/dev/" + full})
	if r.status != http.StatusCreated {
		t.Fatalf("the Kafka webhook: %d %s", r.status, r.body)
	}
	id := r.json(t)["id"].(string)
	defer tp.call("DELETE", "/api/v1/admin/webhook/"+id, "frank", nil)
	if r := tp.call("POST", "/api/v1/scada/dev/topic", "carol", map[string]any{"name": "told-" + sfx}); r.status != http.StatusCreated {
		t.Fatalf("create: %d %s", r.status, r.body)
	}
	told := "edh-shared-scada-dev-told-" + sfx
	var records string
	waitFor(t, "the event on the topic", time.Minute, func() bool {
		records = string(tp.call("GET", "/api/v1/platform/dev/topic/"+full+"/messages?limit=50", "frank", nil).body)
		return strings.Contains(records, "portal.topic.created") && strings.Contains(records, told)
	})
	for _, want := range []string{`"key":"` + told + `"`, "webhook-signature", "application/cloudevents+json"} {
		if !strings.Contains(records, want) {
			t.Errorf("the record lacks %s: %.1500s", want, records)
		}
	}
	d := tp.call("GET", "/api/v1/admin/webhook/"+id+"/deliveries", "frank", nil)
	if !strings.Contains(string(d.body), `"state":"delivered"`) {
		t.Errorf("the deliveries: %s", d.body)
	}
}
