package topics_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/grant"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
	"github.com/edh-platform/rms-portal/internal/portal/topic"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/servicetest"
)

// TestDeleteShowsWhatItBreaks is the delete check in the
// services: a topic read by a live consumer group and granted to another
// unit lists both; a Developer's delete is refused with them in the
// error record, an Admin's needs the name and a reason; the forced delete
// is audited with its dependants.
func TestDeleteShowsWhatItBreaks(t *testing.T) {
	const orders = "edh-shared-scada-dev-orders"
	w := servicetest.New(t, orders)
	scada, crm := portal.Scope{BU: "scada", Stage: "dev"}, portal.Scope{BU: "crm", Stage: "dev"}
	dev, admin := servicetest.As("scada", portal.Developer), servicetest.As("scada", portal.Admin)
	crmAdmin := portal.WithPrincipal(context.Background(), portal.PrincipalWithRoles("hana", map[string]portal.Role{"crm": portal.Admin}))
	w.Clusters["edh-shared/dev"].AddGroup("edh-shared-crm-dev-billing", []string{"m1"}, map[platform.TopicPartition]int64{{Topic: orders, Partition: 0}: 40})
	acct, err := w.Accounts.Create(crmAdmin, crm, iam.NewServiceAccount{Name: "billing", Type: "consumer"})
	if err != nil {
		t.Fatal(err)
	}
	g, err := w.Grants.RequestGrant(crmAdmin, crm, grant.NewTopicGrant{Owner: "scada", Topic: "orders", Access: "read", Principal: acct.ID, Reason: "billing"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Grants.ApproveGrant(admin, scada, g.ID, ""); err != nil {
		t.Fatal(err)
	}
	im, err := w.Topics.Impact(dev, scada, "orders")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range im.Dependants {
		got = append(got, d.Kind+" "+d.Name+" "+d.Unit)
	}
	if want := []string{"consumer_group edh-shared-crm-dev-billing crm", "grant " + g.ID + " crm"}; !slices.Equal(got, want) || len(im.Live()) != 2 {
		t.Fatalf("impact: %v, want %v", got, want)
	}
	if d := im.Dependants[0].Detail; d != "1 member, 60 records behind" {
		t.Errorf("the group's detail: %q", d)
	}

	err = w.Topics.Delete(dev, scada, "orders", portal.DeleteOptions{Confirm: "orders", Reason: "cleanup"})
	ps := portal.Problems(err)
	if !portal.Is(err, portal.InsufficientRole) || len(ps) != 3 || ps[1].Field != "dependants" || !strings.Contains(ps[1].Message+ps[2].Message, g.ID) {
		t.Fatalf("a Developer's delete: %v", err)
	}
	for _, opt := range []portal.DeleteOptions{{}, {Confirm: "orders"}, {Reason: "cleanup"}, {Confirm: "order", Reason: "cleanup"}} {
		if err := w.Topics.Delete(admin, scada, "orders", opt); !portal.Is(err, portal.Conflict) || len(portal.Problems(err)) != 3 {
			t.Errorf("an Admin's delete with %+v: %v", opt, err)
		}
	}
	if !w.Clusters["edh-shared/dev"].Has(orders) {
		t.Fatal("a refused delete deleted the topic")
	}
	if err := w.Topics.Delete(admin, scada, "orders", portal.DeleteOptions{Confirm: "orders", Reason: "replaced by orders-v2"}); err != nil {
		t.Fatal(err)
	}
	var forced *trail.AuditEvent
	refusals := 0
	for _, e := range w.AuditEvents(t) {
		if e.Action == portal.ActTopicDelete && e.Outcome == "ok" {
			forced = &e
		} else if e.Action == portal.ActTopicDelete {
			refusals++
		}
	}
	if refusals != 5 || forced == nil {
		t.Fatalf("trail: %d refusals, forced %+v", refusals, forced)
	}
	var fields []string
	for _, c := range forced.Changes {
		fields = append(fields, c.Field+"="+c.After+c.Before)
	}
	if !slices.Contains(fields, "reason=replaced by orders-v2") || !slices.Contains(fields, "dependant=grant "+g.ID+" (crm)") {
		t.Errorf("the forced delete's event: %v", fields)
	}

	// A topic nothing reads is deleted by a Developer as before.
	if _, err := w.Topics.Create(dev, scada, topic.NewTopic{Name: "scratch"}); err != nil {
		t.Fatal(err)
	}
	if err := w.Topics.Delete(dev, scada, "scratch", portal.DeleteOptions{}); err != nil {
		t.Errorf("a delete without dependants: %v", err)
	}
}

// TestDeletingAPrincipalWithGrants: an account or pool other units gave
// access to lists the grants; its delete needs the Admin's name and
// reason, and ends the grants for it first, each with its own event.
func TestDeletingAPrincipalWithGrants(t *testing.T) {
	const orders = "edh-shared-scada-dev-orders"
	w := servicetest.New(t, orders)
	scada, crm := portal.Scope{BU: "scada", Stage: "dev"}, portal.Scope{BU: "crm", Stage: "dev"}
	bob := servicetest.As("scada", portal.Admin)
	hana := portal.WithPrincipal(context.Background(), portal.PrincipalWithRoles("hana", map[string]portal.Role{"crm": portal.Admin}))
	acct, err := w.Accounts.Create(hana, crm, iam.NewServiceAccount{Name: "billing", Type: "consumer"})
	if err != nil {
		t.Fatal(err)
	}
	g, err := w.Grants.RequestGrant(hana, crm, grant.NewTopicGrant{Owner: "scada", Topic: "orders", Access: "read", Principal: acct.ID, Reason: "billing"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Grants.ApproveGrant(bob, scada, g.ID, ""); err != nil {
		t.Fatal(err)
	}
	im, err := w.Accounts.Impact(hana, crm, acct.ID)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, d := range im.Dependants {
		kinds[d.Kind]++
	}
	if kinds["grant"] != 1 || kinds["role_binding"] < 2 || len(im.Live()) != 1 || im.Kind != "service_account" {
		t.Fatalf("impact: %+v", im)
	}
	if _, err := w.Accounts.Delete(hana, crm, acct.ID, portal.DeleteOptions{}); !portal.Is(err, portal.Conflict) || !strings.Contains(portal.Problems(err)[1].Message, g.ID) {
		t.Fatalf("a delete without name and reason: %v", err)
	}
	if _, err := w.Accounts.Delete(hana, crm, acct.ID, portal.DeleteOptions{Confirm: acct.Name, Reason: "billing moved"}); err != nil {
		t.Fatal(err)
	}
	closed, err := w.Grants.Grant(hana, crm, g.ID)
	if err != nil || closed.State != grant.GrantEnded || len(closed.Bindings) != 0 || !strings.Contains(closed.Comment, "is deleted by hana") {
		t.Fatalf("the account's grant after its delete: %+v %v", closed, err)
	}
	ends := 0
	for _, e := range w.AuditEvents(t) {
		if e.Action == portal.ActGrantEnd && e.Resource == g.ID && e.Outcome == "ok" {
			ends++
		}
	}
	if ends != 1 {
		t.Errorf("the grant's end in the trail: %d events", ends)
	}
}

// TestEveryKindSaysWhatItsDeleteBreaks: a subject names its topic and the
// groups reading it; a source connector the topic it writes and its
// readers; an account its key; a pool nothing live.
func TestEveryKindSaysWhatItsDeleteBreaks(t *testing.T) {
	w := servicetest.New(t)
	seeded := w.Seed(t, "scada", "dev")
	dev, admin := servicetest.As("scada", portal.Viewer), servicetest.As("scada", portal.Admin)
	scope := portal.Scope{BU: "scada", Stage: "dev"}
	list := func(im portal.Impact, err error) string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, d := range im.Dependants {
			out = append(out, fmt.Sprintf("%s %s live=%v", d.Kind, d.Name, d.Live))
		}
		return strings.Join(out, "; ")
	}
	if got, want := list(w.Schemas.Impact(dev, scope, seeded.Subject)), "topic "+seeded.Topic+" live=false; consumer_group "+seeded.Group+" live=false"; got != want {
		t.Errorf("subject: %s\nwant %s", got, want)
	}
	if got, want := list(w.Connectors.Impact(dev, scope, seeded.Connector)), "topic "+seeded.Topic+" live=false"; got != want {
		t.Errorf("connector: %s\nwant %s", got, want)
	}
	if got := list(w.Accounts.Impact(admin, scope, seeded.AccountID)); !strings.HasPrefix(got, "api_key "+seeded.KeyID+" live=true") {
		t.Errorf("account: %s", got)
	}
	if got := list(w.Pools.Impact(admin, scope, seeded.PoolID)); strings.Contains(got, "live=true") {
		t.Errorf("pool: %s", got)
	}
	if _, err := w.Schemas.Impact(dev, scope, "missing-value"); !portal.Is(err, portal.NotFound) {
		t.Errorf("a missing subject: %v", err)
	}
}
