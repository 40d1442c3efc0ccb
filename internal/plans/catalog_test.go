package plans_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/ascode"
	"github.com/edh-platform/rms-portal/internal/servicetest"
)

// TestTopicDocumentsDeclareTheirCatalogEntry: a Topic document's
// description, owner, tags and classification are planned field by
// field, applied (with the topic, or alone), exported, and unchanged
// once in place; bad ones refuse the change.
func TestTopicDocumentsDeclareTheirCatalogEntry(t *testing.T) {
	w := servicetest.New(t)
	dev := servicetest.As("scada", portal.Developer)
	scope := portal.Scope{BU: "scada", Stage: "dev"}
	meta := &portal.TopicMetadata{Description: "Orders as placed", Contact: "orders-team", Tags: []string{"sales", "pii"}, Classification: "confidential"}
	doc := ascode.Document{Resources: []portal.Resource{{Kind: portal.KindTopic, Name: "described", Spec: &portal.TopicDecl{Partitions: intp(2), Catalog: meta}}}}
	plan, err := w.Plans.Plan(dev, scope, doc)
	if err != nil {
		t.Fatal(err)
	}
	var fields []string
	for _, d := range plan.Changes[0].Diff {
		fields = append(fields, d.Field)
	}
	if plan.Changes[0].Action != ascode.ActionCreate || !slices.Equal(fields, []string{"partitions", "description", "owner", "tags", "classification"}) {
		t.Fatalf("plan: %s %v", changes(plan), fields)
	}
	if _, err := w.Plans.Apply(dev, scope, doc, plan.Fingerprint); err != nil {
		t.Fatal(err)
	}
	e, err := w.Catalog.Entry(dev, scope, "edh-shared-scada-dev-described")
	if err != nil || e.Description != "Orders as placed" || e.Classification != "confidential" || !slices.Equal(e.Tags, []string{"pii", "sales"}) {
		t.Fatalf("entry after apply: %+v %v", e, err)
	}
	if again, err := w.Plans.Plan(dev, scope, doc); err != nil || again.HasChanges() {
		t.Fatalf("plan again: %s %v", changes(again), err)
	}
	// The entry alone changes: the cluster is not asked.
	meta.Tags = []string{"sales"}
	plan, err = w.Plans.Plan(dev, scope, doc)
	if err != nil || plan.Changes[0].Action != ascode.ActionUpdate || len(plan.Changes[0].Diff) != 1 || plan.Changes[0].Diff[0].Field != "tags" {
		t.Fatalf("tags only: %s %v", changes(plan), err)
	}
	if _, err := w.Plans.Apply(dev, scope, doc, plan.Fingerprint); err != nil {
		t.Fatal(err)
	}
	exported, err := w.Plans.Export(dev, scope)
	if err != nil {
		t.Fatal(err)
	}
	var got *portal.TopicMetadata
	for _, r := range exported.Resources {
		if r.Kind == portal.KindTopic && r.Name == "described" {
			got = portal.DeclOf[portal.TopicDecl](r).Catalog
		}
	}
	if got == nil || !slices.Equal(got.Tags, []string{"sales"}) || got.Contact != "orders-team" {
		t.Fatalf("export: %+v", got)
	}
	meta.Classification = "secret"
	plan, err = w.Plans.Plan(dev, scope, doc)
	if err != nil || plan.Changes[0].Action != ascode.ActionRefused || !strings.Contains(changes(plan), "classification") {
		t.Fatalf("a bad classification: %s %v", changes(plan), err)
	}
}

// TestPruneCountsNoDependantItDeletesItself: a connector deleted by the
// same plan does not hold up its topic's delete.
func TestPruneCountsNoDependantItDeletesItself(t *testing.T) {
	w := servicetest.New(t)
	admin := servicetest.As("scada", portal.Admin)
	scope := portal.Scope{BU: "scada", Stage: "dev"}
	seeded := w.Seed(t, "scada", "dev")
	if err := w.Groups.Delete(admin, scope, seeded.Group); err != nil {
		t.Fatal(err)
	}
	doc := unitDoc("86400000")
	doc.Prune = true
	plan, err := w.Plans.Plan(admin, scope, doc)
	if err != nil {
		t.Fatal(err)
	}
	got := changes(plan)
	if !strings.Contains(got, "delete topic "+seeded.Topic) || !strings.Contains(got, "delete connector "+seeded.Connector) || strings.Contains(got, "refused") {
		t.Fatalf("prune:\n%s", got)
	}
	if _, err := w.Plans.Apply(admin, scope, doc, plan.Fingerprint); err != nil {
		t.Fatal(err)
	}
}

// TestEveryDocumentKindIsPlanned: the wired plans cover every kind that
// documents declare, in the kinds' declared order.
func TestEveryDocumentKindIsPlanned(t *testing.T) {
	w := servicetest.New(t)
	if got, want := w.Plans.Kinds(), portal.ResourceKinds(); !slices.Equal(got, want) {
		t.Errorf("plans cover %v, the kinds are %v", got, want)
	}
}
