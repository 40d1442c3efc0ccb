package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/store/pgtest"
)

// events lists the trail's events of an action in scada/dev about
// resource (as frank, who reads every unit's trail).
func (r *rig) trail(t *testing.T, action, resource string) []map[string]any {
	t.Helper()
	a := r.call(r.b, "GET", "/api/v1/scada/dev/audit?page_size=1000&action="+action, "bob", nil)
	if a.status != http.StatusOK {
		t.Fatalf("the trail: %d %s", a.status, a.body)
	}
	var out []map[string]any
	for _, e := range a.json(t)["items"].([]any) {
		if e := e.(map[string]any); strings.Contains(e["resource"].(string), resource) {
			out = append(out, e)
		}
	}
	return out
}

// grantKilled: replica A is killed right after the Cloud made the first
// role binding of a grant's approval. The grant says approving on B and
// cannot be rejected meanwhile; an event made on B meanwhile reaches the
// webhook once B took the delivery lease over, although the approval's
// event is unknown; B finishes the approval (both bindings, the one
// audit event settled ok and then delivered), and a revoke removes the
// bindings.
func (r *rig) grantKilled(t *testing.T) {
	defer r.a.restart()
	sfx := suffix()
	topic := "ledger-" + sfx
	if c := r.call(r.b, "POST", "/api/v1/scada/dev/topic", "bob", map[string]any{"name": topic}); c.status != http.StatusCreated {
		t.Fatalf("the topic: %d %s", c.status, c.body)
	}
	acct := r.account(t, "crm", "alice", "reports-"+sfx, "metrics")
	g := r.call(r.b, "POST", "/api/v1/crm/dev/grants", "alice", map[string]any{"owner": "scada", "topic": topic, "access": "read", "principal": acct,
		"reason": "reports"})
	if g.status != http.StatusCreated {
		t.Fatalf("the request: %d %s", g.status, g.body)
	}
	id := field(t, g, "id")
	defer r.cloud.on(&fault{method: "POST", path: "/dev/cloud/iam/v2/role-bindings", nth: 1, after: r.a.kill})()
	if a, err := r.try(r.a, "POST", "/api/v1/scada/dev/grant/"+id+"/approve", "bob", map[string]any{"comment": "ok"}); err == nil {
		t.Fatalf("the approval answered from a killed replica: %d %s", a.status, a.body)
	}
	grant := func() map[string]any { return r.call(r.b, "GET", "/api/v1/scada/dev/grant/"+id, "bob", nil).json(t) }
	if s := grant()["state"]; s != "approving" {
		t.Fatalf("the grant after the kill: %v", s)
	}
	if rj := r.call(r.b, "POST", "/api/v1/scada/dev/grant/"+id+"/reject", "bob", map[string]any{"comment": "no"}); rj.status != http.StatusConflict {
		t.Fatalf("rejecting an approval under way: %d %s", rj.status, rj.body)
	}
	later := "edh-shared-scada-dev-later-" + sfx
	if c := r.call(r.b, "POST", "/api/v1/scada/dev/topic", "carol", map[string]any{"name": "later-" + sfx}); c.status != http.StatusCreated {
		t.Fatalf("a later topic: %d %s", c.status, c.body)
	}
	// B takes the webhooks' lease over when the killed replica's ends.
	eventually(t, "the later event at the receiver", 20*time.Second, func() bool { return len(r.hooks.received(later)) == 1 })
	eventually(t, "the approval finished on B", 30*time.Second, func() bool { return grant()["state"] == "active" })
	if bs, _ := grant()["role_bindings"].([]any); len(bs) != 2 {
		t.Errorf("the grant's bindings: %v", grant()["role_bindings"])
	}
	// The grant reads active once its state is written; the approval's
	// event is settled by the write that follows.
	var approvals []map[string]any
	eventually(t, "the approval's trail settled", 10*time.Second, func() bool {
		approvals = r.trail(t, "grant.approve", id)
		return len(approvals) == 1 && approvals[0]["outcome"] != "unknown"
	})
	if len(approvals) != 1 || approvals[0]["outcome"] != "ok" || approvals[0]["actor"] != "bob" {
		t.Errorf("the approval's trail: %v", approvals)
	}
	eventually(t, "the approval's event at the receiver", 15*time.Second, func() bool {
		for _, e := range r.hooks.received(id) {
			if e.Data.Action == "grant.approve" && e.Data.Outcome == "ok" {
				return true
			}
		}
		return false
	})
	if v := r.call(r.b, "POST", "/api/v1/scada/dev/grant/"+id+"/revoke", "bob", map[string]any{"comment": "done"}); v.status != http.StatusOK ||
		field(t, v, "state") != "revoked" {
		t.Fatalf("the revoke: %d %s", v.status, v.body)
	}
	a := r.call(r.b, "GET", "/api/v1/crm/dev/service-account/"+acct, "alice", nil)
	if strings.Contains(string(a.body), "edh-shared-scada-dev-"+topic) {
		t.Errorf("the account keeps a binding on the topic: %s", a.body)
	}
}

