package grants_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/grant"
	"github.com/edh-platform/rms-portal/internal/servicetest"
)

var (
	erin  = as("erin", map[string]portal.Role{"scada": portal.Admin})
	carol = as("carol", map[string]portal.Role{"scada": portal.Developer})
)

const day = 24 * time.Hour

// portalEvents lists the portal's own events about a grant.
func portalEvents(t *testing.T, w *servicetest.World, id string) []string {
	t.Helper()
	var out []string
	for _, e := range w.AuditEvents(t) {
		if e.Resource == id && e.Actor == "portal" {
			out = append(out, e.Action.String()+" "+e.BU+" "+e.Outcome)
		}
	}
	return out
}

// TestGrantsExpire is the expiry in the services: a grant asked
// for 7 days ends 7 days after its approval; it is announced (once) as it
// nears its end, renewed by a new approval, and revoked by the portal at
// its end, its bindings removed.
func TestGrantsExpire(t *testing.T) {
	w := servicetest.New(t, orders)
	reports := account(t, w, crmDev, crmAdmin, "reports", "metrics")
	before := bindings(t, w, reports)
	g, err := w.Grants.RequestGrant(crmAdmin, crmDev, grant.NewTopicGrant{Owner: "scada", Topic: "orders", Access: "read", Principal: reports,
		Reason: "a week of reports", Duration: "7d"})
	if err != nil {
		t.Fatal(err)
	}
	if g.Duration != 7*day || !g.Expires.IsZero() || g.Classification != "internal" || g.ApprovalsNeeded != 1 {
		t.Fatalf("requested: %+v", g)
	}
	a, err := w.Grants.ApproveGrant(bob, scadaDev, g.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	if d := a.Expires.Sub(w.Guard.Now()); d < 7*day-time.Minute || d > 7*day {
		t.Fatalf("expires in %s: %+v", d, a)
	}
	granted := bindings(t, w, reports)
	// My access explains it.
	report, err := w.Me.Access(crmAdmin)
	if err != nil || len(report.Grants) != 1 || !strings.HasPrefix(report.Grants[0].Line, "read on "+orders+" through grant "+g.ID) ||
		!strings.Contains(report.Grants[0].Line, " until "+a.Expires.UTC().Format("2006-01-02")) {
		t.Fatalf("my access: %+v %v", report.Grants, err)
	}
	if n, err := w.Grants.Expire(context.Background()); err != nil || n != 0 {
		t.Fatalf("a fresh grant expired or was announced: %d %v", n, err)
	}

	// Five days on it is announced, once, and listed as expiring.
	w.Advance(5 * day)
	for range 2 {
		if _, err := w.Grants.Expire(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if got := portalEvents(t, w, g.ID); !slices.Equal(got, []string{"grant.expiring crm ok"}) {
		t.Fatalf("announcements: %v", got)
	}
	if page, _ := w.Grants.Grants(crmAdmin, crmDev, grant.GrantQuery{Expiring: true}); len(page.Items) != 1 || !page.Items[0].Expiring {
		t.Fatalf("expiring: %+v", page)
	}

	// A renewal asks again, for 30 days; its approval moves the end and
	// keeps the bindings.
	if _, err := w.Grants.RequestGrant(crmAdmin, crmDev, grant.NewTopicGrant{Owner: "scada", Topic: "orders", Access: "write", Principal: reports,
		Reason: "more", Renews: g.ID}); !portal.Is(err, portal.InvalidParameter) {
		t.Errorf("a renewal of other access: %v", err)
	}
	r, err := w.Grants.RequestGrant(crmAdmin, crmDev, grant.NewTopicGrant{Owner: "scada", Topic: "orders", Access: "read", Principal: reports,
		Reason: "another month", Duration: "30d", Renews: g.ID})
	if err != nil {
		t.Fatal(err)
	}
	if r, err = w.Grants.ApproveGrant(bob, scadaDev, r.ID, ""); err != nil || r.State != grant.GrantRenewed {
		t.Fatalf("renewal: %+v %v", r, err)
	}
	renewed, _ := w.Grants.Grant(crmAdmin, crmDev, g.ID)
	if d := renewed.Expires.Sub(w.Guard.Now()); d < 30*day-time.Minute || d > 30*day || renewed.Expiring || renewed.State != grant.GrantActive {
		t.Fatalf("renewed grant: %+v", renewed)
	}
	if got := bindings(t, w, reports); !slices.Equal(got, granted) {
		t.Fatalf("a renewal changed the bindings: %v", got)
	}

	// At its end the portal revokes it.
	w.Advance(31 * day)
	if n, err := w.Grants.Expire(context.Background()); err != nil || n != 1 {
		t.Fatalf("expire: %d %v", n, err)
	}
	ended, _ := w.Grants.Grant(crmAdmin, crmDev, g.ID)
	if ended.State != grant.GrantExpired || ended.DecidedBy != "portal" {
		t.Fatalf("expired: %+v", ended)
	}
	if got := bindings(t, w, reports); !slices.Equal(got, before) {
		t.Fatalf("bindings after expiry: %v, want %v", got, before)
	}
	if got := portalEvents(t, w, g.ID); !slices.Contains(got, "grant.expire scada ok") {
		t.Errorf("the expiry is not in the trail: %v", got)
	}
}

// TestClassificationBoundsGrants: a restricted topic is asked for read
// only, for at most 7 days, and two of the owner's Admins approve it.
func TestClassificationBoundsGrants(t *testing.T) {
	w := servicetest.New(t, orders)
	reports := account(t, w, crmDev, crmAdmin, "reports", "metrics")
	before := bindings(t, w, reports)
	if _, err := w.Catalog.Describe(carol, scadaDev, "orders", portal.TopicMetadata{Classification: "restricted"}); err != nil {
		t.Fatal(err)
	}
	ask := func(access, duration string) (grant.TopicGrant, error) {
		return w.Grants.RequestGrant(crmAdmin, crmDev, grant.NewTopicGrant{Owner: "scada", Topic: "orders", Access: access, Principal: reports,
			Reason: "audit", Duration: duration})
	}
	for _, c := range []struct{ access, duration, field string }{{"read", "30d", "duration"}, {"write", "1d", "access"}, {"read", "soon", "duration"}} {
		if _, err := ask(c.access, c.duration); portal.KindOf(err) != portal.InvalidParameter || portal.Problems(err)[0].Field != c.field {
			t.Errorf("%s for %s: %v", c.access, c.duration, err)
		}
	}
	g, err := ask("read", "")
	if err != nil {
		t.Fatal(err)
	}
	if g.Duration != 7*day || g.Classification != "restricted" || g.ApprovalsNeeded != 2 {
		t.Fatalf("asked: %+v", g)
	}
	first, err := w.Grants.ApproveGrant(bob, scadaDev, g.ID, "one")
	if err != nil || first.State != grant.GrantRequested || !slices.Equal(first.Approvals, []string{"bob"}) {
		t.Fatalf("first approval: %+v %v", first, err)
	}
	if got := bindings(t, w, reports); !slices.Equal(got, before) || first.Reviewable {
		t.Errorf("after one of two approvals: bindings %v, reviewable by bob %v", got, first.Reviewable)
	}
	if _, err := w.Grants.ApproveGrant(bob, scadaDev, g.ID, "twice"); !portal.Is(err, portal.InsufficientRole) {
		t.Errorf("the same Admin approves twice: %v", err)
	}
	second, err := w.Grants.ApproveGrant(erin, scadaDev, g.ID, "two")
	if err != nil || second.State != grant.GrantActive || !slices.Equal(second.Approvals, []string{"bob", "erin"}) || second.Expires.IsZero() {
		t.Fatalf("second approval: %+v %v", second, err)
	}
}

// TestDecisionsOnNoGrantAreAudited: a decision on a grant that does not
// exist is refused (404) and audited like every refused write.
func TestDecisionsOnNoGrantAreAudited(t *testing.T) {
	w := servicetest.New(t, orders)
	before := len(w.AuditEvents(t))
	steps := map[string]func() error{
		"grant.approve":  func() error { _, err := w.Grants.ApproveGrant(bob, scadaDev, "gr-none", ""); return err },
		"grant.reject":   func() error { _, err := w.Grants.RejectGrant(bob, scadaDev, "gr-none", ""); return err },
		"grant.withdraw": func() error { _, err := w.Grants.WithdrawGrant(crmAdmin, crmDev, "gr-none"); return err },
		"grant.revoke":   func() error { _, err := w.Grants.RevokeGrant(bob, scadaDev, "gr-none", ""); return err },
	}
	for action, step := range steps {
		if err := step(); !portal.Is(err, portal.NotFound) {
			t.Errorf("%s: %v", action, err)
		}
	}
	var got []string
	for _, e := range w.AuditEvents(t)[before:] {
		got = append(got, e.Action.String()+" "+e.Outcome)
	}
	slices.Sort(got)
	if want := []string{"grant.approve NOT_FOUND", "grant.reject NOT_FOUND", "grant.revoke NOT_FOUND", "grant.withdraw NOT_FOUND"}; !slices.Equal(got, want) {
		t.Errorf("trail: %v", got)
	}
}
