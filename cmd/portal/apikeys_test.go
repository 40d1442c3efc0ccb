package main

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/sasl/scram"

	"github.com/edh-platform/rms-portal/internal/config"
)

// envSnippet reads the KEY=value lines of a key's env snippet.
func envSnippet(t *testing.T, created map[string]any) map[string]string {
	t.Helper()
	cc, _ := created["client_config"].(map[string]any)
	env, _ := cc["env"].(string)
	out := map[string]string{}
	for _, line := range strings.Split(env, "\n") {
		if k, v, ok := strings.Cut(line, "="); ok && !strings.HasPrefix(k, "#") {
			out[k] = v
		}
	}
	if out["KAFKA_SASL_USERNAME"] == "" || out["KAFKA_SASL_PASSWORD"] == "" {
		t.Fatalf("the env snippet has no credentials:\n%s", env)
	}
	return out
}

// produce writes one record with a librdkafka producer configured from a
// key's env snippet, as an application would.
func produce(t *testing.T, env map[string]string, topic string) error {
	t.Helper()
	p, err := kafka.NewProducer(&kafka.ConfigMap{"bootstrap.servers": env["KAFKA_BOOTSTRAP_SERVERS"],
		"security.protocol": env["KAFKA_SECURITY_PROTOCOL"], "sasl.mechanisms": env["KAFKA_SASL_MECHANISM"],
		"sasl.username": env["KAFKA_SASL_USERNAME"], "sasl.password": env["KAFKA_SASL_PASSWORD"],
		"enable.metrics.push": false, "message.timeout.ms": 15000})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	done := make(chan kafka.Event, 1)
	if err := p.Produce(&kafka.Message{TopicPartition: kafka.TopicPartition{Topic: &topic, Partition: kafka.PartitionAny},
		Value: []byte(`{"from":"an API key"}`)}, done); err != nil {
		return err
	}
	m := (<-done).(*kafka.Message)
	return m.TopicPartition.Error
}

