package admin_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/config"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/adminarea"
	"github.com/edh-platform/rms-portal/internal/portal/topic"
	"github.com/edh-platform/rms-portal/internal/servicetest"
	"github.com/edh-platform/rms-portal/internal/store"
	"github.com/edh-platform/rms-portal/internal/tenancy"
	"github.com/edh-platform/rms-portal/internal/worker"
)

// TestOnboardingIsInForceAndValidated: a unit onboarded by a platform admin
// gives roles at once; bad ids, taken ids, overlapping prefixes, dedicated
// zones and empty group lists are refused without storing anything; every
// attempt is audited.
func TestOnboardingIsInForceAndValidated(t *testing.T) {
	w := servicetest.New(t)
	frank := w.AsGroups("platform-admins")
	for _, c := range []struct {
		o    adminarea.Onboarding
		want string
	}{
		{adminarea.Onboarding{ID: "", LandingZone: "edh-shared", Groups: adminarea.UnitGroups{Viewer: []string{"g"}}}, "MISSING_PARAMETER:id"},
		{adminarea.Onboarding{ID: "Bad_ID", LandingZone: "edh-shared", Groups: adminarea.UnitGroups{Viewer: []string{"g"}}}, "INVALID_PARAMETER:id"},
		{adminarea.Onboarding{ID: "admin", LandingZone: "edh-shared", Groups: adminarea.UnitGroups{Viewer: []string{"g"}}}, "INVALID_PARAMETER:id"},
		{adminarea.Onboarding{ID: "scada", LandingZone: "edh-shared", Groups: adminarea.UnitGroups{Viewer: []string{"g"}}}, "ALREADY_EXISTS"},
		{adminarea.Onboarding{ID: "scada-dev", LandingZone: "edh-shared", Groups: adminarea.UnitGroups{Viewer: []string{"g"}}}, "INVALID_PARAMETER:id"},
		{adminarea.Onboarding{ID: "extra", LandingZone: "sales", Groups: adminarea.UnitGroups{Viewer: []string{"g"}}}, "INVALID_PARAMETER:landing_zone"},
		{adminarea.Onboarding{ID: "extra", LandingZone: "edh-shared", Groups: adminarea.UnitGroups{Viewer: []string{" "}}}, "INVALID_PARAMETER:groups.viewer INVALID_PARAMETER:groups"},
	} {
		_, err := w.Admin.Onboard(frank, c.o)
		if got := kinds(err); got != c.want {
			t.Errorf("onboard %+v: %s, want %s", c.o, got, c.want)
		}
	}
	if recs, _ := w.Store.UnitRecords(context.Background()); len(recs) != 0 {
		t.Fatalf("refused onboardings stored %v", recs)
	}

	u, err := w.Admin.Onboard(frank, adminarea.Onboarding{ID: "billing", LandingZone: "edh-shared",
		Groups: adminarea.UnitGroups{Developer: []string{"sg-scada-developers", "SG-SCADA-DEVELOPERS"}}})
	if err != nil {
		t.Fatal(err)
	}
	if u.Source != tenancy.FromPortal || len(u.Groups.Developer) != 1 || len(u.Stages) != 3 || u.Stages[0].Prefix != "edh-shared-billing-dev-" {
		t.Errorf("onboarded %+v", u)
	}
	carol := w.AsGroups("sg-scada-developers")
	if _, err := w.Topics.Create(carol, portal.Scope{BU: "billing", Stage: "dev"}, topic.NewTopic{Name: "ledger"}); err != nil {
		t.Errorf("carol's create in billing: %v", err)
	}
	events := w.AuditEvents(t)
	var onboards, refusals int
	for _, e := range events {
		if e.Action == portal.ActBusinessUnitOnboard {
			if e.Outcome == "ok" {
				onboards++
			} else {
				refusals++
			}
		}
	}
	if onboards != 1 || refusals != 7 {
		t.Errorf("audited %d onboardings and %d refusals, want 1 and 7", onboards, refusals)
	}
}

