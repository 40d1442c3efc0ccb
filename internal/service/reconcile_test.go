package service_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/grant"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/service"
	"github.com/edh-platform/rms-portal/internal/servicetest"
	"github.com/edh-platform/rms-portal/internal/store"
)

// TestUnknownOutcomesAreSettledByLooking: attempts whose replica stopped
// before it knew their outcome are settled by looking at the upstream
// once they are older than ReconcileAfter: a topic that exists is a done
// create, one that does not a create never made; an account without all
// its type's bindings may still be getting them (looked at again, then
// published as unknown); what the upstream cannot tell is published as
// unknown. Each enters the outbox.
func TestUnknownOutcomesAreSettledByLooking(t *testing.T) {
	w := servicetest.New(t)
	ctx := context.Background()
	env, _ := w.Envs.Get("edh-shared", "dev")
	made := "edh-shared-scada-dev-reconciled-made"
	if err := env.Topics.CreateTopic(ctx, platform.TopicSpec{Name: made, Partitions: 1}); err != nil {
		t.Fatal(err)
	}
	half, err := env.IAM.CreateServiceAccount(ctx, "sa-edh-shared-scada-dev-usr-half-producer", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := env.IAM.CreateRoleBinding(ctx, "User:"+half.ID, iam.RoleBinding{Role: "Operator", Resource: iam.ResourceCluster}); err != nil {
		t.Fatal(err)
	}
	start, _ := w.Store.OutboxEnd(ctx)
	attempt := func(action, resource string) int64 {
		id, err := w.Store.AppendAudit(ctx, trail.AuditEvent{Time: time.Now(), Actor: "carol", LandingZone: "edh-shared", BU: "scada", Stage: "dev",
			Action: portal.ActionNamed(action), Resource: resource, Outcome: "unknown"})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	ids := map[string]int64{
		"made":    attempt("topic.create", made),
		"missing": attempt("topic.create", "edh-shared-scada-dev-reconciled-missing"),
		"half":    attempt("service-account.create", half.DisplayName),
		"produce": attempt("topic.produce", made),
	}
	r := service.NewReconciler(w.Envs, w.Store, 0)
	if n, err := r.Round(ctx); err != nil || n != 0 {
		t.Fatalf("a round before ReconcileAfter settled %d: %v", n, err)
	}
	service.SetReconcilerClock(r, func() time.Time { return time.Now().Add(service.ReconcileAfter + time.Second) })
	if n, err := r.Round(ctx); err != nil || n != 3 {
		t.Fatalf("a round settled %d: %v", n, err)
	}
	// An account without all its bindings may still be getting them
	// from its job: looked at again, published as unknown only when far
	// older than the bound.
	service.SetReconcilerClock(r, func() time.Time { return time.Now().Add(5*service.ReconcileAfter + time.Second) })
	if n, err := r.Round(ctx); err != nil || n != 1 {
		t.Fatalf("a later round settled %d: %v", n, err)
	}
	out, err := w.Store.OutboxAfter(ctx, start, 10)
	if err != nil {
		t.Fatal(err)
	}
	got := map[int64]string{}
	for _, x := range out {
		got[x.Event.ID] = x.Event.Outcome
	}
	want := map[string]string{"made": "ok", "missing": string(portal.UpstreamUnavailable), "half": "unknown", "produce": "unknown"}
	for k, id := range ids {
		if got[id] != want[k] {
			t.Errorf("%s: %q in the outbox, want %q", k, got[id], want[k])
		}
	}
	if left, _ := w.Store.UnknownAttempts(ctx, time.Now().Add(time.Hour), store.Gone{}, 10); len(left) != 0 {
		t.Errorf("still waiting: %+v", left)
	}
}

// TestDecisionsAreSettledByTheirRecords: an approval whose outcome nobody
// wrote is told by the grant's or request's state: under way, it is
// waited for (its resume settles it); active or applied, it was done;
// back to requested, it was not.
func TestDecisionsAreSettledByTheirRecords(t *testing.T) {
	w := servicetest.New(t)
	ctx := context.Background()
	now := time.Now()
	seed := func(id, state string) {
		if err := w.Store.CreateGrantRecord(ctx, store.GrantRecord{ID: id, Zone: "edh-shared", Stage: "dev", Owner: "scada", Grantee: "crm",
			Principal: "sa-x", Pattern: "edh-shared-scada-dev-t", Access: "read", State: state, Created: now}); err != nil {
			t.Fatal(err)
		}
	}
	seed("gr-active", grant.GrantActive)
	seed("gr-approving", grant.GrantApproving)
	seed("gr-back", grant.GrantRequested)
	start, _ := w.Store.OutboxEnd(ctx)
	ids := map[string]int64{}
	for _, g := range []string{"gr-active", "gr-approving", "gr-back", "gr-gone"} {
		id, err := w.Store.AppendAudit(ctx, trail.AuditEvent{Time: now, Actor: "bob", LandingZone: "edh-shared", BU: "scada", Stage: "dev",
			Action: portal.ActGrantApprove, Resource: g, Outcome: "unknown"})
		if err != nil {
			t.Fatal(err)
		}
		ids[g] = id
	}
	r := service.NewReconciler(w.Envs, w.Store, 0)
	service.SetReconcilerClock(r, func() time.Time { return time.Now().Add(service.ReconcileAfter + time.Second) })
	if n, err := r.Round(ctx); err != nil || n != 3 {
		t.Fatalf("a round settled %d: %v", n, err)
	}
	out, _ := w.Store.OutboxAfter(ctx, start, 10)
	got := map[int64]string{}
	for _, x := range out {
		got[x.Event.ID] = x.Event.Outcome
	}
	want := map[string]string{"gr-active": "ok", "gr-back": string(portal.UpstreamUnavailable), "gr-gone": string(portal.UpstreamUnavailable), "gr-approving": ""}
	for g, id := range ids {
		if got[id] != want[g] {
			t.Errorf("%s: %q in the outbox, want %q", g, got[id], want[g])
		}
	}
}

// TestAStoppedReplicasUnknownsAreSettledAtOnce is the fifth seam
// in the service: an attempt left unknown by a replica that said it
// stopped, or whose heartbeat is stale, is settled by looking at the
// next round, well before ReconcileAfter; one of a replica still seen is
// left to it.
func TestAStoppedReplicasUnknownsAreSettledAtOnce(t *testing.T) {
	w := servicetest.New(t)
	ctx := context.Background()
	env, _ := w.Envs.Get("edh-shared", "dev")
	sfx := time.Now().Format("150405.000000")
	made := "edh-shared-scada-dev-stopped-" + strings.ReplaceAll(sfx, ".", "-")
	if err := env.Topics.CreateTopic(ctx, platform.TopicSpec{Name: made, Partitions: 1}); err != nil {
		t.Fatal(err)
	}
	begun := time.Now().Add(-10 * time.Second)
	attempt := func(replica string) int64 {
		id, err := w.Store.AppendAudit(ctx, trail.AuditEvent{Time: begun, Actor: "carol", LandingZone: "edh-shared", BU: "scada", Stage: "dev",
			Action: portal.ActTopicCreate, Resource: made, Outcome: "unknown", Replica: replica})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	for _, r := range []string{"a-" + sfx, "b-" + sfx, "c-" + sfx} {
		if err := w.Store.ReplicaAlive(ctx, r, begun.Add(-time.Second), begun); err != nil {
			t.Fatal(err)
		}
	}
	stopped, killed, alive := attempt("a-"+sfx), attempt("b-"+sfx), attempt("c-"+sfx)
	if err := w.Store.ReplicaStopped(ctx, "a-"+sfx, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := w.Store.ReplicaAlive(ctx, "c-"+sfx, time.Now(), time.Now().Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	r := service.NewReconciler(w.Envs, w.Store, 0).SettleStopped()
	if n, err := r.Round(ctx); err != nil || n != 2 {
		t.Fatalf("a round settled %d, want the stopped and the killed replica's: %v", n, err)
	}
	left, _ := w.Store.UnknownAttempts(ctx, time.Now().Add(time.Hour), store.Gone{}, 10)
	if len(left) != 1 || left[0].ID != alive {
		t.Errorf("still unknown: %+v, want only %d (its replica runs)", left, alive)
	}
	for _, id := range []int64{stopped, killed} {
		es, _ := w.Store.ListAudit(ctx, store.AuditFilter{Resource: made})
		for _, e := range es {
			if e.ID == id && e.Outcome != "ok" {
				t.Errorf("attempt %d settled %q, want ok (the topic is there)", id, e.Outcome)
			}
		}
	}
}
