package main

import (
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"
)

// TestNothingHalfMadeAcrossReplicas is the check of what spans
// several steps or several replicas, on two serve replicas over
// PostgreSQL with the Cloud API behind a faulty proxy: budgets and key
// rotations hold when raced across the replicas; a slow webhook receiver
// gets every event once, in order per subject; a replica killed in the
// middle of a grant approval, a key rotation, a change request's apply or
// a direct apply
// leaves a state that says so, which the other replica finishes, and the
// unknown events it left block no other event; a slow Cloud API never
// leaves an account without its bindings; the key sweeper deletes each
// expired key once however slow the Cloud API.
func TestNothingHalfMadeAcrossReplicas(t *testing.T) {
	t.Parallel()
	r := startRig(t)
	hook := r.call(r.b, "POST", "/api/v1/admin/webhooks", "frank", map[string]any{"landing_zone": "edh-shared", "business_unit": "scada",
		"url": r.hooks.srv.URL + "/portal"})
	if hook.status != http.StatusCreated {
		t.Fatalf("the webhook: %d %s", hook.status, hook.body)
	}
	expiring, keys := r.expiringKeys(t)
	t.Run("budgets hold when raced across replicas", r.budgetRace)
	t.Run("one rotation of a key across replicas", r.rotationRace)
	t.Run("a slow receiver gets every event once in order", r.slowReceiver)
	t.Run("a grant approval killed after its bindings", r.grantKilled)
	t.Run("a rotation killed after its new key", r.rotationKilled)
	t.Run("a change request killed mid-apply", r.requestKilled)
	t.Run("an attempt a killed replica left unknown", r.unknownAfterKill)
	t.Run("an assistant's session across replicas", r.assistantAcrossReplicas)
	t.Run("an apply of 200 topics killed mid-way", r.applyKilled)
	t.Run("a slow Cloud API and an account's bindings", r.slowAccount)
	t.Run("the key sweeper deletes each key once", r.sweepOnce(expiring, keys))
}

// budgetUse reads a dimension's use from a budget answer.
func budgetUse(t *testing.T, r response, dim string) int {
	t.Helper()
	if r.status != http.StatusOK {
		t.Fatalf("budget: %d %s", r.status, r.body)
	}
	for _, l := range r.json(t)["budgets"].([]any) {
		if l := l.(map[string]any); l["dimension"] == dim {
			return int(l["use"].(float64))
		}
	}
	t.Fatalf("no %s line: %s", dim, r.body)
	return 0
}

// race sends one request to each replica at once and returns their
// statuses.
func (r *rig) race(a, b func() response) [2]response {
	var out [2]response
	var wg sync.WaitGroup
	wg.Go(func() { out[0] = a() })
	wg.Go(func() { out[1] = b() })
	wg.Wait()
	return out
}

// budgetRace: with room for exactly one more topic, two creates raced on
// the two replicas: one is made, the other refused with 422.
func (r *rig) budgetRace(t *testing.T) {
	sfx := suffix()
	// The later journeys make topics too: no limit outlives this one,
	// whatever it ends with.
	t.Cleanup(func() {
		r.call(r.b, "PUT", "/api/v1/admin/budget/scada/dev", "frank", map[string]any{"limits": map[string]int{}})
	})
	for round := range 5 {
		use := budgetUse(t, r.call(r.b, "GET", "/api/v1/scada/dev/budget", "carol", nil), "topics")
		if s := r.call(r.b, "PUT", "/api/v1/admin/budget/scada/dev", "frank", map[string]any{"limits": map[string]int{"topics": use + 1}}); s.status != http.StatusOK {
			t.Fatalf("the budget: %d %s", s.status, s.body)
		}
		got := r.race(
			func() response {
				return r.call(r.a, "POST", "/api/v1/scada/dev/topic", "carol", map[string]any{"name": fmt.Sprintf("slot-%s-%d-a", sfx, round)})
			},
			func() response {
				return r.call(r.b, "POST", "/api/v1/scada/dev/topic", "carol", map[string]any{"name": fmt.Sprintf("slot-%s-%d-b", sfx, round)})
			})
		statuses := []int{got[0].status, got[1].status}
		if !(statuses[0] == 201 && statuses[1] == 422 || statuses[0] == 422 && statuses[1] == 201) {
			t.Fatalf("round %d: %v %s %s", round, statuses, got[0].body, got[1].body)
		}
		// B reads its topics from its cache, which A's create clears
		// through the store's notifications: the count is wanted once B
		// has heard of it, and then must be exactly one more.
		after := use
		for deadline := time.Now().Add(30 * time.Second); after == use && time.Now().Before(deadline); {
			after = budgetUse(t, r.call(r.b, "GET", "/api/v1/scada/dev/budget", "carol", nil), "topics")
		}
		if after != use+1 {
			t.Fatalf("round %d: %d topics for a limit of %d", round, after, use+1)
		}
	}
}