func kinds(err error) string {
	var out []string
	for _, e := range portal.Problems(err) {
		s := string(e.Kind)
		if e.Field != "" {
			s += ":" + e.Field
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

// TestReadOnlySwitch: a switch makes a zone's stage read-only for
// Developers (the refusal names the reason), leaves other zones alone,
// needs a reason and a future end, and records before and after.
func TestReadOnlySwitch(t *testing.T) {
	w := servicetest.New(t)
	frank := w.AsGroups("platform-admins")
	if _, err := w.Admin.SetReadOnly(frank, "edh-shared", "qas", adminarea.ReadOnlyChange{ReadOnly: true}); kinds(err) != "INVALID_PARAMETER:reason" {
		t.Errorf("no reason: %v", err)
	}
	if _, err := w.Admin.SetReadOnly(frank, "edh-shared", "qas", adminarea.ReadOnlyChange{ReadOnly: true, Reason: "r", Until: time.Now().Add(-time.Hour)}); kinds(err) != "INVALID_PARAMETER:until" {
		t.Errorf("past end: %v", err)
	}
	if _, err := w.Admin.SetReadOnly(frank, "nowhere", "qas", adminarea.ReadOnlyChange{ReadOnly: true, Reason: "r"}); !portal.Is(err, portal.NotFound) {
		t.Errorf("unknown zone: %v", err)
	}
	if _, err := w.Admin.SetReadOnly(frank, "edh-shared", "qas", adminarea.ReadOnlyChange{ReadOnly: true, Reason: "Quarterly freeze", Until: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	carol := w.AsGroups("sg-scada-developers")
	_, err := w.Topics.Create(carol, portal.Scope{BU: "scada", Stage: "qas"}, topic.NewTopic{Name: "frozen"})
	if !portal.Is(err, portal.ReadOnlyEnvironment) || !strings.Contains(err.Error(), "Quarterly freeze") || !strings.Contains(err.Error(), "until") {
		t.Errorf("carol in a frozen stage: %v", err)
	}
	sam := w.AsGroups("sg-sales-developers")
	if _, err := w.Topics.Create(sam, portal.Scope{BU: "sales", Stage: "qas"}, topic.NewTopic{Name: "thawed"}); err != nil {
		t.Errorf("sales/qas is not frozen: %v", err)
	}
	var found bool
	for _, e := range w.AuditEvents(t) {
		if e.Action == portal.ActReadOnlySet && e.Outcome == "ok" && e.LandingZone == "edh-shared" && e.Stage == "qas" {
			found = len(e.Changes) >= 2 && e.Changes[0].Field == "read_only" && e.Changes[0].Before == "false" && e.Changes[0].After == "true"
		}
	}
	if !found {
		t.Error("the switch is not audited with before and after")
	}
}

// TestSwitchEndsByItself: after its end, the configured default applies.
func TestSwitchEndsByItself(t *testing.T) {
	ten, err := tenancy.New(tenancy.Spec{
		Stages:       []tenancy.Stage{{Name: "dev"}, {Name: "run", ReadOnly: true}},
		LandingZones: []tenancy.ZoneSpec{{ID: "z", MainBU: "a", Units: []tenancy.UnitSpec{{ID: "a"}}}},
		Switches: map[string]map[string]tenancy.Switch{"z": {
			"dev": {ReadOnly: true, Reason: "freeze", Until: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)},
			"run": {ReadOnly: false, Reason: "hotfix window"}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	z, _ := ten.LandingZone("z")
	before, _ := ten.StageIn(z, "dev", time.Date(2026, 11, 30, 23, 59, 0, 0, time.UTC))
	after, _ := ten.StageIn(z, "dev", time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))
	run, _ := ten.StageIn(z, "run", time.Now())
	if !before.ReadOnly || before.Reason != "freeze" || after.ReadOnly || after.Reason != "" || run.ReadOnly {
		t.Errorf("before %+v, after %+v, run %+v", before, after, run)
	}
}

// TestReplicasFollowOneAnother: two replicas' tenancies over one store; a
// unit onboarded through one is in force in the other once it hears the
// announcement (or at its next reload).
func TestReplicasFollowOneAnother(t *testing.T) {
	w := servicetest.New(t)
	cfg, err := config.Dev(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	base, _ := cfg.Tenancy()
	other := tenancy.NewLive(base)
	sync := worker.NewTenancySync(cfg.TenancySpec(), other, w.Store, w.Store, servicetest.Discard())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	heard := make(chan string, 4)
	msgs, err := w.Store.Subscribe(ctx, store.ChannelTenancy)
	if err != nil {
		t.Fatal(err)
	}
	go sync.Run(ctx)
	if _, err := w.Admin.Onboard(w.AsGroups("platform-admins"), adminarea.Onboarding{ID: "billing", LandingZone: "edh-shared",
		Groups: adminarea.UnitGroups{Viewer: []string{"g"}}}); err != nil {
		t.Fatal(err)
	}
	go func() {
		for m := range msgs {
			heard <- m
		}
	}()
	select {
	case m := <-heard:
		if m != "units" {
			t.Errorf("announcement %q", m)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no announcement")
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, ok := other.Current().Unit("billing"); ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the other replica did not take the unit")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestOverlayLeavesOutWhatNoLongerFits: a stored unit whose zone is gone,
// or whose id the file now defines, is left out with a reason.
func TestOverlayLeavesOutWhatNoLongerFits(t *testing.T) {
	cfg, err := config.Dev(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	ten, skipped := worker.Overlay(cfg.TenancySpec(), []store.UnitRecord{
		{ID: "billing", LandingZone: "edh-shared", Viewer: []string{"g"}},
		{ID: "scada", LandingZone: "edh-shared", Viewer: []string{"g"}},
		{ID: "ghost", LandingZone: "gone", Viewer: []string{"g"}},
	}, []store.SwitchRecord{{LandingZone: "gone", Stage: "dev", ReadOnly: true}, {LandingZone: "edh-shared", Stage: "nostage"}})
	if _, ok := ten.Unit("billing"); !ok || len(skipped) != 2 {
		t.Errorf("units %d, skipped %v", len(ten.Units()), skipped)
	}
	if u, _ := ten.Unit("scada"); u.Source != tenancy.FromConfiguration {
		t.Errorf("scada's source %q", u.Source)
	}
}
