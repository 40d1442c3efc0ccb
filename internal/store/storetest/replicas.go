package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/store"
)

// testReplicas: an attempt is left to its replica while that replica is
// believed alive, and listed for settling as soon as the replica said it
// stopped or its heartbeat went stale; an attempt begun after gone.Begun
// is not (it may still be under way), nor one of no replica before
// before; forgotten replicas leave their attempts to before. A lease of
// a replica known stopped is taken over before it lapses; one of a
// replica believed alive is not.
func testReplicas(t *testing.T, s store.Store) {
	ctx := context.Background()
	now := base.Add(time.Hour)
	for _, r := range []string{"r-live", "r-killed", "r-stopped"} {
		if err := s.ReplicaAlive(ctx, r, now.Add(-time.Minute), now.Add(-30*time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.ReplicaAlive(ctx, "r-live", now, now.Add(30*time.Second)); err != nil {
		t.Fatal(err)
	}
	if err := s.ReplicaStopped(ctx, "r-stopped", now); err != nil {
		t.Fatal(err)
	}
	ids := map[string]int64{}
	for _, a := range []struct{ name, replica string }{{"live", "r-live"}, {"killed", "r-killed"}, {"stopped", "r-stopped"}, {"none", ""}, {"fresh", "r-killed"}} {
		at := now.Add(-30 * time.Second)
		if a.name == "fresh" {
			at = now
		}
		id, err := s.AppendAudit(ctx, trail.AuditEvent{Time: at, Actor: "carol", Action: portal.ActTopicConfig, Outcome: "unknown", Resource: "t-" + a.name, Replica: a.replica})
		if err != nil {
			t.Fatal(err)
		}
		ids[a.name] = id
	}
	listed := func(before time.Time, gone store.Gone) map[string]bool {
		t.Helper()
		got, err := s.UnknownAttempts(ctx, before, gone, 100)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		for _, e := range got {
			for name, id := range ids {
				if e.ID == id {
					out[name] = true
				}
			}
		}
		return out
	}
	gone := store.Gone{At: now, Begun: now.Add(-10 * time.Second)}
	if got := listed(now.Add(-time.Hour), gone); len(got) != 2 || !got["killed"] || !got["stopped"] {
		t.Errorf("attempts of replicas known stopped: %v, want killed and stopped", got)
	}
	if got := listed(now.Add(-time.Hour), store.Gone{}); len(got) != 0 {
		t.Errorf("attempts listed without a stopped replica or age: %v", got)
	}
	if got := listed(now.Add(time.Second), store.Gone{}); len(got) != 5 {
		t.Errorf("attempts older than before: %v, want all five", got)
	}
	for _, l := range []struct {
		holder string
		taken  bool
	}{{"r-live", false}, {"r-killed", true}, {"r-stopped", true}} {
		name := "replicas-" + l.holder
		if ok, err := s.AcquireLease(ctx, name, l.holder, now.Add(time.Hour), now.Add(-time.Hour)); err != nil || !ok {
			t.Fatalf("%s's lease: %v %v", l.holder, ok, err)
		}
		if ok, err := s.AcquireLease(ctx, name, "r-other", now.Add(time.Hour), now); err != nil || ok != l.taken {
			t.Errorf("another replica takes %s's running lease: %v (want %v) %v", l.holder, ok, l.taken, err)
		}
	}
	if n, err := s.DeleteReplicasBefore(ctx, now.Add(-time.Second)); err != nil || n != 1 {
		t.Fatalf("forgetting replicas not seen: %d %v", n, err)
	}
	if got := listed(now.Add(-time.Hour), gone); len(got) != 1 || !got["stopped"] {
		t.Errorf("after the killed replica was forgotten: %v, want stopped", got)
	}
}

// testGrantsNaming: the grants a delete ends are the open ones of the
// zone and stage on exactly the topic, or for the principal.
func testGrantsNaming(t *testing.T, s store.Store) {
	ctx := context.Background()
	mk := func(id, pattern, principal, state string, prefix bool, i int) store.GrantRecord {
		return store.GrantRecord{ID: id, Zone: "edh-shared", Stage: "dev", Owner: "scada", Grantee: "crm", Principal: principal, PrincipalName: "sa-x",
			Pattern: pattern, Prefixed: prefix, Access: "read", State: state, Requester: "erin", Created: base.Add(time.Duration(i) * time.Minute)}
	}
	for i, g := range []store.GrantRecord{
		mk("gr-a", "t-orders", "sa-1", "active", false, 0), mk("gr-b", "t-orders", "sa-2", "requested", false, 1),
		mk("gr-c", "t-orders", "sa-3", "active", true, 2), mk("gr-d", "t-orders", "sa-4", "revoked", false, 3),
		mk("gr-e", "t-other", "sa-1", "ending", false, 4), mk("gr-f", "t-orders-x", "sa-5", "active", false, 5),
	} {
		if err := s.CreateGrantRecord(ctx, g); err != nil {
			t.Fatal(i, err)
		}
	}
	names := func(gs []store.GrantRecord, err error) []string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, g := range gs {
			out = append(out, g.ID)
		}
		return out
	}
	if got := names(s.GrantsNaming(ctx, "edh-shared", "dev", "t-orders", "", 10)); len(got) != 2 || got[0] != "gr-a" || got[1] != "gr-b" {
		t.Errorf("grants on the topic: %v", got)
	}
	if got := names(s.GrantsNaming(ctx, "edh-shared", "dev", "", "sa-1", 10)); len(got) != 2 || got[0] != "gr-a" || got[1] != "gr-e" {
		t.Errorf("grants for the principal: %v", got)
	}
	if got := names(s.GrantsNaming(ctx, "edh-shared", "qas", "t-orders", "sa-1", 10)); len(got) != 0 {
		t.Errorf("another stage's grants: %v", got)
	}
	if got := names(s.GrantsNaming(ctx, "edh-shared", "dev", "", "", 10)); len(got) != 0 {
		t.Errorf("grants naming nothing: %v", got)
	}
}
