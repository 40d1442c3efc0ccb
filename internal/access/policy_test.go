package access

import (
	"fmt"
	"testing"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// The expected matrix is written out by hand, one line per role, from the
// table in DESIGN.md section 2, so that a change to the policy must change
// this table too. Columns: read, write, manage-identity, read-audit,
// request-change; first
// in a writable stage, then in a read-only stage.
// "ok" allowed, "by" allowed by bypassing read-only, "404" unit hidden,
// "role" INSUFFICIENT_ROLE, "ro" READ_ONLY_ENVIRONMENT.
var matrix = map[portal.Role][2][5]string{
	portal.NoRole:     {{"404", "404", "404", "404", "404"}, {"404", "404", "404", "404", "404"}},
	portal.Viewer:     {{"ok", "role", "role", "role", "role"}, {"ok", "role", "role", "role", "role"}},
	portal.Developer:  {{"ok", "ok", "role", "role", "ok"}, {"ok", "ro", "role", "role", "ok"}},
	portal.Admin:      {{"ok", "ok", "ok", "ok", "ok"}, {"ok", "by", "by", "ok", "ok"}},
	portal.SuperAdmin: {{"ok", "ok", "ok", "ok", "ok"}, {"ok", "by", "by", "ok", "ok"}},
}

func outcome(d Decision) string {
	switch {
	case d.Allowed && d.Bypass:
		return "by"
	case d.Allowed:
		return "ok"
	}
	return map[portal.Kind]string{
		portal.NotFound: "404", portal.InsufficientRole: "role", portal.ReadOnlyEnvironment: "ro",
	}[d.Denial]
}

func TestDecideMatrix(t *testing.T) {
	if len(matrix) != len(Roles) {
		t.Fatalf("matrix covers %d roles, policy has %d", len(matrix), len(Roles))
	}
	for _, role := range Roles {
		for ro, stage := range []tenancy.Stage{{Name: "dev"}, {Name: "run", ReadOnly: true}} {
			for ai, action := range Actions {
				want := matrix[role][ro][ai]
				got := outcome(Decide(role, action, stage))
				if got != want {
					t.Errorf("Decide(%s, %s, read-only=%v) = %s, want %s", role, action, stage.ReadOnly, got, want)
				}
			}
		}
	}
}

// TestDecideChangesAndFourEyes: a stage whose Developers change by
// request refuses their writes (not their reads), Admins' go through; a
// stage with four eyes refuses every role's writes.
func TestDecideChangesAndFourEyes(t *testing.T) {
	byRequest := tenancy.Stage{Name: "qas", Changes: tenancy.ChangesRequest}
	fourEyes := tenancy.Stage{Name: "run", ReadOnly: true, FourEyes: true}
	cases := []struct {
		role  portal.Role
		stage tenancy.Stage
		act   Action
		want  string
	}{
		{portal.Developer, byRequest, Write, "ro"},
		{portal.Developer, byRequest, Read, "ok"},
		{portal.Admin, byRequest, Write, "ok"},
		{portal.Developer, tenancy.Stage{Name: "dev", Changes: tenancy.ChangesDirect}, Write, "ok"},
		{portal.Admin, fourEyes, Write, "ro"},
		{portal.SuperAdmin, fourEyes, ManageIdentity, "ro"},
		{portal.Viewer, fourEyes, Read, "ok"},
	}
	for _, c := range cases {
		if got := outcome(Decide(c.role, c.act, c.stage)); got != c.want {
			t.Errorf("%s %s in %+v: %s, want %s", c.role, c.act, c.stage, got, c.want)
		}
	}
}

func TestCheckMessages(t *testing.T) {
	ten, err := tenancy.New(tenancy.Spec{
		Stages:       []tenancy.Stage{{Name: "dev"}, {Name: "run", ReadOnly: true}},
		LandingZones: []tenancy.ZoneSpec{{ID: "lz", MainBU: "p", Units: []tenancy.UnitSpec{{ID: "p"}, {ID: "scada"}}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	u, _ := ten.Unit("scada")
	dev, _ := ten.Stage("dev")
	run, _ := ten.Stage("run")
	cases := []struct {
		p      *portal.Principal
		stage  tenancy.Stage
		action Action
		kind   portal.Kind
		msg    string
	}{
		{nil, dev, Read, portal.Unauthenticated, "sign-in required"},
		{portal.PrincipalWithRoles("x", nil), dev, Read, portal.NotFound, `business unit "scada" not found`},
		{portal.PrincipalWithRoles("v", map[string]portal.Role{"scada": portal.Viewer}), dev, Write, portal.InsufficientRole,
			"your role in scada is viewer; to create topics you need the developer role or higher"},
		{portal.PrincipalWithRoles("d", map[string]portal.Role{"scada": portal.Developer}), run, Write, portal.ReadOnlyEnvironment,
			"stage run is read-only: developers may not create topics there; file a change request (POST /api/v1/scada/run/change-requests, or the Change requests page) that an Admin of scada approves"},
		{portal.PrincipalWithRoles("d", map[string]portal.Role{"scada": portal.Developer}), dev, ManageIdentity, portal.InsufficientRole,
			"your role in scada is developer; to create topics you need the admin role or higher"},
	}
	for i, c := range cases {
		err := Check(c.p, tenancy.Scope{Unit: u, Stage: c.stage}, c.action, "create topics")
		ps := portal.Problems(err)
		if len(ps) != 1 || ps[0].Kind != c.kind || ps[0].Message != c.msg {
			t.Errorf("case %d: got %v, want %s %q", i, err, c.kind, c.msg)
		}
	}
	if err := Check(portal.PrincipalWithRoles("a", map[string]portal.Role{"scada": portal.Admin}), tenancy.Scope{Unit: u, Stage: run}, Write, "x"); err != nil {
		t.Errorf("admin in read-only stage refused: %v", err)
	}
}

func TestResolve(t *testing.T) {
	ten, err := tenancy.New(tenancy.Spec{
		Stages: []tenancy.Stage{{Name: "dev"}},
		LandingZones: []tenancy.ZoneSpec{
			{ID: "edh-shared", MainBU: "platform", SuperAdminGroups: []string{"sg-edh-shared-superadmins"}, Units: []tenancy.UnitSpec{
				{ID: "platform"},
				{ID: "scada", AdminGroups: []string{"sg-scada-admins"}, DeveloperGroups: []string{"sg-scada-developers"}, ViewerGroups: []string{"sg-scada-viewers"}},
				{ID: "crm", AdminGroups: []string{"sg-crm-admins"}, DeveloperGroups: []string{"sg-crm-developers"}, ViewerGroups: []string{"sg-crm-viewers", "0c1d-guid"}},
			}},
			{ID: "sales", Dedicated: true, Units: []tenancy.UnitSpec{{ID: "sales", DeveloperGroups: []string{"sg-sales-developers"}}}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	r := NewResolver(tenancy.NewLive(ten), "platform-admins")
	cases := []struct {
		groups []string
		want   string // roles in crm, platform, sales, scada
		admin  bool
	}{
		{nil, "none none none none", false},
		{[]string{"sg-scada-viewers"}, "none none none viewer", false},
		{[]string{"sg-scada-viewers", "sg-scada-admins", "sg-scada-developers"}, "none none none admin", false},
		{[]string{"sg-scada-developers", "sg-crm-viewers"}, "viewer none none developer", false},
		{[]string{"SG-SCADA-DEVELOPERS"}, "none none none developer", false},
		{[]string{"0c1d-guid"}, "viewer none none none", false},
		{[]string{"sg-edh-shared-superadmins"}, "super_admin super_admin none super_admin", false},
		{[]string{"sg-edh-shared-superadmins", "sg-scada-viewers"}, "super_admin super_admin none super_admin", false},
		{[]string{"platform-admins"}, "super_admin super_admin super_admin super_admin", true},
		{[]string{"sg-sales-developers"}, "none none developer none", false},
		{[]string{"unrelated"}, "none none none none", false},
	}
	for _, c := range cases {
		p := r.Resolve(portal.Identity{Subject: "s", Groups: c.groups})
		got := fmt.Sprintf("%s %s %s %s", p.Role("crm"), p.Role("platform"), p.Role("sales"), p.Role("scada"))
		if got != c.want || p.PlatformAdmin != c.admin {
			t.Errorf("groups %v: roles %q admin=%v, want %q admin=%v", c.groups, got, p.PlatformAdmin, c.want, c.admin)
		}
	}
}

// produceMatrix is who may produce, by role, for each produce switch
// (off, developers, admins), in a writable then a read-only stage. "off"
// is PRODUCE_DISABLED.
var produceMatrix = map[portal.Role][2][3]string{
	portal.NoRole:     {{"404", "404", "404"}, {"404", "404", "404"}},
	portal.Viewer:     {{"off", "role", "role"}, {"off", "role", "role"}},
	portal.Developer:  {{"off", "ok", "role"}, {"off", "ro", "role"}},
	portal.Admin:      {{"off", "ok", "ok"}, {"off", "by", "by"}},
	portal.SuperAdmin: {{"off", "ok", "ok"}, {"off", "by", "by"}},
}

func TestDecideProduceMatrix(t *testing.T) {
	for _, role := range Roles {
		for ro, readOnly := range []bool{false, true} {
			for si, sw := range []string{tenancy.ProduceOff, tenancy.ProduceDevelopers, tenancy.ProduceAdmins} {
				d := DecideProduce(role, tenancy.Stage{Name: "s", ReadOnly: readOnly, Produce: sw})
				got := outcome(d)
				if d.Denial == portal.ProduceDisabled {
					got = "off"
				}
				if want := produceMatrix[role][ro][si]; got != want {
					t.Errorf("DecideProduce(%s, produce=%s, read-only=%v) = %s, want %s", role, sw, readOnly, got, want)
				}
			}
		}
	}
}

func TestCheckProduceMessages(t *testing.T) {
	ten, err := tenancy.New(tenancy.Spec{
		Stages: []tenancy.Stage{{Name: "dev", Produce: tenancy.ProduceAdmins}, {Name: "run", ReadOnly: true, Produce: tenancy.ProduceDevelopers},
			{Name: "prd", Produce: tenancy.ProduceOff}},
		LandingZones: []tenancy.ZoneSpec{{ID: "lz", MainBU: "p", Units: []tenancy.UnitSpec{{ID: "p"}, {ID: "scada"}}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	u, _ := ten.Unit("scada")
	dev, _ := ten.Stage("dev")
	run, _ := ten.Stage("run")
	prd, _ := ten.Stage("prd")
	d := portal.PrincipalWithRoles("d", map[string]portal.Role{"scada": portal.Developer})
	for _, c := range []struct {
		stage tenancy.Stage
		kind  portal.Kind
		msg   string
	}{
		{dev, portal.InsufficientRole, "producing records in stage dev needs the admin role or higher (produce: admins); yours in scada is developer"},
		{run, portal.ReadOnlyEnvironment, "stage run is read-only: developers may not produce records there; ask an Admin of scada"},
		{prd, portal.ProduceDisabled, "producing records is turned off in stage prd (produce: off); ask the platform team"},
	} {
		ps := portal.Problems(CheckProduce(d, tenancy.Scope{Unit: u, Stage: c.stage}))
		if len(ps) != 1 || ps[0].Kind != c.kind || ps[0].Message != c.msg {
			t.Errorf("%s: got %v, want %s %q", c.stage.Name, ps, c.kind, c.msg)
		}
	}
}

// TestDecideMaskingMatrix: every role against every stage switch and
// every choice of the role that sees tagged fields whole.
func TestDecideMaskingMatrix(t *testing.T) {
	roles := []portal.Role{portal.NoRole, portal.Viewer, portal.Developer, portal.Admin, portal.SuperAdmin}
	want := map[string]string{
		// unmasked role -> which of none, viewer, developer, admin, super admin get masked values in a "tags" stage
		"viewer":      "x....",
		"developer":   "xx...",
		"admin":       "xxx..",
		"super_admin": "xxxx.",
	}
	for _, unmasked := range roles[1:] {
		for _, sw := range []string{tenancy.MaskingOff, tenancy.MaskingTags, ""} {
			for _, readOnly := range []bool{false, true} {
				got := ""
				for _, role := range roles {
					if DecideMasking(role, tenancy.Stage{Name: "s", ReadOnly: readOnly, Masking: sw}, unmasked) {
						got += "x"
					} else {
						got += "."
					}
				}
				w := "....."
				if sw == tenancy.MaskingTags {
					w = want[unmasked.String()]
				}
				if got != w {
					t.Errorf("DecideMasking(masking=%q, read-only=%v, unmasked=%s) masks %s, want %s", sw, readOnly, unmasked, got, w)
				}
			}
		}
	}
}
