package main

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl/scram"

	"github.com/edh-platform/rms-portal/internal/config"
)

// consume reads one record of a topic's partition 0 with a librdkafka
// consumer configured from a key's env snippet, as an application would;
// a refusal is the broker's error.
func consume(t *testing.T, env map[string]string, topic, group string) error {
	t.Helper()
	c, err := kafka.NewConsumer(&kafka.ConfigMap{"bootstrap.servers": env["KAFKA_BOOTSTRAP_SERVERS"],
		"security.protocol": env["KAFKA_SECURITY_PROTOCOL"], "sasl.mechanisms": env["KAFKA_SASL_MECHANISM"],
		"sasl.username": env["KAFKA_SASL_USERNAME"], "sasl.password": env["KAFKA_SASL_PASSWORD"], "group.id": group,
		"enable.auto.commit": false, "enable.metrics.push": false, "auto.offset.reset": "earliest"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Assign([]kafka.TopicPartition{{Topic: &topic, Partition: 0, Offset: kafka.OffsetBeginning}}); err != nil {
		return err
	}
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		switch ev := c.Poll(500).(type) {
		case *kafka.Message:
			return ev.TopicPartition.Error
		case kafka.Error:
			return ev
		}
	}
	// librdkafka may keep a refused offset query to its log on a busy
	// machine; asked directly, the broker answers for itself.
	if _, _, err := c.QueryWatermarkOffsets(topic, 0, 5000); err != nil {
		return err
	}
	return errors.New("no record within 15s")
}

// consumeUntil tries a consumer until its outcome is the one wanted:
// role bindings are enforced some seconds after they change, as in
// Confluent Cloud.
func consumeUntil(t *testing.T, env map[string]string, topic, group string, want func(error) bool) error {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	for {
		err := consume(t, env, topic, group)
		if want(err) || time.Now().After(deadline) {
			return err
		}
		<-tick.C
	}
}

func refused(err error) bool {
	var kerr kafka.Error
	return errors.As(err, &kerr) && (kerr.Code() == kafka.ErrTopicAuthorizationFailed || kerr.Code() == kafka.ErrGroupAuthorizationFailed)
}

// TestCatalogJourney is the journey through the binary and a real
// Kafka client: scada's Developer describes and tags a topic; crm's
// Admin finds it by tag and by schema field and asks for read for 7
// days (write is refused: the topic is confidential); scada's Admin
// approves; a librdkafka consumer with crm's key reads it; a delete of
// the topic, read by a live group and granted to crm, shows both and is
// refused for the Developer; 7 days on, the portal revokes the grant and
// the consumer is refused.
func TestCatalogJourney(t *testing.T) {
	// Not parallel: beside a dozen other portals on two cores its consumer
	// after the expiry was, in three of seven runs, neither refused nor
	// served within 90 s; alone it is refused within seconds.
	var skew atomic.Int64
	tp := startPortalWith(t, func(c *config.Config) { c.Catalog.ExpiryEvery = 100 * time.Millisecond },
		hooks{clock: func() time.Time { return time.Now().Add(time.Duration(skew.Load())) }})
	sfx := suffix()
	topic, field := "meters-"+sfx, "reading_"+strings.ReplaceAll(sfx, "-", "_")
	full := "edh-shared-scada-dev-" + topic
	scada, crm := "/api/v1/scada/dev", "/api/v1/crm/dev"
	if r := tp.call("POST", scada+"/topic", "carol", map[string]any{"name": topic}); r.status != http.StatusCreated {
		t.Fatalf("the topic: %d %s", r.status, r.body)
	}
	schema := `{"type":"record","name":"Meter","fields":[{"name":"meter","type":"string"},{"name":"` + field + `","type":"double"}]}`
	if r := tp.call("POST", scada+"/schema", "carol", map[string]any{"topic": topic, "subject_type": "value", "schema_type": "AVRO", "schema": schema}); r.status != http.StatusCreated {
		t.Fatalf("the schema: %d %s", r.status, r.body)
	}
	describe := map[string]any{"description": "Meter readings every minute", "owner_contact": "metering@example.com",
		"tags": []string{"meters", "journey-" + sfx}, "classification": "confidential"}
	wantError(t, tp.call("PUT", scada+"/topic/"+topic+"/catalog", "dave", describe), http.StatusForbidden, "INSUFFICIENT_ROLE")
	// carol describes it on its catalog page (a form, without JavaScript);
	// a bad tag is refused with the form kept.
	cweb := tp.webClient(t)
	cweb.signIn("carol")
	if page := cweb.get("/scada/dev/catalog/" + full); !strings.Contains(page.body, `id="describe-form"`) {
		i := strings.Index(page.body, `id="main"`)
		t.Fatalf("carol's entry page has no form: %d %.1500s", page.status, page.body[max(i, 0):])
	}
	form := url.Values{"description": {"Meter readings every minute"}, "owner_contact": {"metering@example.com"},
		"tags": {"meters, journey-" + sfx + ", Not A Tag!"}, "classification": {"confidential"}}
	if r := cweb.post("/scada/dev/catalog/"+full, form); r.status != http.StatusUnprocessableEntity || !strings.Contains(r.body, "is not a tag") ||
		!strings.Contains(r.body, "Meter readings every minute") {
		t.Fatalf("a bad tag: %d %.400s", r.status, r.body)
	}
	form.Set("tags", "meters, journey-"+sfx)
	if r := cweb.post("/scada/dev/catalog/"+full, form); r.status != http.StatusOK || !strings.Contains(r.body, `id="entry-tags"`) {
		t.Fatalf("describing: %d %.400s", r.status, r.body)
	}

	// crm finds it by tag and by schema field, on the API and the page.
	for _, q := range []string{"tag=journey-" + sfx, "field=" + field} {
		r := tp.call("GET", crm+"/catalog?"+q, "alice", nil)
		items, _ := r.json(t)["items"].([]any)
		if r.status != http.StatusOK || len(items) != 1 || items[0].(map[string]any)["topic"] != full {
			t.Fatalf("catalog?%s: %d %s", q, r.status, r.body)
		}
	}
	web := tp.webClient(t)
	web.signIn("alice")
	aliceCtl := ctl{t: t, bin: portalctlBinary(t), env: []string{"PORTALCTL_SERVER=" + tp.url, "PORTALCTL_STAGE=dev", "PORTALCTL_CLIENT_ID=",
		"PORTALCTL_CLIENT_SECRET=", "PORTALCTL_CONFIG_DIR=" + t.TempDir()}}
	signInAs(t, aliceCtl, "alice")
	if code, out := aliceCtl.run("get", "catalog", "--bu", "crm", "--where", "field="+field); code != 0 || !strings.Contains(out, full) || !strings.Contains(out, "confidential") {
		t.Errorf("portalctl get catalog: exit %d\n%s", code, out)
	}
	if page := web.get("/crm/dev/catalog/" + full); !strings.Contains(page.body, `id="request-access"`) || !strings.Contains(page.body, "Meter readings every minute") {
		t.Errorf("the entry's page: %.500s", page.body)
	}

	// crm's account and key; read for 7 days (write is refused).
	r := tp.call("POST", crm+"/service-account", "alice", map[string]any{"name": "meters-" + sfx, "type": "consumer"})
	if r.status != http.StatusCreated {
		t.Fatalf("crm's account: %d %s", r.status, r.body)
	}
	acct := r.json(t)["id"].(string)
	r = tp.call("POST", crm+"/service-account/"+acct+"/api-keys", "alice", map[string]string{"resource": "kafka"})
	if r.status != http.StatusCreated {
		t.Fatalf("crm's key: %d %s", r.status, r.body)
	}
	created := r.json(t)
	env := envSnippet(t, created)
	waitReady(t, tp, crm, created["id"].(string), "alice")
	group := "edh-shared-crm-dev-meters-" + sfx
	ask := map[string]any{"owner": "scada", "topic": topic, "access": "write", "principal": acct, "reason": "billing", "duration": "7d"}
	wantError(t, tp.call("POST", crm+"/grants", "alice", ask), http.StatusBadRequest, "INVALID_PARAMETER:access")
	ask["access"] = "read"
	r = tp.call("POST", crm+"/grants", "alice", ask)
	if r.status != http.StatusCreated || r.json(t)["duration"] != "7d" {
		t.Fatalf("asking: %d %s", r.status, r.body)
	}
	id := r.json(t)["id"].(string)
	if r := tp.call("POST", scada+"/grant/"+id+"/approve", "bob", nil); r.status != http.StatusOK || r.json(t)["expires_at"] == nil {
		t.Fatalf("approving: %d %s", r.status, r.body)
	}
	if r := tp.call("POST", scada+"/topic/"+topic+"/records", "carol", map[string]any{"records": []any{map[string]any{"key": "m1", "value": "42"}}}); r.status != http.StatusOK {
		t.Fatalf("a record: %d %s", r.status, r.body)
	}
	if err := consumeUntil(t, env, full, group, func(err error) bool { return err == nil }); err != nil {
		t.Fatalf("crm's consumer with the grant: %v", err)
	}
	if me := tp.call("GET", "/api/v1/me", "alice", nil); !strings.Contains(string(me.body), "read on "+full+" through grant "+id) {
		t.Errorf("alice's access does not explain the grant: %s", me.body)
	}

	// The delete's impact: a live group (records left to read) and the grant.
	cluster := tp.app.dev.platform.Clusters["edh-shared/dev"]
	if err := cluster.Commit(context.Background(), "edh-shared-crm-dev-lagging-"+sfx, full, map[int32]int64{0: 0}); err != nil {
		t.Fatal(err)
	}
	r = tp.call("GET", scada+"/topic/"+topic+"/impact", "carol", nil)
	if r.status != http.StatusOK || !strings.Contains(string(r.body), `"name":"`+id+`"`) || !strings.Contains(string(r.body), "edh-shared-crm-dev-lagging-"+sfx) {
		t.Fatalf("impact: %d %s", r.status, r.body)
	}
	r = tp.call("DELETE", scada+"/topic/"+topic+"?confirm="+topic+"&reason=cleanup", "carol", nil)
	if r.status != http.StatusForbidden || !strings.Contains(string(r.body), id) || !strings.Contains(string(r.body), "lagging-"+sfx) {
		t.Fatalf("carol's delete: %d %s", r.status, r.body)
	}
	if page := cweb.get("/scada/dev/topic/" + full + "/delete"); !strings.Contains(page.body, `id="dependants"`) || !strings.Contains(page.body, id) {
		t.Errorf("the delete page does not list the dependants: %.500s", page.body)
	}

	// Five days on, the grant is announced as ending (once); seven days on
	// the portal revokes it and the consumer is refused.
	skew.Store(int64(5 * 24 * time.Hour))
	deadline := time.Now().Add(60 * time.Second)
	for !strings.Contains(string(tp.call("GET", crm+"/audit?action=grant.expiring", "alice", nil).body), id) {
		if time.Now().After(deadline) {
			t.Fatal("the grant's end was not announced")
		}
		<-time.After(100 * time.Millisecond)
	}
	if r := tp.call("GET", crm+"/grants?expiring=true", "alice", nil); !strings.Contains(string(r.body), id) {
		t.Errorf("crm's expiring grants: %s", r.body)
	}
	if home := web.get("/"); !strings.Contains(home.body, `id="expiring-grants"`) || !strings.Contains(home.body, id) {
		t.Errorf("alice's home does not warn of the grant's end")
	}
	skew.Store(int64(7*24*time.Hour + time.Minute))
	for {
		g := tp.call("GET", crm+"/grant/"+id, "alice", nil).json(t)
		if g["state"] == "expired" && g["decided_by"] == "portal" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the grant did not expire: %v", g)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err := consumeUntil(t, env, full, group, refused); !refused(err) {
		t.Errorf("crm's consumer after expiry: %v, want an authorization failure", err)
	}
	if trail := tp.call("GET", scada+"/audit?action=grant.expire", "bob", nil); !strings.Contains(string(trail.body), id) || !strings.Contains(string(trail.body), `"outcome":"ok"`) {
		t.Errorf("the expiry is not in the trail: %s", trail.body)
	}
}

// TestADeletedTopicTakesItsGrantsWithIt is the first seam
// through the binary and a real Kafka client: crm reads scada's topic
// with its key through an approved grant; scada's Admin deletes the topic
// (confirmed, with the impact shown); the grant reads ended, its end is
// in the trail and reaches the zone's webhook naming the delete; the
// topic made again under the name is refused to crm's consumer, and its
// impact and catalog entry show no grant.
func TestADeletedTopicTakesItsGrantsWithIt(t *testing.T) {
	tp := sharedPortal(t)
	rcv := newReceiver(t)
	sfx := suffix()
	topic := "ledger-" + sfx
	full := "edh-shared-scada-dev-" + topic
	scada, crm := "/api/v1/scada/dev", "/api/v1/crm/dev"
	hook := tp.call("POST", "/api/v1/admin/webhooks", "frank", map[string]any{"landing_zone": "edh-shared", "business_unit": "scada", "url": rcv.srv.URL + "/ends-" + sfx})
	if hook.status != http.StatusCreated {
		t.Fatalf("the webhook: %d %s", hook.status, hook.body)
	}
	rcv.secret.Store(hook.json(t)["secret"].(string))
	t.Cleanup(func() { tp.call("DELETE", "/api/v1/admin/webhook/"+hook.json(t)["id"].(string), "frank", nil) })
	if r := tp.call("POST", scada+"/topic", "bob", map[string]any{"name": topic}); r.status != http.StatusCreated {
		t.Fatalf("the topic: %d %s", r.status, r.body)
	}
	tp.removeAfter(scada + "/topic/" + topic)
	r := tp.call("POST", crm+"/service-account", "alice", map[string]any{"name": "ledger-" + sfx, "type": "consumer"})
	if r.status != http.StatusCreated {
		t.Fatalf("crm's account: %d %s", r.status, r.body)
	}
	acct := r.json(t)["id"].(string)
	t.Cleanup(func() { tp.call("DELETE", crm+"/service-account/"+acct+"?delete_api_keys=true", "alice", nil) })
	r = tp.call("POST", crm+"/service-account/"+acct+"/api-keys", "alice", map[string]string{"resource": "kafka"})
	if r.status != http.StatusCreated {
		t.Fatalf("crm's key: %d %s", r.status, r.body)
	}
	created := r.json(t)
	env := envSnippet(t, created)
	waitReady(t, tp, crm, created["id"].(string), "alice")
	r = tp.call("POST", crm+"/grants", "alice", map[string]any{"owner": "scada", "topic": topic, "access": "read", "principal": acct, "reason": "ledger"})
	if r.status != http.StatusCreated {
		t.Fatalf("asking: %d %s", r.status, r.body)
	}
	id := r.json(t)["id"].(string)
	if r := tp.call("POST", scada+"/grant/"+id+"/approve", "bob", nil); r.status != http.StatusOK {
		t.Fatalf("approving: %d %s", r.status, r.body)
	}
	produceOne := func() {
		t.Helper()
		if r := tp.call("POST", scada+"/topic/"+topic+"/records", "bob", map[string]any{"records": []any{map[string]any{"key": "k", "value": "1"}}}); r.status != http.StatusOK {
			t.Fatalf("a record: %d %s", r.status, r.body)
		}
	}
	produceOne()
	group := "edh-shared-crm-dev-ledger-" + sfx
	if err := consumeUntil(t, env, full, group, func(err error) bool { return err == nil }); err != nil {
		t.Fatalf("crm's consumer with the grant: %v", err)
	}

	// The delete: the impact names the grant; confirmed, it ends it.
	if r := tp.call("GET", scada+"/topic/"+topic+"/impact", "bob", nil); !strings.Contains(string(r.body), `"name":"`+id+`"`) {
		t.Fatalf("impact: %d %s", r.status, r.body)
	}
	if r := tp.call("DELETE", scada+"/topic/"+topic+"?confirm="+topic+"&reason=replaced", "bob", nil); r.status != http.StatusNoContent {
		t.Fatalf("the delete: %d %s", r.status, r.body)
	}
	g := tp.call("GET", crm+"/grant/"+id, "alice", nil).json(t)
	if g["state"] != "ended" || g["decided_by"] != "bob" || len(g["role_bindings"].([]any)) != 0 {
		t.Fatalf("the grant after its topic's delete: %v", g)
	}
	if trail := tp.call("GET", scada+"/audit?action=grant.end", "bob", nil); !strings.Contains(string(trail.body), id) ||
		!strings.Contains(string(trail.body), "topic "+full+" is deleted by bob") {
		t.Errorf("the grant's end in the trail: %s", trail.body)
	}
	waitFor(t, "the grant's end at the webhook", time.Minute, func() bool { return len(rcv.find("portal.grant.ended", id)) > 0 })
	if ev := rcv.find("portal.grant.ended", id)[0]; ev.Data.Actor != "bob" || !strings.Contains(ev.Data.Detail, "topic "+full+" is deleted") {
		t.Errorf("the webhook's event: %+v", ev)
	}

	// Made again under the name: crm reads nothing, and nothing says it may.
	if r := tp.call("POST", scada+"/topic", "bob", map[string]any{"name": topic}); r.status != http.StatusCreated {
		t.Fatalf("the topic again: %d %s", r.status, r.body)
	}
	produceOne()
	if err := fetchFirst(env, full); !errors.Is(err, kerr.TopicAuthorizationFailed) {
		t.Errorf("crm's key on the topic made again: %v, want TOPIC_AUTHORIZATION_FAILED", err)
	}
	if r := tp.call("GET", scada+"/topic/"+topic+"/impact", "bob", nil); strings.Contains(string(r.body), id) {
		t.Errorf("the new topic's impact shows the old grant: %s", r.body)
	}
	if r := tp.call("GET", crm+"/catalog/"+full, "alice", nil); r.status != http.StatusOK || strings.Contains(string(r.body), id) {
		t.Errorf("the new topic's catalog entry: %d %s", r.status, r.body)
	}
}

// fetchFirst fetches a topic's partition 0 from its start with a key's
// credentials (franz-go, which reports the broker's refusal of the fetch
// or of its offsets as the partition's error), and returns that error, or
// nil once a record came.
func fetchFirst(env map[string]string, topic string) error {
	cl, err := kgo.NewClient(kgo.SeedBrokers(env["KAFKA_BOOTSTRAP_SERVERS"]),
		kgo.SASL(scram.Auth{User: env["KAFKA_SASL_USERNAME"], Pass: env["KAFKA_SASL_PASSWORD"]}.AsSha256Mechanism()),
		kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{topic: {0: kgo.NewOffset().AtStart()}}))
	if err != nil {
		return err
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	for {
		fs := cl.PollFetches(ctx)
		for _, e := range fs.Errors() {
			return e.Err
		}
		if fs.NumRecords() > 0 {
			return nil
		}
	}
}