// rotationKilled: A is killed right after the Cloud made a rotation's
// new key: B's key sweeper deletes the key nobody recorded (audited as
// the portal's), and the old key may be rotated again.
func (r *rig) rotationKilled(t *testing.T) {
	defer r.a.restart()
	acct := r.account(t, "scada", "bob", "halted-"+suffix(), "consumer")
	k := r.call(r.b, "POST", "/api/v1/scada/dev/service-account/"+acct+"/api-keys", "bob", map[string]any{"resource": "kafka"})
	if k.status != http.StatusCreated {
		t.Fatalf("the key: %d %s", k.status, k.body)
	}
	key := field(t, k, "id")
	defer r.cloud.on(&fault{method: "POST", path: "/dev/cloud/iam/v2/api-keys", nth: 1, after: r.a.kill})()
	if a, err := r.try(r.a, "POST", "/api/v1/scada/dev/api-key/"+key+"/rotate", "bob", map[string]any{"overlap": "1h"}); err == nil {
		t.Fatalf("the rotation answered from a killed replica: %d %s", a.status, a.body)
	}
	if n := len(r.keys(t, acct)); n != 2 {
		t.Fatalf("%d keys upstream after the kill, want the old and the unrecorded one", n)
	}
	eventually(t, "the unrecorded key deleted", 30*time.Second, func() bool { return len(r.keys(t, acct)) == 1 })
	if ks := r.keys(t, acct); ks[0] != key {
		t.Fatalf("the key left: %v", ks)
	}
	deletes := r.trail(t, "api-key.delete", "")
	if len(deletes) == 0 || deletes[0]["actor"] != "portal" {
		t.Errorf("the sweep's event: %v", deletes)
	}
	if again := r.call(r.b, "POST", "/api/v1/scada/dev/api-key/"+key+"/rotate", "bob", map[string]any{"overlap": "1h"}); again.status != http.StatusCreated {
		t.Errorf("rotating after the sweep: %d %s", again.status, again.body)
	}
}