// signIn tries the key on a new connection (franz-go, SCRAM-SHA-256).
func signIn(env map[string]string) error {
	cl, err := kgo.NewClient(kgo.SeedBrokers(env["KAFKA_BOOTSTRAP_SERVERS"]),
		kgo.SASL(scram.Auth{User: env["KAFKA_SASL_USERNAME"], Pass: env["KAFKA_SASL_PASSWORD"]}.AsSha256Mechanism()),
		kgo.RequestRetries(0))
	if err != nil {
		return err
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err = kmsg.NewPtrMetadataRequest().RequestWith(ctx, cl)
	return err
}

// waitReady waits until the portal says clients can sign in with a key.
func waitReady(t *testing.T, tp *testPortal, base, key string, user ...string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	who := "bob"
	if len(user) > 0 {
		who = user[0]
	}
	for {
		r := tp.call("GET", base+"/api-key/"+key, who, nil)
		state, _ := r.json(t)["state"].(string)
		switch {
		case r.status != http.StatusOK || state == "unverified":
			t.Fatalf("waiting for %s to be ready: %d %s", key, r.status, r.body)
		case state == "ready":
			if r.json(t)["ready_at"] == nil {
				t.Errorf("ready without ready_at: %s", r.body)
			}
			return
		case time.Now().After(deadline):
			t.Fatalf("%s is still %s after a minute", key, state)
		}
		<-tick.C
	}
}

// TestAPIKeysJourney is the check through the binary's API and a
// real Kafka client: bob makes an account and a key for scada's dev
// cluster and reads its secret once; a librdkafka producer with the key
// writes to scada's topic and is refused crm's; bob rotates with a 1 h
// overlap and sees both keys with their expiries; a key rotated with a
// 1 s overlap expires and the portal deletes it, audited as its own
// action, after which it no longer signs in; carol and dave see metadata
// only; alice sees no key of another zone; the account goes with its keys
// in one audited action.
func TestAPIKeysJourney(t *testing.T) {
	t.Parallel()
	// A new key takes 6 s to spread (Confluent Cloud: up to about two
	// minutes), long enough that the first sign-in surely comes before.
	tp := startPortal(t, func(c *config.Config) { c.ConfluentCloud.EmbeddedKeyDelay = 6 * time.Second })
	base := "/api/v1/scada/dev"
	r := tp.call("POST", base+"/service-account", "bob", map[string]string{"name": "keyed", "type": "producer"})
	if r.status != http.StatusCreated {
		t.Fatalf("account: %d %s", r.status, r.body)
	}
	account := r.json(t)["id"].(string)

	r = tp.call("POST", base+"/service-account/"+account+"/api-keys", "bob", map[string]string{"resource": "kafka", "description": "billing app"})
	if r.status != http.StatusCreated || r.header.Get("Cache-Control") != "no-store" {
		t.Fatalf("create key: %d %v %s", r.status, r.header, r.body)
	}
	created := r.json(t)
	key, secret := created["id"].(string), created["secret"].(string)
	if r.header.Get("Location") != base+"/api-key/"+key || len(secret) < 32 || created["expires_at"] != nil ||
		created["resource"] != "kafka" || created["resource_id"] != "lkc-edh-shared-dev" || created["created_by"] != "bob" {
		t.Fatalf("created key: %v %s", r.header.Get("Location"), r.body)
	}
	props := created["client_config"].(map[string]any)["properties"].(string)
	for _, want := range []string{"sasl.mechanism=SCRAM-SHA-256", `username="` + key + `" password="` + secret + `"`, "security.protocol=SASL_PLAINTEXT"} {
		if !strings.Contains(props, want) {
			t.Errorf("properties lack %q:\n%s", want, props)
		}
	}
	env := envSnippet(t, created)

	// Not usable at once, and the portal says so until it is.
	if created["state"] != "provisioning" {
		t.Errorf("a new key's state: %v", created["state"])
	}
	if err := signIn(env); err == nil {
		t.Error("a new key signed in before Confluent Cloud spread it")
	}
	waitReady(t, tp, base, key)

	// The key works as its account's role bindings allow.
	if err := produce(t, env, "edh-shared-scada-dev-sensor-readings"); err != nil {
		t.Fatalf("producing to scada's topic with the key: %v", err)
	}
	var kerr kafka.Error
	if err := produce(t, env, "edh-shared-crm-dev-orders"); !errors.As(err, &kerr) || kerr.Code() != kafka.ErrTopicAuthorizationFailed {
		t.Errorf("producing to crm's topic: %v, want a topic authorization failure", err)
	}
	wrong := map[string]string{}
	for k, v := range env {
		wrong[k] = v
	}
	wrong["KAFKA_SASL_PASSWORD"] = "not-the-secret"
	if err := signIn(wrong); err == nil {
		t.Error("a wrong secret signed in")
	}

	// Metadata for everyone of the unit; the secret never again.
	for _, user := range []string{"bob", "carol", "dave"} {
		r = tp.call("GET", base+"/api-keys", user, nil)
		if r.status != 200 || !strings.Contains(string(r.body), key) || strings.Contains(string(r.body), secret) {
			t.Errorf("%s lists keys: %d %s", user, r.status, r.body)
		}
		r = tp.call("GET", base+"/api-key/"+key, user, nil)
		if r.status != 200 || r.json(t)["owner"].(map[string]any)["id"] != account || strings.Contains(string(r.body), secret) {
			t.Errorf("%s reads the key: %d %s", user, r.status, r.body)
		}
	}
	for _, user := range []string{"carol", "dave"} {
		wantError(t, tp.call("POST", base+"/service-account/"+account+"/api-keys", user, map[string]string{"resource": "kafka"}), http.StatusForbidden, "INSUFFICIENT_ROLE")
		wantError(t, tp.call("POST", base+"/api-key/"+key+"/rotate", user, nil), http.StatusForbidden, "INSUFFICIENT_ROLE")
		wantError(t, tp.call("DELETE", base+"/api-key/"+key, user, nil), http.StatusForbidden, "INSUFFICIENT_ROLE")
	}
	r = tp.call("GET", base+"/audit?action=api-key.create", "bob", nil)
	if r.status != 200 || !strings.Contains(string(r.body), key) || strings.Contains(string(r.body), secret) {
		t.Errorf("audit of the creation: %d %s", r.status, r.body)
	}

	// Rotation: a new key, and the old one ends after the overlap.
	r = tp.call("POST", base+"/api-key/"+key+"/rotate", "bob", map[string]string{"overlap": "1h"})
	if r.status != http.StatusCreated {
		t.Fatalf("rotate: %d %s", r.status, r.body)
	}
	second := r.json(t)
	key2 := second["id"].(string)
	if key2 == key || second["secret"] == secret || second["description"] != "billing app" || second["owner"].(map[string]any)["id"] != account {
		t.Errorf("rotated key: %s", r.body)
	}
	waitReady(t, tp, base, key2)
	if err := produce(t, envSnippet(t, second), "edh-shared-scada-dev-sensor-readings"); err != nil {
		t.Errorf("the new key: %v", err)
	}
	if err := signIn(env); err != nil {
		t.Errorf("the old key during the overlap: %v", err)
	}
	old := tp.call("GET", base+"/api-key/"+key, "bob", nil).json(t)
	exp, err := time.Parse(time.RFC3339, old["expires_at"].(string))
	if err != nil || time.Until(exp) < 59*time.Minute || time.Until(exp) > 61*time.Minute || old["replaced_by"] != key2 {
		t.Errorf("the old key after rotation: %v", old)
	}
	wantError(t, tp.call("POST", base+"/api-key/"+key+"/rotate", "bob", nil), http.StatusConflict, "CONFLICT")
	soon := items(t, tp.call("GET", base+"/api-keys?expiring_within=2h", "dave", nil))
	if len(soon) != 1 || soon[0]["id"] != key {
		t.Errorf("keys expiring within 2h: %v", soon)
	}
	wantError(t, tp.call("GET", base+"/api-keys?expiring_within=soon", "dave", nil), http.StatusBadRequest, "INVALID_PARAMETER:expiring_within")

	// A short-lived key: the portal deletes it once expired, as itself.
	r = tp.call("POST", base+"/api-key/"+key2+"/rotate", "bob", map[string]string{"overlap": "1s"})
	if r.status != http.StatusCreated {
		t.Fatalf("rotate again: %d %s", r.status, r.body)
	}
	key3 := r.json(t)["id"].(string)
	deadline := time.Now().Add(30 * time.Second)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for tp.call("GET", base+"/api-key/"+key2, "bob", nil).status != http.StatusNotFound {
		if time.Now().After(deadline) {
			t.Fatalf("the expired key %s was not deleted", key2)
		}
		<-tick.C
		tp.app.keySweeper.Sweep(context.Background(), false)
	}
	r = tp.call("GET", base+"/audit?action=api-key.expire", "bob", nil)
	events := items(t, r)
	if len(events) != 1 || events[0]["actor"] != "portal" || events[0]["actor_role"] != "system" || events[0]["outcome"] != "ok" ||
		!strings.Contains(events[0]["resource"].(string), key2) {
		t.Errorf("the expiry's audit event: %s", r.body)
	}
	if err := signIn(envSnippet(t, second)); err == nil {
		t.Error("the expired key still signs in")
	}

	// Another zone's keys: grace makes one for plant; alice never sees it.
	r = tp.call("POST", "/api/v1/plant/dev/service-account", "grace", map[string]string{"name": "line", "type": "consumer"})
	if r.status != http.StatusCreated {
		t.Fatalf("grace's account: %d %s", r.status, r.body)
	}
	r = tp.call("POST", "/api/v1/plant/dev/service-account/"+r.json(t)["id"].(string)+"/api-keys", "grace", map[string]string{"resource": "kafka"})
	if r.status != http.StatusCreated {
		t.Fatalf("grace's key: %d %s", r.status, r.body)
	}
	plantKey := r.json(t)["id"].(string)
	for _, path := range []string{"/api/v1/platform/dev/api-keys", "/api/v1/scada/dev/api-keys"} {
		if r = tp.call("GET", path, "alice", nil); r.status != 200 || strings.Contains(string(r.body), plantKey) {
			t.Errorf("alice lists %s: %d %s", path, r.status, r.body)
		}
	}
	wantError(t, tp.call("GET", "/api/v1/platform/dev/api-key/"+plantKey, "alice", nil), http.StatusNotFound, "NOT_FOUND")
	wantError(t, tp.call("DELETE", "/api/v1/platform/dev/api-key/"+plantKey, "alice", nil), http.StatusNotFound, "NOT_FOUND")
	wantError(t, tp.call("POST", "/api/v1/platform/dev/api-key/"+plantKey+"/rotate", "alice", nil), http.StatusNotFound, "NOT_FOUND")

	// The account goes only with its keys, in one audited action.
	wantError(t, tp.call("DELETE", base+"/service-account/"+account, "bob", nil), http.StatusConflict, "CONFLICT")
	r = tp.call("DELETE", base+"/service-account/"+account+"?delete_api_keys=true", "bob", nil)
	if r.status != http.StatusOK {
		t.Fatalf("delete the account with its keys: %d %s", r.status, r.body)
	}
	gone := r.json(t)
	if keys := gone["api_keys"].([]any); len(keys) != 2 {
		t.Errorf("deleted keys: %v", keys)
	}
	if bs := gone["role_bindings"].([]any); len(bs) != 7 {
		t.Errorf("deleted bindings: %d", len(bs))
	}
	for _, k := range []string{key, key3} {
		wantError(t, tp.call("GET", base+"/api-key/"+k, "bob", nil), http.StatusNotFound, "NOT_FOUND")
	}
	// The refusal while it had keys, and the deletion listing them.
	r = tp.call("GET", base+"/audit?action=service-account.delete&outcome=ok", "bob", nil)
	events = items(t, r)
	if len(events) != 1 || !strings.Contains(string(r.body), key) || !strings.Contains(string(r.body), key3) {
		t.Errorf("one audited deletion listing the keys: %s", r.body)
	}
	if refused := items(t, tp.call("GET", base+"/audit?action=service-account.delete&outcome=CONFLICT", "bob", nil)); len(refused) != 1 {
		t.Errorf("the refused deletion: %v", refused)
	}
	if err := signIn(env); err == nil {
		t.Error("a deleted key still signs in")
	}
}

// TestAPIKeyExpiryRules: in qas (keys live at most 30 days) a key gets
// that expiry; an expiry in the past or beyond it, an overlap longer than
// it and a resource that is not the unit's are refused and change nothing.
func TestAPIKeyExpiryRules(t *testing.T) {
	t.Parallel()
	tp := startPortal(t, nil)
	base := "/api/v1/scada/qas"
	r := tp.call("POST", base+"/service-account", "bob", map[string]string{"name": "short", "type": "consumer"})
	if r.status != http.StatusCreated {
		t.Fatalf("account: %d %s", r.status, r.body)
	}
	account := r.json(t)["id"].(string)
	keys := base + "/service-account/" + account + "/api-keys"
	wantError(t, tp.call("POST", keys, "bob", map[string]any{"resource": "kafka", "expires_at": time.Now().Add(-time.Hour)}),
		http.StatusBadRequest, "INVALID_PARAMETER:expires_at")
	wantError(t, tp.call("POST", keys, "bob", map[string]any{"resource": "kafka", "expires_at": time.Now().Add(31 * 24 * time.Hour)}),
		http.StatusBadRequest, "INVALID_PARAMETER:expires_at")
	wantError(t, tp.call("POST", keys, "bob", map[string]any{"resource": "lkc-sales-qas"}), http.StatusBadRequest, "INVALID_PARAMETER:resource")
	wantError(t, tp.call("POST", keys, "bob", map[string]any{}), http.StatusBadRequest, "MISSING_PARAMETER:resource")
	if n := len(items(t, tp.call("GET", base+"/api-keys", "bob", nil))); n != 0 {
		t.Fatalf("refused creates made %d keys", n)
	}
	r = tp.call("POST", keys, "bob", map[string]any{"resource": "schema-registry"})
	if r.status != http.StatusCreated {
		t.Fatalf("registry key: %d %s", r.status, r.body)
	}
	k := r.json(t)
	exp, err := time.Parse(time.RFC3339, k["expires_at"].(string))
	if err != nil || time.Until(exp) < 30*24*time.Hour-time.Minute || time.Until(exp) > 30*24*time.Hour+time.Minute {
		t.Errorf("expiry %v, want 30 days from now", k["expires_at"])
	}
	if props := k["client_config"].(map[string]any)["properties"].(string); !strings.Contains(props, "basic.auth.user.info="+k["id"].(string)+":"+k["secret"].(string)) {
		t.Errorf("registry properties:\n%s", props)
	}
	wantError(t, tp.call("POST", base+"/api-key/"+k["id"].(string)+"/rotate", "bob", map[string]string{"overlap": "31d"}),
		http.StatusBadRequest, "INVALID_PARAMETER:overlap")
	if n := len(items(t, tp.call("GET", base+"/api-keys", "bob", nil))); n != 1 {
		t.Errorf("a refused rotation changed the keys: %d", n)
	}
	// Another unit's account is not found.
	wantError(t, tp.call("POST", "/api/v1/crm/qas/service-account/"+account+"/api-keys", "alice", map[string]string{"resource": "kafka"}),
		http.StatusNotFound, "NOT_FOUND")
}
