package service_test

import (
	"context"
	"testing"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/servicetest"
)

// TestLandingIsWhereTheRoleIsHighest: without a named context a person
// lands in the unit of their highest role, whatever the units' order
// (carol is a Viewer of crm and a Developer of scada); ties keep the
// order.
func TestLandingIsWhereTheRoleIsHighest(t *testing.T) {
	w := servicetest.New(t)
	for _, c := range []struct {
		roles map[string]portal.Role
		want  string
	}{
		{map[string]portal.Role{"crm": portal.Viewer, "scada": portal.Developer}, "scada"},
		{map[string]portal.Role{"crm": portal.Admin, "scada": portal.Developer}, "crm"},
		{map[string]portal.Role{"crm": portal.Viewer, "scada": portal.Viewer}, "crm"},
	} {
		ctx := portal.WithPrincipal(context.Background(), portal.PrincipalWithRoles("someone", c.roles))
		l, err := w.Me.Layout(ctx, portal.Scope{})
		if err != nil || l.Default == nil || l.Default.BU != c.want {
			t.Errorf("%v: lands in %+v (%v), want %s", c.roles, l.Default, err, c.want)
		}
	}
}

// TestOutlookAsksThePolicy: the controls a page shows follow the policy,
// role by role (the grants' button among them: Admins and up).
func TestOutlookAsksThePolicy(t *testing.T) {
	w := servicetest.New(t)
	for _, role := range []portal.Role{portal.Viewer, portal.Developer, portal.Admin, portal.SuperAdmin} {
		l, err := w.Me.Layout(servicetest.As("scada", role), portal.Scope{BU: "scada", Stage: "dev"})
		if err != nil {
			t.Fatal(err)
		}
		o := l.Context
		if o.AskGrants != (role >= portal.Admin) || o.CanWrite != (role >= portal.Developer) || o.ReadRecords != (role >= portal.Developer) {
			t.Errorf("%s: ask grants %v, write %v, read records %v", role, o.AskGrants, o.CanWrite, o.ReadRecords)
		}
	}
}
