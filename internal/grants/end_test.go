package grants_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/grant"
	"github.com/edh-platform/rms-portal/internal/portal/topic"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/servicetest"
)

// grantTo asks for and approves read access to topic (a prefix with
// prefix) for principal.
func grantTo(t *testing.T, w *servicetest.World, topic string, prefix bool, principal string) grant.TopicGrant {
	t.Helper()
	g, err := w.Grants.RequestGrant(crmAdmin, crmDev, grant.NewTopicGrant{Owner: "scada", Topic: topic, Prefix: prefix, Access: "read", Principal: principal, Reason: "reports"})
	if err != nil {
		t.Fatal(err)
	}
	if g, err = w.Grants.ApproveGrant(bob, scadaDev, g.ID, ""); err != nil {
		t.Fatal(err)
	}
	return g
}

// forced is an Admin's delete of a topic that other units' grants name.
var forced = portal.DeleteOptions{Confirm: "orders", Reason: "replaced by orders-v2"}

// TestADeleteEndsTheGrantsOnWhatItDeletes is the first seam in
// the services: deleting a topic ends every grant on it (an active one's
// bindings removed upstream, a request closed), each with its own audit
// event naming the delete, and the delete's event lists them; a grant on a
// prefix stays. The topic made again under the name gives the other unit
// nothing, and its impact shows no ended grant.
func TestADeleteEndsTheGrantsOnWhatItDeletes(t *testing.T) {
	w := servicetest.New(t, orders)
	reports := account(t, w, crmDev, crmAdmin, "reports", "metrics")
	before := bindings(t, w, reports)
	billing := account(t, w, crmDev, crmAdmin, "billing", "metrics")
	audit := account(t, w, crmDev, crmAdmin, "audit", "metrics")
	active := grantTo(t, w, "orders", false, reports)
	asked, err := w.Grants.RequestGrant(crmAdmin, crmDev, grant.NewTopicGrant{Owner: "scada", Topic: "orders", Access: "read", Principal: billing, Reason: "billing"})
	if err != nil {
		t.Fatal(err)
	}
	prefix := grantTo(t, w, "ord", true, audit)

	if err := w.Topics.Delete(bob, scadaDev, "orders", forced); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{active.ID, asked.ID} {
		g, _ := w.Grants.Grant(crmAdmin, crmDev, id)
		if g.State != grant.GrantEnded || g.DecidedBy != "bob" || !strings.Contains(g.Comment, "topic "+orders+" is deleted by bob") || len(g.Bindings) != 0 {
			t.Errorf("grant %s after its topic's delete: %+v", id, g)
		}
		ends := events(t, w, id, "grant.end")
		if len(ends) != 1 || ends[0].Outcome != "ok" || ends[0].Actor != "bob" || !strings.Contains(ends[0].Detail+changeText(ends[0]), "topic "+orders+" is deleted") {
			t.Errorf("grant %s's end in the trail: %+v", id, ends)
		}
	}
	if got := bindings(t, w, reports); !slices.Equal(got, before) {
		t.Errorf("the ended grant's bindings are still upstream: %v, want %v", got, before)
	}
	if g, _ := w.Grants.Grant(crmAdmin, crmDev, prefix.ID); g.State != grant.GrantActive {
		t.Errorf("a grant on a prefix ended with one of its topics: %+v", g)
	}
	deletes := events(t, w, orders, "topic.delete")
	if len(deletes) != 1 || deletes[0].Outcome != "ok" || !strings.Contains(changeText(deletes[0]), active.ID) || !strings.Contains(changeText(deletes[0]), asked.ID) {
		t.Errorf("the delete's event does not list the grants it ended: %+v", deletes)
	}

	// Made again under the name: the old grant is nowhere.
	if _, err := w.Topics.Create(bob, scadaDev, topic.NewTopic{Name: "orders"}); err != nil {
		t.Fatal(err)
	}
	im, err := w.Topics.Impact(bob, scadaDev, "orders")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range im.Dependants {
		if d.Name == active.ID || d.Name == asked.ID {
			t.Errorf("the new topic's impact shows an ended grant: %+v", d)
		}
	}
	page, err := w.Grants.Grants(crmAdmin, crmDev, grant.GrantQuery{State: grant.GrantActive, Topic: orders})
	if err != nil || len(page.Items) != 1 || page.Items[0].ID != prefix.ID {
		t.Errorf("the new topic's active grants: %+v %v", page.Items, err)
	}
	if page, _ := w.Grants.Grants(crmAdmin, crmDev, grant.GrantQuery{State: grant.GrantEnded}); len(page.Items) != 2 {
		t.Errorf("the ended grants listed: %+v", page.Items)
	}
}

