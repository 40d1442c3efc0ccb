package grants_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/ascode"
	"github.com/edh-platform/rms-portal/internal/portal/grant"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
	"github.com/edh-platform/rms-portal/internal/servicetest"
)

const orders = "edh-shared-scada-dev-orders"

func as(subject string, roles map[string]portal.Role) context.Context {
	return portal.WithPrincipal(context.Background(), portal.PrincipalWithRoles(subject, roles))
}

var (
	crmDev   = portal.Scope{BU: "crm", Stage: "dev"}
	scadaDev = portal.Scope{BU: "scada", Stage: "dev"}
	crmAdmin = as("hana", map[string]portal.Role{"crm": portal.Admin})
	bob      = as("bob", map[string]portal.Role{"scada": portal.Admin})
	dave     = as("dave", map[string]portal.Role{"scada": portal.Viewer})
)

// bindings lists a principal's role bindings upstream as "Role resource=pattern".
func bindings(t *testing.T, w *servicetest.World, id string) []string {
	t.Helper()
	bs, err := w.Env("edh-shared", "dev").IAM.RoleBindings(context.Background(), "User:"+id)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, b := range bs {
		out = append(out, b.Role+" "+b.Resource+"="+b.Pattern)
	}
	slices.Sort(out)
	return out
}

func account(t *testing.T, w *servicetest.World, scope portal.Scope, ctx context.Context, name, typ string) string {
	t.Helper()
	a, err := w.Accounts.Create(ctx, scope, iam.NewServiceAccount{Name: name, Type: typ})
	if err != nil {
		t.Fatal(err)
	}
	return a.ID
}