// requestKilled: A is killed while applying an approved change request
// of 20 topics and 5 accounts, right after the Cloud made the third
// account. The request says applying on B (approving it again is a
// conflict, not stale); B finishes the approved plan: every topic and
// account exists and the request is applied.
func (r *rig) requestKilled(t *testing.T) {
	defer r.a.restart()
	sfx := suffix()
	var items []map[string]any
	for i := range 20 {
		items = append(items, map[string]any{"apiVersion": "portal/v1", "kind": "Topic", "metadata": map[string]any{"name": fmt.Sprintf("cr-%s-%02d", sfx, i)},
			"spec": map[string]any{"partitions": 1}})
	}
	for i := range 5 {
		items = append(items, map[string]any{"apiVersion": "portal/v1", "kind": "ServiceAccount",
			"metadata": map[string]any{"name": fmt.Sprintf("cr-%s-%d", sfx, i), "description": "load"}, "spec": map[string]any{"type": "consumer"}})
	}
	doc, _ := json.Marshal(map[string]any{"items": items})
	req := r.call(r.b, "POST", "/api/v1/scada/dev/change-requests?reason=load", "carol", string(doc))
	if req.status != http.StatusCreated {
		t.Fatalf("the request: %d %s", req.status, req.body)
	}
	id := field(t, req, "id")
	defer r.cloud.on(&fault{method: "POST", path: "/dev/cloud/iam/v2/service-accounts", nth: 3, after: r.a.kill})()
	if a, err := r.try(r.a, "POST", "/api/v1/scada/dev/change-request/"+id+"/approve", "bob", map[string]any{"comment": "go"}); err == nil {
		t.Fatalf("the approval answered from a killed replica: %d %s", a.status, a.body)
	}
	state := func() string {
		return field(t, r.call(r.b, "GET", "/api/v1/scada/dev/change-request/"+id, "bob", nil), "state")
	}
	if s := state(); s != "applying" {
		t.Fatalf("the request after the kill: %s", s)
	}
	if again := r.call(r.b, "POST", "/api/v1/scada/dev/change-request/"+id+"/approve", "alice", nil); again.status != http.StatusConflict ||
		strings.Contains(string(again.body), "stale") {
		t.Fatalf("approving an apply under way: %d %s", again.status, again.body)
	}
	eventually(t, "the apply finished on B", 60*time.Second, func() bool { s := state(); return s != "applying" })
	if s := state(); s != "applied" {
		t.Errorf("the request ended %s: %s", s, r.call(r.b, "GET", "/api/v1/scada/dev/change-request/"+id, "bob", nil).body)
	}
	topics := r.call(r.b, "GET", "/api/v1/scada/dev/topics?page_size=100&search=cr-"+sfx, "bob", nil)
	accounts := r.call(r.b, "GET", "/api/v1/scada/dev/service-accounts?page_size=100&search=cr-"+sfx, "bob", nil)
	if n := len(topics.json(t)["items"].([]any)); n != 20 {
		t.Errorf("%d of 20 topics", n)
	}
	if n := len(accounts.json(t)["items"].([]any)); n != 5 {
		t.Errorf("%d of 5 accounts", n)
	}
}

// slowAccount: every role binding takes 4 s at the Cloud API, so that
// an account's four take longer than the request waits: the answer is
// 202 with the job, which ends with the account and all its bindings;
// its event is ok only then.
func (r *rig) slowAccount(t *testing.T) {
	defer r.cloud.on(&fault{method: "POST", path: "/dev/cloud/iam/v2/role-bindings", delay: 4 * time.Second})()
	name := "slow-" + suffix()
	a := r.call(r.a, "POST", "/api/v1/scada/dev/service-account", "bob", map[string]any{"name": name, "type": "consumer"})
	if a.status != http.StatusAccepted || a.header.Get("Location") == "" {
		t.Fatalf("a slow account: %d %s", a.status, a.body)
	}
	loc := a.header.Get("Location")
	eventually(t, "the account's job done", 60*time.Second, func() bool {
		return field(t, r.call(r.b, "GET", loc, "bob", nil), "state") != "running"
	})
	if s := field(t, r.call(r.b, "GET", loc, "bob", nil), "state"); s != "done" {
		t.Fatalf("the job ended %s", s)
	}
	created := r.trail(t, "service-account.create", name)
	if len(created) != 1 || created[0]["outcome"] != "ok" {
		t.Errorf("the account's trail: %v", created)
	}
	list := r.call(r.b, "GET", "/api/v1/scada/dev/service-accounts?search="+name, "bob", nil)
	items := list.json(t)["items"].([]any)
	if len(items) != 1 {
		t.Fatalf("accounts: %s", list.body)
	}
	one := r.call(r.b, "GET", "/api/v1/scada/dev/service-account/"+items[0].(map[string]any)["id"].(string), "bob", nil)
	if bs, _ := one.json(t)["role_bindings"].([]any); len(bs) < 2 {
		t.Errorf("the account's bindings: %s", one.body)
	}
	if again := r.call(r.b, "POST", "/api/v1/scada/dev/service-account", "bob", map[string]any{"name": name, "type": "consumer"}); again.status != http.StatusConflict {
		t.Errorf("creating it again: %d %s", again.status, again.body)
	}
}

// expiringKeys makes ten keys that expire together in a little over a
// minute (the shortest expiry there is), swept at the end of the test,
// while every delete of a key takes 2 s at the Cloud API: the round that
// deletes them is far slower than its lease's first term.
func (r *rig) expiringKeys(t *testing.T) (acct string, ids []string) {
	r.cloud.on(&fault{method: "DELETE", path: "/dev/cloud/iam/v2/api-keys/", delay: 2 * time.Second})
	acct = r.account(t, "scada", "bob", "expiring-"+suffix(), "consumer")
	soon := time.Now().Add(70 * time.Second).UTC().Format(time.RFC3339)
	for range 10 {
		k := r.call(r.b, "POST", "/api/v1/scada/dev/service-account/"+acct+"/api-keys", "bob", map[string]any{"resource": "kafka", "expires_at": soon})
		if k.status != http.StatusCreated {
			t.Fatalf("a key: %d %s", k.status, k.body)
		}
		ids = append(ids, field(t, k, "id"))
	}
	return acct, ids
}