// TestAGrantThatCannotEndStopsItsDelete: when the grant's bindings
// cannot be removed, nothing is deleted and the grant stays active with
// them, and the answer says why.
func TestAGrantThatCannotEndStopsItsDelete(t *testing.T) {
	w := servicetest.New(t, orders)
	reports := account(t, w, crmDev, crmAdmin, "reports", "metrics")
	g := grantTo(t, w, "orders", false, reports)
	env := w.Env("edh-shared", "dev")
	f := &failingIAM{IAM: env.IAM, deletes: true}
	env.IAM = f
	err := w.Topics.Delete(bob, scadaDev, "orders", forced)
	if !portal.Is(err, portal.UpstreamUnavailable) || !strings.Contains(err.Error(), g.ID) || !strings.Contains(err.Error(), "nothing was deleted") {
		t.Fatalf("a delete whose grant cannot end: %v", err)
	}
	if !w.Clusters["edh-shared/dev"].Has(orders) {
		t.Fatal("the topic was deleted although its grant still holds bindings")
	}
	if now, _ := w.Grants.Grant(bob, scadaDev, g.ID); now.State != grant.GrantActive || len(now.Bindings) != 2 {
		t.Fatalf("the grant after the refused delete: %+v", now)
	}
	if d := events(t, w, orders, "topic.delete"); len(d) != 1 || d[0].Outcome != string(portal.UpstreamUnavailable) {
		t.Errorf("the refused delete's event: %+v", d)
	}
	f.deletes = false
	if err := w.Topics.Delete(bob, scadaDev, "orders", forced); err != nil {
		t.Fatalf("the delete again: %v", err)
	}
	if now, _ := w.Grants.Grant(bob, scadaDev, g.ID); now.State != grant.GrantEnded {
		t.Errorf("the grant after the delete: %+v", now)
	}
}

// TestADeleteStoppedAfterItsGrantsIsFinished: a replica that stops while
// a delete ends its grants (after the grant is journalled ending, before
// its bindings are removed) leaves the grant ending, which nobody can
// approve or revoke meanwhile; any replica's Resume removes its bindings
// and records it ended, settling its one audit event.
func TestADeleteStoppedAfterItsGrantsIsFinished(t *testing.T) {
	w := servicetest.New(t, orders)
	reports := account(t, w, crmDev, crmAdmin, "reports", "metrics")
	before := bindings(t, w, reports)
	g := grantTo(t, w, "orders", false, reports)
	env := w.Env("edh-shared", "dev")
	real := env.IAM
	env.IAM = &stoppingIAM{IAM: real, beforeDelete: true}
	stopped(func() { _ = w.Topics.Delete(bob, scadaDev, "orders", forced) })
	env.IAM = real
	if now, _ := w.Grants.Grant(bob, scadaDev, g.ID); now.State != grant.GrantEnding {
		t.Fatalf("a delete stopped while it ended the grant: %+v", now)
	}
	if _, err := w.Grants.RevokeGrant(bob, scadaDev, g.ID, "now"); !portal.Is(err, portal.Conflict) {
		t.Errorf("revoking a grant that is ending: %v", err)
	}
	backdate(t, w, g.ID)
	if n, err := w.Grants.Resume(context.Background(), time.Minute); n != 1 || err != nil {
		t.Fatalf("resume: %d %v", n, err)
	}
	now, _ := w.Grants.Grant(bob, scadaDev, g.ID)
	if now.State != grant.GrantEnded || len(now.Bindings) != 0 {
		t.Errorf("after the resume: %+v", now)
	}
	if got := bindings(t, w, reports); !slices.Equal(got, before) {
		t.Errorf("left upstream: %v", got)
	}
	if ends := events(t, w, g.ID, "grant.end"); len(ends) != 1 || ends[0].Outcome != "ok" || !strings.Contains(ends[0].Detail, "finished by the portal") {
		t.Errorf("the end's trail: %+v", ends)
	}
	// The delete, asked again, deletes what is left: the topic.
	if err := w.Topics.Delete(bob, scadaDev, "orders", portal.DeleteOptions{}); err != nil {
		t.Fatalf("the delete asked again: %v", err)
	}
}

// changeText joins an event's changes.
func changeText(e trail.AuditEvent) string {
	var b strings.Builder
	for _, c := range e.Changes {
		b.WriteString(c.Field + "=" + c.Before + "->" + c.After + "; ")
	}
	return b.String()
}
