package changerequests_test

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/ascode"
	"github.com/edh-platform/rms-portal/internal/portal/changerequest"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/servicetest"
)

// stoppingTopics stops the goroutine that calls it (as a killed replica
// stops) right after it made a batch of topics.
type stoppingTopics struct{ platform.Topics }

func (s stoppingTopics) CreateTopics(ctx context.Context, specs []platform.TopicSpec) ([]error, error) {
	_, _ = s.Topics.CreateTopics(ctx, specs)
	runtime.Goexit()
	return nil, nil
}

// stopApply approves a request of three new topics and one change of an
// existing topic's settings, and stops the approval after the topics
// are made, before the change.
func stopApply(t *testing.T) (*servicetest.World, changerequest.ChangeRequest) {
	t.Helper()
	w := servicetest.New(t, "edh-shared-scada-dev-orders")
	dev := portal.Scope{BU: "scada", Stage: "dev"}
	two := 2
	doc := ascode.Document{Resources: []portal.Resource{
		{Kind: portal.KindTopic, Name: "orders", Spec: &portal.TopicDecl{Partitions: &two, Config: map[string]string{"retention.ms": "3600000"}}}}}
	for _, n := range []string{"a", "b", "c"} {
		doc.Resources = append(doc.Resources, portal.Resource{Kind: portal.KindTopic, Name: "new-" + n, Spec: &portal.TopicDecl{Partitions: &two}})
	}
	r, err := w.Requests.Request(as("carol", "scada", portal.Developer), dev, doc, "four topics")
	if err != nil {
		t.Fatal(err)
	}
	env := w.Env("edh-shared", "dev")
	real := env.Topics
	env.Topics = stoppingTopics{real}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = w.Requests.Approve(as("bob", "scada", portal.Admin), dev, r.ID, "fine")
	}()
	<-done
	env.Topics = real
	got, _ := w.Requests.ChangeRequest(as("bob", "scada", portal.Admin), dev, r.ID)
	if got.State != changerequest.RequestApplying {
		t.Fatalf("a stopped apply: %s", got.State)
	}
	if _, err := w.Requests.Approve(as("dave", "scada", portal.Admin), dev, r.ID, ""); !portal.Is(err, portal.Conflict) {
		t.Errorf("approving an apply under way: %v", err)
	}
	return w, got
}

// backdate makes a request's approval look older than an apply takes.
func backdate(t *testing.T, w *servicetest.World, id string) {
	t.Helper()
	r, err := w.Store.RequestRecord(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	r.Decided = r.Decided.Add(-2 * time.Minute)
	if ok, err := w.Store.DecideRequest(context.Background(), r, r.State); !ok || err != nil {
		t.Fatal(ok, err)
	}
}

// TestAStoppedApplyIsFinished: a request whose apply stopped part way
// says applying (and cannot be approved again); Resume applies what is
// left of the approved plan and records it applied, each change's
// outcome kept, the approval's one audit event settled.
func TestAStoppedApplyIsFinished(t *testing.T) {
	w, r := stopApply(t)
	bg := context.Background()
	if n, _ := w.Requests.Resume(bg, time.Minute); n != 0 {
		t.Errorf("resumed a fresh apply: %d", n)
	}
	backdate(t, w, r.ID)
	if n, err := w.Requests.Resume(bg, time.Minute); n != 1 || err != nil {
		t.Fatalf("resume: %d %v", n, err)
	}
	dev := portal.Scope{BU: "scada", Stage: "dev"}
	got, _ := w.Requests.ChangeRequest(as("bob", "scada", portal.Admin), dev, r.ID)
	if got.State != changerequest.RequestApplied || got.Result == nil || len(got.Result.Changes) != 4 {
		t.Fatalf("after the resume: %s %+v", got.State, got.Result)
	}
	for _, c := range got.Result.Changes {
		if c.Outcome != ascode.OutcomeApplied {
			t.Errorf("%s %s: %s", c.Action, c.Name, c.Outcome)
		}
	}
	d, err := w.Env("edh-shared", "dev").Topics.DescribeTopic(bg, "edh-shared-scada-dev-orders")
	if err != nil {
		t.Fatal(err)
	}
	retention := ""
	for _, c := range d.Config {
		if c.Name == "retention.ms" {
			retention = c.Value
		}
	}
	if retention != "3600000" {
		t.Errorf("the change left after the stop: retention.ms=%q", retention)
	}
	var approvals []trail.AuditEvent
	for _, e := range w.AuditEvents(t) {
		if e.Action == portal.ActChangeRequestApprove && e.Resource == r.ID && e.Actor == "bob" {
			approvals = append(approvals, e)
		}
	}
	if len(approvals) != 1 || approvals[0].Outcome != "ok" || approvals[0].Actor != "bob" {
		t.Errorf("the approval's trail: %+v", approvals)
	}
}

// TestAStoppedApplyOvertakenSaysWhatExists: when the unit's resources
// changed since the stop in a way the approved plan did not hold, the
// rest is not applied: the request is partly applied, saying which
// changes were made and which were not.
func TestAStoppedApplyOvertakenSaysWhatExists(t *testing.T) {
	w, r := stopApply(t)
	bg := context.Background()
	// Someone deletes the topic the request was to change, outside it:
	// it would now be created, which nobody approved.
	if err := w.Env("edh-shared", "dev").Topics.DeleteTopic(bg, "edh-shared-scada-dev-orders"); err != nil {
		t.Fatal(err)
	}
	backdate(t, w, r.ID)
	if n, err := w.Requests.Resume(bg, time.Minute); n != 1 || err != nil {
		t.Fatalf("resume: %d %v", n, err)
	}
	got, _ := w.Requests.ChangeRequest(as("bob", "scada", portal.Admin), portal.Scope{BU: "scada", Stage: "dev"}, r.ID)
	if got.State != changerequest.RequestPartlyApplied || got.Result == nil {
		t.Fatalf("after the resume: %s", got.State)
	}
	outcomes := map[string]string{}
	for _, c := range got.Result.Changes {
		outcomes[c.Name] = c.Outcome
	}
	if outcomes["edh-shared-scada-dev-new-a"] != ascode.OutcomeApplied || outcomes["edh-shared-scada-dev-orders"] != ascode.OutcomeSkipped {
		t.Errorf("outcomes: %v", outcomes)
	}
	if recs, _ := w.Store.RequestsInState(bg, changerequest.RequestApplying, 10); len(recs) != 0 {
		t.Errorf("still applying: %d", len(recs))
	}
}
