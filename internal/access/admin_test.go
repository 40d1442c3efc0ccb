package access

import (
	"testing"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// adminMatrix is written out by hand: per caller, each admin action in
// edh-shared, in sales, and in "any zone" (""). "ok" allowed, "404" the
// area is hidden. Columns follow AdminActions: manage tenancy, read zone
// audit, read zone health, read config, manage sessions, preview access,
// manage guardrails, read guardrails, manage webhooks, read zone costs.
var adminMatrix = map[string][3][10]string{
	"platform admin": {
		{"ok", "ok", "ok", "ok", "ok", "ok", "ok", "ok", "ok", "ok"}, {"ok", "ok", "ok", "ok", "ok", "ok", "ok", "ok", "ok", "ok"}, {"ok", "ok", "ok", "ok", "ok", "ok", "ok", "ok", "ok", "ok"}},
	"edh-shared super admin": {
		{"404", "ok", "ok", "404", "404", "404", "404", "ok", "404", "ok"}, {"404", "404", "404", "404", "404", "404", "404", "404", "404", "404"}, {"404", "ok", "ok", "404", "404", "404", "404", "ok", "404", "ok"}},
	"scada admin": {
		{"404", "404", "404", "404", "404", "404", "404", "404", "404", "404"}, {"404", "404", "404", "404", "404", "404", "404", "404", "404", "404"}, {"404", "404", "404", "404", "404", "404", "404", "404", "404", "404"}},
	"scada developer": {
		{"404", "404", "404", "404", "404", "404", "404", "404", "404", "404"}, {"404", "404", "404", "404", "404", "404", "404", "404", "404", "404"}, {"404", "404", "404", "404", "404", "404", "404", "404", "404", "404"}},
	"scada viewer": {
		{"404", "404", "404", "404", "404", "404", "404", "404", "404", "404"}, {"404", "404", "404", "404", "404", "404", "404", "404", "404", "404"}, {"404", "404", "404", "404", "404", "404", "404", "404", "404", "404"}},
	"no role": {
		{"404", "404", "404", "404", "404", "404", "404", "404", "404", "404"}, {"404", "404", "404", "404", "404", "404", "404", "404", "404", "404"}, {"404", "404", "404", "404", "404", "404", "404", "404", "404", "404"}},
}

var adminCallers = map[string][]string{
	"platform admin":         {"platform-admins"},
	"edh-shared super admin": {"SG-EDH-SHARED-SUPERADMINS"},
	"scada admin":            {"sg-scada-admins"},
	"scada developer":        {"sg-scada-developers"},
	"scada viewer":           {"sg-scada-viewers"},
	"no role":                {"unrelated"},
}

// TestAdminMatrix checks every caller × admin action × zone against the
// table above, and that a refusal never says more than "not found".
func TestAdminMatrix(t *testing.T) {
	ten, err := tenancy.New(tenancy.Spec{
		Stages: []tenancy.Stage{{Name: "dev"}},
		LandingZones: []tenancy.ZoneSpec{
			{ID: "edh-shared", MainBU: "platform", SuperAdminGroups: []string{"sg-edh-shared-superadmins"}, Units: []tenancy.UnitSpec{
				{ID: "platform"},
				{ID: "scada", AdminGroups: []string{"sg-scada-admins"}, DeveloperGroups: []string{"sg-scada-developers"}, ViewerGroups: []string{"sg-scada-viewers"}},
			}},
			{ID: "sales", Dedicated: true, Units: []tenancy.UnitSpec{{ID: "sales", DeveloperGroups: []string{"sg-sales-developers"}}}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	r := NewResolver(tenancy.NewLive(ten), "platform-admins")
	if len(adminMatrix) != len(adminCallers) || len(AdminActions) != 10 {
		t.Fatal("the matrix and the callers or actions differ in size")
	}
	n := 0
	for caller, rows := range adminMatrix {
		p := r.Resolve(portal.Identity{Subject: caller, Groups: adminCallers[caller]})
		for zi, zone := range []string{"edh-shared", "sales", ""} {
			for ai, action := range AdminActions {
				err := CheckAdmin(p, ten, action, zone)
				got := "ok"
				if err != nil {
					got = "404"
					if e := portal.Problems(err); len(e) != 1 || e[0].Kind != portal.NotFound || e[0].Message != "not found" {
						t.Errorf("%s, %s in %q: refusal %v says more than not found", caller, action, zone, err)
					}
				}
				if want := rows[zi][ai]; got != want {
					t.Errorf("%s, %s in %q: %s, want %s", caller, action, zone, got, want)
				}
				n++
			}
		}
	}
	if err := CheckAdmin(nil, ten, ReadConfig, ""); !portal.Is(err, portal.Unauthenticated) {
		t.Errorf("no principal: %v", err)
	}
	t.Logf("%d admin decisions checked", n)
}
