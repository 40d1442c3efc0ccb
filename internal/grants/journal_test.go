package grants_test

import (
	"context"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/grant"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/servicetest"
)

// stoppingIAM stops the goroutine that calls it (as a killed replica
// stops) right after its first binding is made, or before its first
// delete: nothing after that step runs.
type stoppingIAM struct {
	platform.IAM
	afterCreate, beforeDelete bool
}

func (s *stoppingIAM) CreateRoleBinding(ctx context.Context, principal string, b iam.RoleBinding) (iam.RoleBinding, error) {
	made, err := s.IAM.CreateRoleBinding(ctx, principal, b)
	if s.afterCreate {
		runtime.Goexit()
	}
	return made, err
}

func (s *stoppingIAM) DeleteRoleBinding(ctx context.Context, id string) error {
	if s.beforeDelete {
		runtime.Goexit()
	}
	return s.IAM.DeleteRoleBinding(ctx, id)
}

// stopped runs f in a goroutine that the stoppingIAM may stop, and waits
// for its end.
func stopped(f func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	<-done
}

// TestAStoppedDecisionIsFinished: an approval whose replica stops after
// its first role binding leaves the grant approving (it cannot be
// rejected meanwhile, which left access nobody could revoke); Resume
// makes the rest, records it active and settles the approval's one
// audit event. A revoke stopped before its first delete is finished the
// same way, and nothing of the grant is left upstream.
func TestAStoppedDecisionIsFinished(t *testing.T) {
	w := servicetest.New(t, orders)
	reports := account(t, w, crmDev, crmAdmin, "reports", "metrics")
	before := bindings(t, w, reports)
	env := w.Env("edh-shared", "dev")
	real := env.IAM
	g, err := w.Grants.RequestGrant(crmAdmin, crmDev, grant.NewTopicGrant{Owner: "scada", Topic: "orders", Access: "read", Principal: reports, Reason: "r"})
	if err != nil {
		t.Fatal(err)
	}
	env.IAM = &stoppingIAM{IAM: real, afterCreate: true}
	stopped(func() { _, _ = w.Grants.ApproveGrant(bob, scadaDev, g.ID, "ok") })
	env.IAM = real
	if got := bindings(t, w, reports); len(got) != len(before)+1 {
		t.Fatalf("after the stop: %v", got)
	}
	now, _ := w.Grants.Grant(bob, scadaDev, g.ID)
	if now.State != grant.GrantApproving {
		t.Fatalf("a stopped approval: %+v", now)
	}
	if _, err := w.Grants.RejectGrant(bob, scadaDev, g.ID, "no"); !portal.Is(err, portal.Conflict) {
		t.Errorf("rejecting an approval under way: %v", err)
	}
	if _, err := w.Grants.WithdrawGrant(crmAdmin, crmDev, g.ID); !portal.Is(err, portal.Conflict) {
		t.Errorf("withdrawing an approval under way: %v", err)
	}
	bg := context.Background()
	if n, err := w.Grants.Resume(bg, time.Minute); n != 0 || err != nil {
		t.Errorf("resumed a fresh decision: %d %v", n, err)
	}
	backdate(t, w, g.ID)
	if n, err := w.Grants.Resume(bg, time.Minute); n != 1 || err != nil {
		t.Fatalf("resume: %d %v", n, err)
	}
	now, _ = w.Grants.Grant(bob, scadaDev, g.ID)
	if got := bindings(t, w, reports); now.State != grant.GrantActive || len(now.Bindings) != 2 || len(got) != len(before)+2 {
		t.Fatalf("after the resume: %+v, upstream %v", now, got)
	}
	approvals := events(t, w, g.ID, "grant.approve")
	if len(approvals) != 1 || approvals[0].Outcome != "ok" || !strings.Contains(approvals[0].Detail, "finished by the portal") || approvals[0].Actor != "bob" {
		t.Errorf("the approval's trail: %+v", approvals)
	}

	env.IAM = &stoppingIAM{IAM: real, beforeDelete: true}
	stopped(func() { _, _ = w.Grants.RevokeGrant(crmAdmin, crmDev, g.ID, "done") })
	env.IAM = real
	if now, _ := w.Grants.Grant(bob, scadaDev, g.ID); now.State != grant.GrantRevoking {
		t.Fatalf("a stopped revoke: %+v", now)
	}
	backdate(t, w, g.ID)
	if n, err := w.Grants.Resume(bg, time.Minute); n != 1 || err != nil {
		t.Fatalf("resume: %d %v", n, err)
	}
	if now, _ := w.Grants.Grant(bob, scadaDev, g.ID); now.State != grant.GrantRevoked {
		t.Errorf("after the resumed revoke: %+v", now)
	}
	if got := bindings(t, w, reports); !slices.Equal(got, before) {
		t.Errorf("left upstream: %v", got)
	}
	if revokes := events(t, w, g.ID, "grant.revoke"); len(revokes) != 1 || revokes[0].Outcome != "ok" {
		t.Errorf("the revoke's trail: %+v", revokes)
	}
	if n, _ := w.Grants.Resume(bg, time.Minute); n != 0 {
		t.Errorf("resumed again: %d", n)
	}
}

// backdate makes a grant's decision look older than a decision takes.
func backdate(t *testing.T, w *servicetest.World, id string) {
	t.Helper()
	r, err := w.Store.GrantRecord(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	r.Decided = r.Decided.Add(-2 * time.Minute)
	if ok, err := w.Store.UpdateGrant(context.Background(), r, r.State); !ok || err != nil {
		t.Fatal(ok, err)
	}
}

func events(t *testing.T, w *servicetest.World, resource, action string) []trail.AuditEvent {
	var out []trail.AuditEvent
	for _, e := range w.AuditEvents(t) {
		if e.Resource == resource && e.Action.String() == action {
			out = append(out, e)
		}
	}
	return out
}