// sweepOnce: the ten keys expired together are each deleted and audited
// once, though both replicas sweep every second.
func (r *rig) sweepOnce(acct string, ids []string) func(t *testing.T) {
	return func(t *testing.T) {
		eventually(t, "the expired keys deleted", 2*time.Minute, func() bool { return len(r.keys(t, acct)) == 0 })
		for _, id := range ids {
			if n := len(r.trail(t, "api-key.expire", id)); n != 1 {
				t.Errorf("key %s: %d expiry events", id, n)
			}
		}
	}
}

// TestAnOutcomeOutlivesADatabaseOutage: PostgreSQL stops while an
// account is being made on A (after its attempt is in the trail, before
// its outcome), and A is stopped with SIGTERM before the database
// returns: the outcome A knew is not lost with it. Once the database is
// back, B settles the event ok, the account holding all its bindings.
func TestAnOutcomeOutlivesADatabaseOutage(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts three portal processes and PostgreSQL")
	}
	srv := pgtest.Own(t)
	r := startRigOn(t, strings.Replace(srv.URL, "/postgres?", "/postgres?connect_timeout=2&", 1))
	r.token("bob")
	name := "outage-" + suffix()
	r.cloud.on(&fault{method: "POST", path: "/dev/cloud/iam/v2/role-bindings", nth: 1, before: func() {
		if err := srv.Stop(); err != nil {
			t.Error(err)
		}
	}})
	if a, err := r.try(r.a, "POST", "/api/v1/scada/dev/service-account", "bob", map[string]any{"name": name, "type": "consumer"}); err == nil {
		t.Logf("the create during the outage answered %d %s", a.status, a.body)
	}
	r.a.terminate()
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	r.b.waitReady(time.Minute)
	eventually(t, "the account's event settled", time.Minute, func() bool {
		created := r.trail(t, "service-account.create", name)
		return len(created) == 1 && created[0]["outcome"] != "unknown"
	})
	if created := r.trail(t, "service-account.create", name); created[0]["outcome"] != "ok" {
		t.Errorf("the account's event: %v", created[0])
	}
	list := r.call(r.b, "GET", "/api/v1/scada/dev/service-accounts?search="+name, "bob", nil)
	items, _ := list.json(t)["items"].([]any)
	if len(items) != 1 {
		t.Fatalf("accounts: %s", list.body)
	}
	one := r.call(r.b, "GET", "/api/v1/scada/dev/service-account/"+items[0].(map[string]any)["id"].(string), "bob", nil)
	if bs, _ := one.json(t)["role_bindings"].([]any); len(bs) < 2 {
		t.Errorf("the account's bindings: %s", one.body)
	}
}