// TestGrantJourney is the check in the services: crm's Admin asks
// for read on a scada topic for a crm account, scada's Admin approves, the
// role bindings exist upstream, revoking removes them; every step is
// audited.
func TestGrantJourney(t *testing.T) {
	w := servicetest.New(t, orders)
	reports := account(t, w, crmDev, crmAdmin, "reports", "metrics")
	before := bindings(t, w, reports)

	g, err := w.Grants.RequestGrant(crmAdmin, crmDev, grant.NewTopicGrant{Owner: "scada", Topic: "orders", Access: "read", Principal: reports, Reason: "monthly reports"})
	if err != nil {
		t.Fatal(err)
	}
	if g.State != grant.GrantRequested || g.Topic != orders || g.Owner != "scada" || g.Grantee != "crm" || g.Reviewable || !g.Withdrawable {
		t.Fatalf("request: %+v", g)
	}
	if got := bindings(t, w, reports); !slices.Equal(got, before) {
		t.Fatalf("a request made bindings: %v", got)
	}
	// Both sides list it; the owner's Admins find it waiting.
	for _, c := range []struct {
		ctx   context.Context
		scope portal.Scope
	}{{crmAdmin, crmDev}, {bob, scadaDev}, {dave, scadaDev}} {
		page, err := w.Grants.Grants(c.ctx, c.scope, grant.GrantQuery{})
		if err != nil || len(page.Items) != 1 || page.Items[0].ID != g.ID {
			t.Fatalf("%s lists: %+v %v", c.scope, page, err)
		}
	}
	if waiting, _ := w.Grants.WaitingGrants(bob); len(waiting) != 1 || waiting[0].ID != g.ID {
		t.Fatalf("bob's waiting grants: %+v", waiting)
	}
	if waiting, _ := w.Grants.WaitingGrants(crmAdmin); len(waiting) != 0 {
		t.Fatalf("the requester's side reviews nothing: %+v", waiting)
	}
	// Who may not approve.
	if _, err := w.Grants.ApproveGrant(dave, scadaDev, g.ID, ""); !portal.Is(err, portal.InsufficientRole) {
		t.Errorf("a viewer approves: %v", err)
	}
	if _, err := w.Grants.ApproveGrant(crmAdmin, crmDev, g.ID, ""); !portal.Is(err, portal.InsufficientRole) {
		t.Errorf("the grantee approves its own request: %v", err)
	}
	if _, err := w.Grants.ApproveGrant(crmAdmin, scadaDev, g.ID, ""); !portal.Is(err, portal.NotFound) {
		t.Errorf("crm's Admin in scada: %v", err)
	}
	if got := bindings(t, w, reports); !slices.Equal(got, before) {
		t.Fatalf("a refused approval made bindings: %v", got)
	}
	a, err := w.Grants.ApproveGrant(bob, scadaDev, g.ID, "ok for reports")
	if err != nil {
		t.Fatal(err)
	}
	if a.State != grant.GrantActive || a.DecidedBy != "bob" || len(a.Bindings) != 2 || !a.Revocable {
		t.Fatalf("approved: %+v", a)
	}
	want := append(slices.Clone(before), "DeveloperRead group=edh-shared-crm-dev-*", "DeveloperRead topic="+orders)
	slices.Sort(want)
	if got := bindings(t, w, reports); !slices.Equal(got, want) {
		t.Fatalf("bindings after approval: %v, want %v", got, want)
	}
	if _, err := w.Grants.ApproveGrant(bob, scadaDev, g.ID, ""); !portal.Is(err, portal.Conflict) {
		t.Errorf("a second approval: %v", err)
	}
	if _, err := w.Grants.RequestGrant(crmAdmin, crmDev, grant.NewTopicGrant{Owner: "scada", Topic: orders, Access: "read", Principal: reports, Reason: "again"}); !portal.Is(err, portal.Conflict) {
		t.Errorf("the same grant asked again: %v", err)
	}
	// The topic's page asks who else reads it.
	on, err := w.Grants.Grants(dave, scadaDev, grant.GrantQuery{Topic: orders, State: grant.GrantActive})
	if err != nil || len(on.Items) != 1 || on.Items[0].Grantee != "crm" || on.Items[0].Revocable {
		t.Fatalf("grants on the topic: %+v %v", on, err)
	}
	if off, _ := w.Grants.Grants(dave, scadaDev, grant.GrantQuery{Topic: orders + "-x"}); len(off.Items) != 0 {
		t.Errorf("a literal grant covers another topic: %+v", off)
	}
	// Revoking from the grantee's side removes the bindings.
	r, err := w.Grants.RevokeGrant(crmAdmin, crmDev, g.ID, "reports moved")
	if err != nil || r.State != grant.GrantRevoked {
		t.Fatalf("revoke: %+v %v", r, err)
	}
	if got := bindings(t, w, reports); !slices.Equal(got, before) {
		t.Fatalf("bindings after revoking: %v, want %v", got, before)
	}
	var trail []string
	for _, e := range w.AuditEvents(t) {
		if strings.HasPrefix(e.Action.String(), "grant.") && e.Resource == g.ID {
			trail = append(trail, e.Action.String()+" "+e.BU+" "+e.Outcome)
		}
	}
	slices.Sort(trail)
	// Every refusal is in the trail of the scope it was made in.
	wantTrail := []string{"grant.approve scada INSUFFICIENT_ROLE", "grant.approve crm INSUFFICIENT_ROLE", "grant.approve scada NOT_FOUND",
		"grant.approve scada ok", "grant.approve scada CONFLICT", "grant.request crm ok", "grant.revoke crm ok"}
	slices.Sort(wantTrail)
	if !slices.Equal(trail, wantTrail) {
		t.Errorf("trail: %v\nwant %v", trail, wantTrail)
	}
}

