package plans_test

import (
	"context"
	"runtime"
	"strings"
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

// stopApply applies doc and stops the apply right after its topics are
// made.
func stopApply(t *testing.T, w *servicetest.World, ctx context.Context, doc ascode.Document) {
	t.Helper()
	dev := portal.Scope{BU: "scada", Stage: "dev"}
	plan, err := w.Plans.Plan(ctx, dev, doc)
	if err != nil {
		t.Fatal(err)
	}
	env := w.Env("edh-shared", "dev")
	real := env.Topics
	env.Topics = stoppingTopics{real}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = w.Plans.Apply(ctx, dev, doc, plan.Fingerprint)
	}()
	<-done
	env.Topics = real
}

// TestAStoppedApplyIsFinished: an apply whose replica stops after its
// topic, before its schema, leaves its journal applying; Resume (on any
// replica) applies the rest of the journaled plan, records each change's
// outcome and settles the apply's one audit event.
func TestAStoppedApplyIsFinished(t *testing.T) {
	w := servicetest.New(t)
	ctx := servicetest.As("scada", portal.Developer)
	dev := portal.Scope{BU: "scada", Stage: "dev"}
	doc := unitDoc("86400000")
	doc.Resources = doc.Resources[1:] // the schema and the topic
	stopApply(t, w, ctx, doc)
	bg := context.Background()
	journals, err := w.Store.AppliesInState(bg, changerequest.RequestApplying, 10)
	if err != nil || len(journals) != 1 || journals[0].Actor != "tester" {
		t.Fatalf("journals after the stop: %+v %v", journals, err)
	}
	if n, err := w.Plans.Resume(bg, time.Minute); n != 0 || err != nil {
		t.Errorf("resumed a fresh apply: %d %v", n, err)
	}
	if n, err := w.Plans.Resume(bg, 0); n != 1 || err != nil {
		t.Fatalf("resume: %d %v", n, err)
	}
	j, _ := w.Store.ApplyRecord(bg, journals[0].ID)
	if j.State != changerequest.RequestApplied || !strings.Contains(string(j.Result), `"Outcome":"applied"`) {
		t.Errorf("the journal: %s %s", j.State, j.Result)
	}
	again, err := w.Plans.Plan(ctx, dev, doc)
	if err != nil || again.HasChanges() {
		t.Errorf("left to do after the resume:\n%s", changes(again))
	}
	var applies []trail.AuditEvent
	for _, e := range w.AuditEvents(t) {
		if e.Action == portal.ActResourcesApply && e.Actor == "tester" {
			applies = append(applies, e)
		}
	}
	if len(applies) != 1 || applies[0].Outcome != "ok" || !strings.Contains(applies[0].Detail, "finished by the portal") {
		t.Errorf("the apply's trail: %+v", applies)
	}
	if n, _ := w.Plans.Resume(bg, 0); n != 0 {
		t.Errorf("resumed again: %d", n)
	}
}

// TestAJournalKeepsNoSecret: the journal of an apply with a connector's
// secrets keeps none of them; stopped before the connector was made, the
// apply is not finished by the portal (it has not the secrets) but
// recorded partly applied, saying to apply the document again.
func TestAJournalKeepsNoSecret(t *testing.T) {
	w := servicetest.New(t)
	ctx := servicetest.As("scada", portal.Developer)
	stopApply(t, w, ctx, unitDoc("86400000"))
	bg := context.Background()
	journals, _ := w.Store.AppliesInState(bg, changerequest.RequestApplying, 10)
	if len(journals) != 1 {
		t.Fatalf("journals: %d", len(journals))
	}
	if doc := string(journals[0].Document) + string(journals[0].Plan); strings.Contains(doc, "SECRET") || strings.Contains(doc, `"KEY"`) {
		t.Fatalf("the journal keeps a secret: %s", doc)
	}
	if n, err := w.Plans.Resume(bg, 0); n != 1 || err != nil {
		t.Fatalf("resume: %d %v", n, err)
	}
	j, _ := w.Store.ApplyRecord(bg, journals[0].ID)
	if j.State != changerequest.RequestPartlyApplied || !strings.Contains(string(j.Result), "apply the document again") {
		t.Errorf("the journal: %s %s", j.State, j.Result)
	}
	for _, e := range w.AuditEvents(t) {
		if e.Action == portal.ActResourcesApply && e.Actor == "tester" && e.Outcome != string(portal.Conflict) {
			t.Errorf("the apply's event: %+v", e)
		}
	}
}
