package tenancy

import (
	"strings"
	"testing"
)

func demo(t *testing.T) *Tenancy {
	t.Helper()
	ten, err := New(Spec{
		Stages: []Stage{{Name: "dev"}, {Name: "qas"}, {Name: "run", ReadOnly: true}},
		LandingZones: []ZoneSpec{
			{ID: "edh-shared", MainBU: "platform", SuperAdminGroups: []string{"sg-edh-shared-superadmins"},
				Units: []UnitSpec{{ID: "platform"}, {ID: "scada"}, {ID: "crm"}}},
			{ID: "sales", Dedicated: true, Units: []UnitSpec{{ID: "sales"}}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return ten
}

func scope(t *testing.T, ten *Tenancy, bu, stage string) Scope {
	t.Helper()
	u, ok := ten.Unit(bu)
	if !ok {
		t.Fatalf("no unit %s", bu)
	}
	st, ok := ten.Stage(stage)
	if !ok {
		t.Fatalf("no stage %s", stage)
	}
	return Scope{Unit: u, Stage: st}
}

func TestNormalise(t *testing.T) {
	cases := map[string]string{
		"crm_orders":     "crm-orders",
		"CRM.Orders":     "crm-orders",
		"crm orders":     "crm-orders",
		"  crm-orders  ": "crm-orders",
		"a_b.c d-E":      "a-b-c-d-e",
		"already-normal": "already-normal",
		"":               "",
	}
	for in, want := range cases {
		if got := Normalise(in); got != want {
			t.Errorf("Normalise(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestQualify(t *testing.T) {
	ten := demo(t)
	cases := []struct {
		bu, stage, id, want string
	}{
		{"scada", "dev", "crm_orders", "edh-shared-scada-dev-crm-orders"},
		{"scada", "dev", "CRM.Orders", "edh-shared-scada-dev-crm-orders"},
		{"scada", "dev", "edh-shared-scada-dev-crm-orders", "edh-shared-scada-dev-crm-orders"},
		{"scada", "dev", "EDH_shared_scada_dev_crm_orders", "edh-shared-scada-dev-crm-orders"},
		// Another unit's or stage's prefix is not ours: it is qualified again.
		{"scada", "dev", "edh-shared-crm-dev-orders", "edh-shared-scada-dev-edh-shared-crm-dev-orders"},
		{"scada", "run", "edh-shared-scada-dev-x", "edh-shared-scada-run-edh-shared-scada-dev-x"},
		{"platform", "qas", "audit", "edh-shared-platform-qas-audit"},
		{"sales", "dev", "leads", "sales-dev-leads"},
		{"sales", "dev", "sales-dev-leads", "sales-dev-leads"},
		{"sales", "run", "Leads_EU", "sales-run-leads-eu"},
	}
	for _, c := range cases {
		s := scope(t, ten, c.bu, c.stage)
		if got := s.Qualify(c.id); got != c.want {
			t.Errorf("%s Qualify(%q) = %q, want %q", s, c.id, got, c.want)
		}
		if !s.Owns(s.Qualify(c.id)) {
			t.Errorf("%s does not own its own qualified name %q", s, s.Qualify(c.id))
		}
	}
}

func TestQualifyOtherResources(t *testing.T) {
	ten := demo(t)
	s := scope(t, ten, "scada", "dev")
	if got, want := s.QualifyConnector("pump_sink"), "edh-shared-scada-dev-pump-sink-connector"; got != want {
		t.Errorf("QualifyConnector = %q, want %q", got, want)
	}
	if got, want := s.QualifyConnector("edh-shared-scada-dev-pump-sink-connector"), "edh-shared-scada-dev-pump-sink-connector"; got != want {
		t.Errorf("QualifyConnector(full) = %q, want %q", got, want)
	}
	if got, want := s.QualifyServiceAccount("etl", "producer"), "sa-edh-shared-scada-dev-usr-etl-producer"; got != want {
		t.Errorf("QualifyServiceAccount = %q, want %q", got, want)
	}
	if got, want := s.QualifyServiceAccount("sa-edh-shared-scada-dev-usr-etl-producer", "producer"), "sa-edh-shared-scada-dev-usr-etl-producer"; got != want {
		t.Errorf("QualifyServiceAccount(full) = %q, want %q", got, want)
	}
	d := scope(t, ten, "sales", "qas")
	if got, want := d.QualifyServiceAccount("crm", "consumer"), "sa-sales-sales-qas-usr-crm-consumer"; got != want {
		t.Errorf("dedicated QualifyServiceAccount = %q, want %q", got, want)
	}
	if got, want := SubjectName("edh-shared-scada-dev-x", "value"), "edh-shared-scada-dev-x-value"; got != want {
		t.Errorf("SubjectName = %q, want %q", got, want)
	}
}

func TestIdentifierProblem(t *testing.T) {
	good := []string{"a", "crm-orders", "x1", "1x", "a--b"}
	bad := []string{"", "-a", "a-", "a/b", "ä", "a+b", "a:b"}
	for _, id := range good {
		if p := IdentifierProblem(id); p != "" {
			t.Errorf("IdentifierProblem(%q) = %q, want none", id, p)
		}
	}
	for _, id := range bad {
		if p := IdentifierProblem(id); p == "" {
			t.Errorf("IdentifierProblem(%q) found none", id)
		}
	}
}

func TestMainAndLookups(t *testing.T) {
	ten := demo(t)
	for bu, main := range map[string]bool{"platform": true, "scada": false, "crm": false, "sales": false} {
		u, _ := ten.Unit(bu)
		if u.IsMain() != main {
			t.Errorf("%s.IsMain() = %v", bu, u.IsMain())
		}
	}
	if _, ok := ten.Unit("nope"); ok {
		t.Error("unknown unit found")
	}
	if _, ok := ten.Stage("prod"); ok {
		t.Error("unknown stage found")
	}
	var ids []string
	for _, u := range ten.Units() {
		ids = append(ids, u.ID)
	}
	if got := strings.Join(ids, ","); got != "crm,platform,sales,scada" {
		t.Errorf("Units() = %s", got)
	}
	if got := strings.Join(ten.StageNames(), ","); got != "dev,qas,run" {
		t.Errorf("StageNames() = %s", got)
	}
}

func TestNewRefusesBadSpecs(t *testing.T) {
	stages := []Stage{{Name: "dev"}}
	cases := map[string]Spec{
		"no stages":          {LandingZones: []ZoneSpec{{ID: "a", MainBU: "a", Units: []UnitSpec{{ID: "a"}}}}},
		"no zones":           {Stages: stages},
		"bad stage":          {Stages: []Stage{{Name: "Dev!"}}, LandingZones: []ZoneSpec{{ID: "a", MainBU: "a", Units: []UnitSpec{{ID: "a"}}}}},
		"duplicate unit":     {Stages: stages, LandingZones: []ZoneSpec{{ID: "a", MainBU: "x", Units: []UnitSpec{{ID: "x"}}}, {ID: "b", MainBU: "x", Units: []UnitSpec{{ID: "x"}}}}},
		"main not in zone":   {Stages: stages, LandingZones: []ZoneSpec{{ID: "a", MainBU: "z", Units: []UnitSpec{{ID: "x"}}}}},
		"no main":            {Stages: stages, LandingZones: []ZoneSpec{{ID: "a", Units: []UnitSpec{{ID: "x"}}}}},
		"dedicated mismatch": {Stages: stages, LandingZones: []ZoneSpec{{ID: "a", Dedicated: true, Units: []UnitSpec{{ID: "b"}}}}},
		"overlapping prefix": {Stages: []Stage{{Name: "dev"}, {Name: "x"}}, LandingZones: []ZoneSpec{{ID: "lz", MainBU: "crm", Units: []UnitSpec{{ID: "crm"}, {ID: "crm-dev"}}}}},
	}
	for name, spec := range cases {
		if _, err := New(spec); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// TestOwnerOfOrganisationWideNames: an account or pool name belongs to the
// scope whose prefix it carries, across every zone and stage; a name with
// no unit's prefix is outside every convention.
func TestOwnerOfOrganisationWideNames(t *testing.T) {
	ten := demo(t)
	cases := []struct {
		kind       OrgKind
		name, want string
	}{
		{OrgPool, "edh-shared-scada-dev-ci-consumer", "scada/dev"},
		{OrgPool, "edh-shared-scada-qas-ci-consumer", "scada/qas"},
		{OrgPool, "sales-run-ci-consumer", "sales/run"},
		{OrgPool, "edh-shared-platform-dev-x-metrics", "platform/dev"},
		{OrgPool, "legacy-pool", ""},
		{OrgPool, "edh-shared-nobody-dev-x-consumer", ""},
		{OrgAccount, "sa-edh-shared-crm-dev-usr-app-producer", "crm/dev"},
		{OrgAccount, "sa-sales-sales-qas-usr-app-consumer", "sales/qas"},
		{OrgAccount, "sa-sales-qas-usr-app-consumer", ""},
		{OrgAccount, "edh-shared-crm-dev-app", ""},
	}
	for _, c := range cases {
		s, ok := ten.OwnerOf(c.kind, c.name)
		got := ""
		if ok {
			got = s.String()
		}
		if got != c.want {
			t.Errorf("OwnerOf(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}

// TestPrefixesDoNotOverlapAcrossZones: organisation-wide names are looked
// up across zones, so a unit of one zone whose prefix starts another
// zone's is refused too.
func TestPrefixesDoNotOverlapAcrossZones(t *testing.T) {
	_, err := New(Spec{
		Stages: []Stage{{Name: "dev"}},
		LandingZones: []ZoneSpec{
			{ID: "edh", MainBU: "shared", Units: []UnitSpec{{ID: "shared"}}},
			{ID: "edh-shared", MainBU: "dev", Units: []UnitSpec{{ID: "dev"}}},
		},
	})
	if err == nil || !strings.Contains(err.Error(), "overlap") {
		t.Errorf("overlapping zones accepted: %v", err)
	}
}