// TestGrantBadInput: what a unit could never be given is refused with the
// field at fault, and nothing is stored or made.
func TestGrantBadInput(t *testing.T) {
	w := servicetest.New(t, orders, "mfg-shared-plant-dev-parts")
	reports := account(t, w, crmDev, crmAdmin, "reports", "consumer")
	scadaOwn := account(t, w, scadaDev, bob, "own", "consumer")
	ok := grant.NewTopicGrant{Owner: "scada", Topic: "orders", Access: "read", Principal: reports, Reason: "r"}
	for name, c := range map[string]struct {
		change func(*grant.NewTopicGrant)
		field  string
	}{
		"another zone's unit":    {func(g *grant.NewTopicGrant) { g.Owner = "plant" }, "owner"},
		"own unit":               {func(g *grant.NewTopicGrant) { g.Owner = "crm" }, "owner"},
		"no such unit":           {func(g *grant.NewTopicGrant) { g.Owner = "nobody" }, "owner"},
		"another zone's topic":   {func(g *grant.NewTopicGrant) { g.Topic = "mfg-shared-plant-dev-parts" }, "topic"},
		"a topic that is not":    {func(g *grant.NewTopicGrant) { g.Topic = "missing" }, "topic"},
		"a wildcard prefix":      {func(g *grant.NewTopicGrant) { g.Topic, g.Prefix = "ord*", true }, "topic"},
		"no topic":               {func(g *grant.NewTopicGrant) { g.Topic = "" }, "topic"},
		"another unit's account": {func(g *grant.NewTopicGrant) { g.Principal = scadaOwn }, "principal"},
		"no such account":        {func(g *grant.NewTopicGrant) { g.Principal = "sa-nobody" }, "principal"},
		"not a principal":        {func(g *grant.NewTopicGrant) { g.Principal = "u-123" }, "principal"},
		"admin access":           {func(g *grant.NewTopicGrant) { g.Access = "admin" }, "access"},
		"no reason":              {func(g *grant.NewTopicGrant) { g.Reason = " " }, "reason"},
	} {
		in := ok
		c.change(&in)
		_, err := w.Grants.RequestGrant(crmAdmin, crmDev, in)
		if !portal.Is(err, portal.InvalidParameter) && !portal.Is(err, portal.MissingParameter) {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !slices.ContainsFunc(portal.Problems(err), func(e *portal.Error) bool { return e.Field == c.field }) {
			t.Errorf("%s: %v names no %s", name, err, c.field)
		}
	}
	if _, err := w.Grants.RequestGrant(as("carl", map[string]portal.Role{"crm": portal.Developer}), crmDev, ok); !portal.Is(err, portal.InsufficientRole) {
		t.Errorf("a developer asks: %v", err)
	}
	if _, err := w.Grants.RequestGrant(as("x", map[string]portal.Role{"scada": portal.Admin}), crmDev, ok); !portal.Is(err, portal.NotFound) {
		t.Errorf("someone without a role in crm asks: %v", err)
	}
	if page, _ := w.Grants.Grants(crmAdmin, crmDev, grant.GrantQuery{}); len(page.Items) != 0 {
		t.Errorf("refusals stored grants: %+v", page.Items)
	}
	if _, err := w.Grants.Grants(crmAdmin, crmDev, grant.GrantQuery{Side: "sideways"}); !portal.Is(err, portal.InvalidParameter) {
		t.Errorf("a bad side: %v", err)
	}
}

// TestGrantSelfApprovalAndPrefixes: a Super Admin of the zone who asked
// cannot approve; a write grant on a prefix binds DeveloperWrite on it;
// a consumer account's own group binding is left alone by a read grant
// and its revocation; a withdrawn or rejected request makes nothing.
func TestGrantSelfApprovalAndPrefixes(t *testing.T) {
	w := servicetest.New(t, orders)
	alice := w.AsGroups("sg-edh-shared-superadmins")
	consumer := account(t, w, crmDev, crmAdmin, "feed", "consumer")
	before := bindings(t, w, consumer)
	g, err := w.Grants.RequestGrant(alice, crmDev, grant.NewTopicGrant{Owner: "scada", Topic: "orders-", Prefix: true, Access: "write", Principal: consumer, Reason: "feed"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Grants.ApproveGrant(alice, scadaDev, g.ID, ""); !portal.Is(err, portal.InsufficientRole) {
		t.Fatalf("the requester approved: %v", err)
	}
	if _, err := w.Grants.ApproveGrant(bob, scadaDev, g.ID, ""); err != nil {
		t.Fatal(err)
	}
	if got := bindings(t, w, consumer); !slices.Contains(got, "DeveloperWrite topic=edh-shared-scada-dev-orders-*") || len(got) != len(before)+1 {
		t.Fatalf("write grant on a prefix: %v", got)
	}
	read, err := w.Grants.RequestGrant(crmAdmin, crmDev, grant.NewTopicGrant{Owner: "scada", Topic: "orders", Access: "read", Principal: consumer, Reason: "feed"})
	if err != nil {
		t.Fatal(err)
	}
	if a, err := w.Grants.ApproveGrant(bob, scadaDev, read.ID, ""); err != nil || len(a.Bindings) != 1 {
		t.Fatalf("read grant for a consumer (its group binding is its type's): %+v %v", a, err)
	}
	for _, id := range []string{g.ID, read.ID} {
		if _, err := w.Grants.RevokeGrant(bob, scadaDev, id, ""); err != nil {
			t.Fatal(err)
		}
	}
	if got := bindings(t, w, consumer); !slices.Equal(got, before) {
		t.Fatalf("after revoking: %v, want %v", got, before)
	}
	// Rejected and withdrawn requests make nothing and stay closed.
	r1, _ := w.Grants.RequestGrant(crmAdmin, crmDev, grant.NewTopicGrant{Owner: "scada", Topic: "orders", Access: "write", Principal: consumer, Reason: "x"})
	if rj, err := w.Grants.RejectGrant(bob, scadaDev, r1.ID, "no"); err != nil || rj.State != grant.GrantRejected || rj.Comment != "no" {
		t.Fatalf("reject: %+v %v", rj, err)
	}
	r2, _ := w.Grants.RequestGrant(crmAdmin, crmDev, grant.NewTopicGrant{Owner: "scada", Topic: "orders", Access: "write", Principal: consumer, Reason: "y"})
	if _, err := w.Grants.WithdrawGrant(bob, scadaDev, r2.ID); !portal.Is(err, portal.InsufficientRole) {
		t.Errorf("the owner withdraws: %v", err)
	}
	if wd, err := w.Grants.WithdrawGrant(crmAdmin, crmDev, r2.ID); err != nil || wd.State != grant.GrantWithdrawn {
		t.Fatalf("withdraw: %+v %v", wd, err)
	}
	for _, id := range []string{r1.ID, r2.ID} {
		if _, err := w.Grants.ApproveGrant(bob, scadaDev, id, ""); !portal.Is(err, portal.Conflict) {
			t.Errorf("approving closed %s: %v", id, err)
		}
	}
	if got := bindings(t, w, consumer); !slices.Equal(got, before) {
		t.Fatalf("closed requests made bindings: %v", got)
	}
}

// TestGrantsAsCode: the owner's plans and exports hold its grants; an
// Admin applying a Grant gives it, a Developer's plan refuses it.
func TestGrantsAsCode(t *testing.T) {
	w := servicetest.New(t, orders)
	reports := account(t, w, crmDev, crmAdmin, "reports", "metrics")
	name := "sa-edh-shared-crm-dev-usr-reports-metrics"
	doc := ascode.Document{Resources: []portal.Resource{{Kind: portal.KindGrant, Name: "orders",
		Spec: &portal.GrantDecl{Unit: "crm", Principal: strings.Replace(name, "-dev-", "-qas-", 1), Access: "read"}}}}
	dev := as("dan", map[string]portal.Role{"scada": portal.Developer})
	p, err := w.Plans.Plan(dev, scadaDev, doc)
	if err != nil || p.Changes[0].Action != ascode.ActionRefused {
		t.Fatalf("a developer's plan: %+v %v", p, err)
	}
	p, err = w.Plans.Plan(bob, scadaDev, doc)
	if err != nil || p.Changes[0].Action != ascode.ActionCreate || p.Changes[0].Kind != "grant" {
		t.Fatalf("bob's plan: %+v %v", p, err)
	}
	if _, err := w.Plans.Apply(bob, scadaDev, doc, p.Fingerprint); err != nil {
		t.Fatal(err)
	}
	if got := bindings(t, w, reports); !slices.Contains(got, "DeveloperRead topic="+orders) {
		t.Fatalf("applied grant: %v", got)
	}
	exp, err := w.Plans.Export(dave, scadaDev)
	if err != nil {
		t.Fatal(err)
	}
	var found *portal.GrantDecl
	for _, r := range exp.Resources {
		if r.Kind == portal.KindGrant && r.Name == "orders" {
			found = portal.DeclOf[portal.GrantDecl](r)
		}
	}
	if found == nil || found.Unit != "crm" || found.Principal != name || found.Access != "read" {
		t.Fatalf("export: %+v", exp.Resources)
	}
	if again, _ := w.Plans.Plan(bob, scadaDev, doc); again.Changes[0].Action != ascode.ActionUnchanged {
		t.Errorf("planned again: %+v", again.Changes[0])
	}
	bad := ascode.Document{Resources: []portal.Resource{{Kind: portal.KindGrant, Name: "orders", Spec: &portal.GrantDecl{Unit: "plant", Principal: reports, Access: "read"}}}}
	if p, _ := w.Plans.Plan(bob, scadaDev, bad); p.Changes[0].Action != ascode.ActionRefused {
		t.Errorf("a grant to another zone's unit: %+v", p.Changes[0])
	}
}

// failingIAM fails the creation of group bindings, or every delete.
type failingIAM struct {
	platform.IAM
	creates, deletes bool
}

func (f *failingIAM) CreateRoleBinding(ctx context.Context, principal string, b iam.RoleBinding) (iam.RoleBinding, error) {
	if f.creates && b.Resource == iam.ResourceGroup {
		return iam.RoleBinding{}, portal.New(portal.UpstreamUnavailable, "IAM is down")
	}
	return f.IAM.CreateRoleBinding(ctx, principal, b)
}

func (f *failingIAM) DeleteRoleBinding(ctx context.Context, id string) error {
	if f.deletes {
		return portal.New(portal.UpstreamUnavailable, "IAM is down")
	}
	return f.IAM.DeleteRoleBinding(ctx, id)
}

// TestGrantUpstreamFailures: an approval that fails half way removes what
// it made and leaves the request open; a revocation that cannot remove
// the bindings keeps the grant active and says so, and a retry finishes.
func TestGrantUpstreamFailures(t *testing.T) {
	w := servicetest.New(t, orders)
	reports := account(t, w, crmDev, crmAdmin, "reports", "metrics")
	before := bindings(t, w, reports)
	env := w.Env("edh-shared", "dev")
	f := &failingIAM{IAM: env.IAM, creates: true}
	env.IAM = f
	g, err := w.Grants.RequestGrant(crmAdmin, crmDev, grant.NewTopicGrant{Owner: "scada", Topic: "orders", Access: "read", Principal: reports, Reason: "r"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Grants.ApproveGrant(bob, scadaDev, g.ID, ""); !portal.Is(err, portal.UpstreamUnavailable) {
		t.Fatalf("approval with IAM failing: %v", err)
	}
	if got := bindings(t, w, reports); !slices.Equal(got, before) {
		t.Fatalf("a failed approval left bindings: %v", got)
	}
	if now, _ := w.Grants.Grant(bob, scadaDev, g.ID); now.State != grant.GrantRequested {
		t.Fatalf("after a failed approval: %s", now.State)
	}
	f.creates = false
	if _, err := w.Grants.ApproveGrant(bob, scadaDev, g.ID, ""); err != nil {
		t.Fatal(err)
	}
	f.deletes = true
	if _, err := w.Grants.RevokeGrant(bob, scadaDev, g.ID, ""); !portal.Is(err, portal.UpstreamUnavailable) || !strings.Contains(err.Error(), "stays active") {
		t.Fatalf("revocation with IAM failing: %v", err)
	}
	if now, _ := w.Grants.Grant(bob, scadaDev, g.ID); now.State != grant.GrantActive || len(now.Bindings) != 2 {
		t.Fatalf("after a failed revocation: %+v", now)
	}
	f.deletes = false
	if _, err := w.Grants.RevokeGrant(bob, scadaDev, g.ID, ""); err != nil {
		t.Fatal(err)
	}
	if got := bindings(t, w, reports); !slices.Equal(got, before) {
		t.Fatalf("after the retry: %v", got)
	}
	outcomes := map[string]int{}
	for _, e := range w.AuditEvents(t) {
		if e.Resource == g.ID {
			outcomes[e.Action.String()+" "+e.Outcome]++
		}
	}
	if outcomes["grant.approve UPSTREAM_UNAVAILABLE"] != 1 || outcomes["grant.revoke UPSTREAM_UNAVAILABLE"] != 1 || outcomes["grant.revoke ok"] != 1 {
		t.Errorf("trail: %v", outcomes)
	}
}

// TestGrantAccessMatrix: every step of a grant for every role, in a
// writable and in the read-only stage (whose switch does not apply:
// grants take two units' Admins by construction); a refusal changes
// nothing upstream.
func TestGrantAccessMatrix(t *testing.T) {
	w := servicetest.New(t, orders, "edh-shared-scada-run-orders")
	type step struct {
		name string
		do   func(who func(string) context.Context, crm, scada portal.Scope, ask func() grant.TopicGrant) error
	}
	steps := []step{
		{"read", func(who func(string) context.Context, _, scada portal.Scope, _ func() grant.TopicGrant) error {
			_, err := w.Grants.Grants(who("scada"), scada, grant.GrantQuery{})
			return err
		}},
		{"ask", func(who func(string) context.Context, crm, _ portal.Scope, ask func() grant.TopicGrant) error {
			g := ask() // the grant another Admin asked for, to be withdrawn first
			if _, err := w.Grants.WithdrawGrant(crmAdmin, crm, g.ID); err != nil {
				t.Fatal(err)
			}
			_, err := w.Grants.RequestGrant(who("crm"), crm, grant.NewTopicGrant{Owner: "scada", Topic: "orders", Access: "read", Principal: g.Principal, Reason: "m"})
			return err
		}},
		{"withdraw", func(who func(string) context.Context, crm, _ portal.Scope, ask func() grant.TopicGrant) error {
			_, err := w.Grants.WithdrawGrant(who("crm"), crm, ask().ID)
			return err
		}},
		{"approve", func(who func(string) context.Context, _, scada portal.Scope, ask func() grant.TopicGrant) error {
			_, err := w.Grants.ApproveGrant(who("scada"), scada, ask().ID, "")
			return err
		}},
		{"reject", func(who func(string) context.Context, _, scada portal.Scope, ask func() grant.TopicGrant) error {
			_, err := w.Grants.RejectGrant(who("scada"), scada, ask().ID, "")
			return err
		}},
		{"revoke", func(who func(string) context.Context, _, scada portal.Scope, ask func() grant.TopicGrant) error {
			g, err := w.Grants.ApproveGrant(bob, scada, ask().ID, "")
			if err != nil {
				t.Fatal(err)
			}
			_, err = w.Grants.RevokeGrant(who("scada"), scada, g.ID, "")
			return err
		}},
	}
	for _, stage := range []string{"dev", "run"} {
		crm, scada := portal.Scope{BU: "crm", Stage: stage}, portal.Scope{BU: "scada", Stage: stage}
		acct := account(t, w, crm, crmAdmin, "matrix", "metrics")
		before := bindings(t, w, acct)
		clean := func() {
			// Close whatever a cell left open or active, as the Admins.
			page, err := w.Grants.Grants(bob, scada, grant.GrantQuery{})
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range page.Items {
				switch g.State {
				case grant.GrantRequested:
					_, err = w.Grants.RejectGrant(bob, scada, g.ID, "")
				case grant.GrantActive:
					_, err = w.Grants.RevokeGrant(bob, scada, g.ID, "")
				}
				if err != nil {
					t.Fatal(err)
				}
			}
		}
		ask := func() grant.TopicGrant {
			g, err := w.Grants.RequestGrant(crmAdmin, crm, grant.NewTopicGrant{Owner: "scada", Topic: "orders", Access: "read", Principal: acct, Reason: "m"})
			if err != nil {
				t.Fatal(err)
			}
			return g
		}
		for _, role := range []portal.Role{portal.NoRole, portal.Viewer, portal.Developer, portal.Admin, portal.SuperAdmin} {
			who := func(bu string) context.Context {
				roles := map[string]portal.Role{}
				if role > portal.NoRole {
					roles[bu] = role
				}
				return as("someone-"+role.String(), roles)
			}
			for _, s := range steps {
				var want portal.Kind
				switch {
				case role == portal.NoRole:
					want = portal.NotFound
				case role < portal.Admin && s.name != "read":
					want = portal.InsufficientRole
				}
				err := s.do(who, crm, scada, ask)
				if want == "" && err != nil || want != "" && !portal.Is(err, want) {
					t.Errorf("%s %s in %s: %v, want %q", role, s.name, stage, err, want)
				}
				clean()
				if got := bindings(t, w, acct); !slices.Equal(got, before) {
					t.Fatalf("%s %s in %s left bindings: %v", role, s.name, stage, got)
				}
			}
		}
	}
}
