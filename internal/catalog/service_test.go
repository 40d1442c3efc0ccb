package catalog_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/schema"
	"github.com/edh-platform/rms-portal/internal/portal/topiccatalog"
	"github.com/edh-platform/rms-portal/internal/servicetest"
)

const (
	orders  = "edh-shared-scada-dev-orders"
	leads   = "edh-shared-crm-dev-leads"
	outside = "legacy-topic"
)

var (
	scadaDev = portal.Scope{BU: "scada", Stage: "dev"}
	crmDev   = portal.Scope{BU: "crm", Stage: "dev"}
)

func as(subject string, roles map[string]portal.Role) context.Context {
	return portal.WithPrincipal(context.Background(), portal.PrincipalWithRoles(subject, roles))
}

var (
	carol = as("carol", map[string]portal.Role{"scada": portal.Developer, "crm": portal.Viewer})
	dave  = as("dave", map[string]portal.Role{"scada": portal.Viewer})
	alice = as("alice", map[string]portal.Role{"crm": portal.Developer})
)

const orderSchema = `{"type":"record","name":"Order","fields":[{"name":"orderId","type":"string"},{"name":"customerEmail","type":"string"}]}`

// TestOwnersDescribeAndOthersFind is the first check in the
// services: scada's Developer describes and tags a topic, crm finds it by
// tag, by schema field and by text; other units and Viewers cannot edit
// it; bad input changes nothing; every edit is audited.
func TestOwnersDescribeAndOthersFind(t *testing.T) {
	w := servicetest.New(t, orders, leads, outside)
	if _, err := w.Schemas.Create(carol, scadaDev, schema.NewSchema{Topic: "orders", SubjectType: "value",
		SchemaDef: schema.SchemaDef{SchemaType: "AVRO", Schema: orderSchema}}); err != nil {
		t.Fatal(err)
	}
	e, err := w.Catalog.Describe(carol, scadaDev, "orders", portal.TopicMetadata{Description: "Orders as placed", Contact: "orders-team@example.com",
		Tags: []string{"Sales", "pii"}, Classification: "confidential"})
	if err != nil {
		t.Fatal(err)
	}
	if e.Topic != orders || e.Owner != "scada" || !slices.Equal(e.Tags, []string{"pii", "sales"}) || e.Classification != "confidential" || !e.Classified ||
		e.ValueSubject != orders+"-value" || !slices.Contains(e.Fields, "customeremail") || !e.Editable || e.MayAskWrite {
		t.Fatalf("described: %+v", e)
	}
	for _, c := range []struct {
		name string
		q    topiccatalog.CatalogQuery
		want []string
	}{
		{"everything of the zone, not outside the convention", topiccatalog.CatalogQuery{}, []string{leads, orders}},
		{"by tag", topiccatalog.CatalogQuery{Tag: "pii"}, []string{orders}},
		{"by schema field", topiccatalog.CatalogQuery{Field: "customerEmail"}, []string{orders}},
		{"by text", topiccatalog.CatalogQuery{ListQuery: portal.ListQuery{Search: "as placed"}}, []string{orders}},
		{"by owner contact", topiccatalog.CatalogQuery{Owner: "orders-team"}, []string{orders}},
		{"by owner unit", topiccatalog.CatalogQuery{Owner: "crm"}, []string{leads}},
		{"by classification (unclassified read as the default)", topiccatalog.CatalogQuery{Classification: "internal"}, []string{leads}},
	} {
		page, err := w.Catalog.Catalog(alice, crmDev, c.q)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var got []string
		for _, it := range page.Items {
			got = append(got, it.Topic)
			if it.Editable != (it.Owner == "crm") {
				t.Errorf("%s: crm's Developer may edit %s: %v", c.name, it.Topic, it.Editable)
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	if _, err := w.Catalog.Catalog(alice, crmDev, topiccatalog.CatalogQuery{Classification: "secret"}); !portal.Is(err, portal.InvalidParameter) {
		t.Errorf("an unknown classification: %v", err)
	}
	before := len(w.AuditEvents(t))
	// Who may not edit, and bad input.
	if _, err := w.Catalog.Describe(dave, scadaDev, "orders", portal.TopicMetadata{Description: "mine"}); !portal.Is(err, portal.InsufficientRole) {
		t.Errorf("a Viewer edits: %v", err)
	}
	if _, err := w.Catalog.Describe(alice, crmDev, orders, portal.TopicMetadata{Description: "mine"}); !portal.Is(err, portal.NotFound) {
		t.Errorf("another unit edits scada's topic: %v", err)
	}
	if _, err := w.Catalog.Describe(carol, scadaDev, "orders", portal.TopicMetadata{Tags: []string{"no spaces!"}, Classification: "secret"}); len(portal.Problems(err)) != 2 {
		t.Errorf("bad input: %v", err)
	}
	if _, err := w.Catalog.Describe(carol, scadaDev, "missing", portal.TopicMetadata{}); !portal.Is(err, portal.NotFound) {
		t.Errorf("a topic that does not exist: %v", err)
	}
	if got, _ := w.Catalog.Entry(alice, crmDev, orders); got.Description != "Orders as placed" || got.Classification != "confidential" {
		t.Errorf("a refused edit changed the entry: %+v", got)
	}
	events := w.AuditEvents(t)
	if len(events)-before != 4 {
		t.Errorf("refusals audited: %d events, want 4", len(events)-before)
	}
	var edits int
	for _, ev := range events {
		if ev.Action == portal.ActTopicDescribe && ev.Outcome == "ok" {
			edits++
		}
	}
	if edits != 1 {
		t.Errorf("edits audited: %d", edits)
	}
}

// TestEntryShowsWhoReads: an entry lists the groups that read the topic
// (by unit, with members and lag), from a few batched calls.
func TestEntryShowsWhoReads(t *testing.T) {
	w := servicetest.New(t, orders)
	cl := w.Clusters["edh-shared/dev"]
	// The cluster's partition 0 ends at 100.
	cl.AddGroup("edh-shared-crm-dev-billing", []string{"m1"}, map[platform.TopicPartition]int64{{Topic: orders, Partition: 0}: 80})
	cl.AddGroup("edh-shared-scada-dev-audit", nil, map[platform.TopicPartition]int64{{Topic: orders, Partition: 0}: 100})
	cl.AddGroup("edh-shared-crm-dev-other", nil, map[platform.TopicPartition]int64{{Topic: "x", Partition: 0}: 1})
	e, err := w.Catalog.Entry(alice, crmDev, orders)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range e.Readers {
		got = append(got, r.Unit+" "+r.Group)
		if r.Group == "edh-shared-crm-dev-billing" && (r.Members != 1 || r.Lag != 20) {
			t.Errorf("billing: %+v", r)
		}
	}
	if !slices.Equal(got, []string{"crm edh-shared-crm-dev-billing", "scada edh-shared-scada-dev-audit"}) {
		t.Errorf("readers: %v", got)
	}
	if _, err := w.Catalog.Entry(alice, crmDev, "edh-shared-scada-dev-nothing"); !portal.Is(err, portal.NotFound) {
		t.Errorf("a missing entry: %v", err)
	}
}

// TestAnEntryIsFoundByTheNameTheListShows: the list shows a topic by its
// name in its owner unit; that name finds the entry too (the caller's own
// unit's first, else the one unit that has it), and a name two units
// have is refused with both full names.
func TestAnEntryIsFoundByTheNameTheListShows(t *testing.T) {
	w := servicetest.New(t, orders, "edh-shared-crm-dev-ledger", "edh-shared-crm-dev-orders", "edh-shared-scada-dev-ledger", "edh-shared-scada-dev-meters")
	for _, c := range []struct {
		ctx        context.Context
		scope      portal.Scope
		name, want string
	}{
		{alice, crmDev, "orders", "edh-shared-crm-dev-orders"},
		{alice, crmDev, orders, orders},
		{alice, crmDev, "meters", "edh-shared-scada-dev-meters"},
	} {
		e, err := w.Catalog.Entry(c.ctx, c.scope, c.name)
		if err != nil || e.Topic != c.want {
			t.Errorf("%s from %s: %s %v, want %s", c.name, c.scope.BU, e.Topic, err, c.want)
		}
	}
	zoe := as("zoe", map[string]portal.Role{"platform": portal.Viewer})
	_, err := w.Catalog.Entry(zoe, portal.Scope{BU: "platform", Stage: "dev"}, "ledger")
	if !portal.Is(err, portal.NotFound) || !strings.Contains(err.Error(), "edh-shared-crm-dev-ledger") || !strings.Contains(err.Error(), "edh-shared-scada-dev-ledger") {
		t.Errorf("a name two units have: %v", err)
	}
}