// applyKilled: A is killed while applying a document of 200 topics and
// two accounts, right after the Cloud made the first account: the trail
// says the apply is under way, B finishes the journaled plan and settles
// the apply's event; every topic and account exists.
func (r *rig) applyKilled(t *testing.T) {
	defer r.a.restart()
	sfx := suffix()
	var items []map[string]any
	for i := range 200 {
		items = append(items, map[string]any{"apiVersion": "portal/v1", "kind": "Topic", "metadata": map[string]any{"name": fmt.Sprintf("ap-%s-%03d", sfx, i)},
			"spec": map[string]any{"partitions": 1}})
	}
	for i := range 2 {
		items = append(items, map[string]any{"apiVersion": "portal/v1", "kind": "ServiceAccount",
			"metadata": map[string]any{"name": fmt.Sprintf("ap-%s-%d", sfx, i), "description": "load"}, "spec": map[string]any{"type": "consumer"}})
	}
	doc, _ := json.Marshal(map[string]any{"items": items})
	plan := r.call(r.b, "POST", "/api/v1/scada/dev/plan", "bob", string(doc))
	if plan.status != http.StatusOK {
		t.Fatalf("the plan: %d %s", plan.status, plan.body)
	}
	fp := field(t, plan, "fingerprint")
	defer r.cloud.on(&fault{method: "POST", path: "/dev/cloud/iam/v2/service-accounts", nth: 1, after: r.a.kill})()
	req, _ := http.NewRequest("POST", r.a.url+"/api/v1/scada/dev/apply", strings.NewReader(string(doc)))
	req.Header.Set("Authorization", "Bearer "+r.token("bob"))
	req.Header.Set("If-Match", `"`+fp+`"`)
	req.Header.Set("Content-Type", "application/json")
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
		t.Fatalf("the apply answered from a killed replica: %d", resp.StatusCode)
	}
	bobs := func() map[string]any {
		for _, e := range r.trail(t, "resources.apply", "scada/dev") {
			if e["actor"] == "bob" {
				return e
			}
		}
		return nil
	}
	eventually(t, "the apply's event settled", time.Minute, func() bool { e := bobs(); return e != nil && e["outcome"] != "unknown" })
	if e := bobs(); e["outcome"] != "ok" || !strings.Contains(e["detail"].(string), "finished by the portal") {
		t.Errorf("the apply's event: %v", e)
	}
	topics := r.call(r.b, "GET", "/api/v1/scada/dev/topics?page_size=1000&search=ap-"+sfx, "bob", nil)
	accounts := r.call(r.b, "GET", "/api/v1/scada/dev/service-accounts?page_size=100&search=ap-"+sfx, "bob", nil)
	if n := len(topics.json(t)["items"].([]any)); n != 200 {
		t.Errorf("%d of 200 topics", n)
	}
	if n := len(accounts.json(t)["items"].([]any)); n != 2 {
		t.Errorf("%d of 2 accounts", n)
	}
}

// unknownAfterKill: A is killed right after the Cloud deleted a
// connector, before it recorded the delete's outcome. The attempt is
// settled by B as soon as A's heartbeat is stale (by looking: the
// connector is gone), well before recovery.settle_after, so that the
// connector's events are held no longer than that.
func (r *rig) unknownAfterKill(t *testing.T) {
	defer r.a.restart()
	sfx := suffix()
	c := r.call(r.b, "POST", "/api/v1/scada/dev/connector", "bob", map[string]any{"name": "held-" + sfx, "config": map[string]string{
		"connector.class": "DatagenSource", "kafka.topic": "held_" + sfx, "output.data.format": "JSON", "quickstart": "ORDERS",
		"kafka.api.key": "KEY123", "kafka.api.secret": "TOP-SECRET", "tasks.max": "1"}})
	if c.status != http.StatusCreated {
		t.Fatalf("the connector: %d %s", c.status, c.body)
	}
	name := field(t, c, "name")
	defer r.cloud.on(&fault{method: "DELETE", path: "/dev/cloud/connect/v1/", nth: 1, after: r.a.kill})()
	if d, err := r.try(r.a, "DELETE", "/api/v1/scada/dev/connector/"+name, "bob", nil); err == nil {
		t.Fatalf("the delete answered from a killed replica: %d %s", d.status, d.body)
	}
	killed := time.Now()
	settled := func() map[string]any {
		for _, e := range r.trail(t, "connector.delete", name) {
			if e["outcome"] != "unknown" {
				return e
			}
		}
		return nil
	}
	eventually(t, "the delete's outcome settled", time.Minute, func() bool { return settled() != nil })
	took := time.Since(killed)
	if e := settled(); e["outcome"] != "ok" || !strings.Contains(e["detail"].(string), "confirmed by looking at the upstream") {
		t.Errorf("the settled delete: %v", e)
	}
	// The rig settles what a running replica left unknown after 12 s; a
	// stopped replica's is settled once its heartbeat (1 s) is stale.
	if took > 10*time.Second {
		t.Errorf("the killed replica's attempt was settled %v after the kill: not by its stale heartbeat", took)
	}
	eventually(t, "the delete's event at the receiver", 30*time.Second, func() bool {
		for _, e := range r.hooks.received(name) {
			if e.Data.Action == "connector.delete" && e.Data.Outcome == "ok" {
				return true
			}
		}
		return false
	})
	t.Logf("the attempt was settled %v after the kill", took.Round(100*time.Millisecond))
}