// account makes a service account of scada/dev on B.
func (r *rig) account(t *testing.T, bu, user, name, typ string) string {
	t.Helper()
	a := r.call(r.b, "POST", "/api/v1/"+bu+"/dev/service-account", user, map[string]any{"name": name, "type": typ})
	if a.status != http.StatusCreated {
		t.Fatalf("the account %s: %d %s", name, a.status, a.body)
	}
	return field(t, a, "id")
}

// keys lists an account's keys (upstream, with the portal's records).
func (r *rig) keys(t *testing.T, acct string) []string {
	t.Helper()
	l := r.call(r.b, "GET", "/api/v1/scada/dev/service-account/"+acct+"/api-keys", "bob", nil)
	if l.status != http.StatusOK {
		t.Fatalf("keys: %d %s", l.status, l.body)
	}
	var ids []string
	for _, k := range l.json(t)["items"].([]any) {
		ids = append(ids, k.(map[string]any)["id"].(string))
	}
	return ids
}

// rotationRace: two rotations of one key raced on the two replicas make
// one new key; the other is refused with 409.
func (r *rig) rotationRace(t *testing.T) {
	acct := r.account(t, "scada", "bob", "rotor-"+suffix(), "consumer")
	k := r.call(r.b, "POST", "/api/v1/scada/dev/service-account/"+acct+"/api-keys", "bob", map[string]any{"resource": "kafka"})
	if k.status != http.StatusCreated {
		t.Fatalf("the key: %d %s", k.status, k.body)
	}
	key := field(t, k, "id")
	for round := range 5 {
		path := "/api/v1/scada/dev/api-key/" + key + "/rotate"
		got := r.race(
			func() response { return r.call(r.a, "POST", path, "bob", map[string]any{"overlap": "1h"}) },
			func() response { return r.call(r.b, "POST", path, "bob", map[string]any{"overlap": "1h"}) })
		var made []response
		for _, g := range got {
			switch g.status {
			case http.StatusCreated:
				made = append(made, g)
			case http.StatusConflict:
			default:
				t.Fatalf("round %d: a rotation answered %d %s", round, g.status, g.body)
			}
		}
		if len(made) != 1 {
			t.Fatalf("round %d: %d rotations made a key", round, len(made))
		}
		key = field(t, made[0], "id")
		if n := len(r.keys(t, acct)); n != round+2 {
			t.Fatalf("round %d: %d keys", round, n)
		}
	}
}

// slowReceiver: topics made and deleted through both replicas at once,
// with a receiver taking 300 ms a delivery: every audit event reaches
// it once, and each topic's create before its delete.
func (r *rig) slowReceiver(t *testing.T) {
	r.hooks.delay.Store(int64(300 * time.Millisecond))
	defer r.hooks.delay.Store(0)
	sfx := "hooked-" + suffix()
	var wg sync.WaitGroup
	for w, p := range []*process{r.a, r.b, r.a, r.b} {
		wg.Go(func() {
			for i := range 8 {
				name := fmt.Sprintf("%s-%d-%d", sfx, w, i)
				if c := r.call(p, "POST", "/api/v1/scada/dev/topic", "carol", map[string]any{"name": name}); c.status != http.StatusCreated {
					t.Errorf("create %s: %d %s", name, c.status, c.body)
				}
				if d := r.call(p, "DELETE", "/api/v1/scada/dev/topic/"+name, "carol", nil); d.status != http.StatusNoContent {
					t.Errorf("delete %s: %d %s", name, d.status, d.body)
				}
			}
		})
	}
	wg.Wait()
	eventually(t, "64 events at the receiver", 90*time.Second, func() bool { return len(r.hooks.received(sfx)) >= 64 })
	got := r.hooks.received(sfx)
	seen := map[string]int{}
	last := map[string]string{}
	for _, e := range got {
		seen[e.ID]++
		if e.Data.Action == "topic.create" && last[e.Subject] != "" || e.Data.Action == "topic.delete" && last[e.Subject] != "topic.create" {
			t.Errorf("%s: %s after %q", e.Subject, e.Data.Action, last[e.Subject])
		}
		last[e.Subject] = e.Data.Action
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("event %s delivered %d times", id, n)
		}
	}
	if len(got) != 64 || len(seen) != 64 {
		t.Errorf("%d deliveries of %d events, want 64", len(got), len(seen))
	}
}
