package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/store"
)

func testAlerts(t *testing.T, s store.Store) {
	ctx := context.Background()
	rule := store.AlertRuleRecord{Zone: "z", Stage: "dev", BU: "crm", Name: "lag", Kind: "lag_time", Target: "*", Threshold: 300, For: 5 * time.Minute,
		Enabled: true, UpdatedBy: "ada", UpdatedAt: base}
	for _, r := range []store.AlertRuleRecord{rule, {Zone: "z", Stage: "dev", BU: "scada", Name: "keys", Kind: "key_expiring", Threshold: 7, Enabled: true},
		{Zone: "z", Stage: "run", BU: "crm", Name: "lag", Kind: "lag_time"}} {
		if err := s.PutAlertRule(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	rule.SilencedUntil, rule.SilenceReason, rule.SilencedBy, rule.Threshold = base.Add(time.Hour), "maintenance", "bob", 600
	if err := s.PutAlertRule(ctx, rule); err != nil {
		t.Fatal(err)
	}
	crm, err := s.AlertRules(ctx, "z", "dev", "crm")
	if err != nil || len(crm) != 1 || crm[0].Threshold != 600 || crm[0].For != 5*time.Minute || !crm[0].SilencedUntil.Equal(base.Add(time.Hour)) ||
		crm[0].SilenceReason != "maintenance" || !crm[0].Enabled || crm[0].Target != "*" {
		t.Errorf("crm's rules: %+v %v", crm, err)
	}
	if all, _ := s.AlertRules(ctx, "z", "dev", ""); len(all) != 2 {
		t.Errorf("every unit's: %+v", all)
	}
	if everywhere, _ := s.AlertRules(ctx, "", "", ""); len(everywhere) != 3 || everywhere[2].Stage != "run" {
		t.Errorf("every stage's: %+v", everywhere)
	}
	if err := s.DeleteAlertRule(ctx, "z", "dev", "crm", "lag"); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteAlertRule(ctx, "z", "dev", "crm", "lag"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("deleted twice: %v", err)
	}

	a := store.AlertRecord{ID: "al-1", Zone: "z", Stage: "dev", BU: "crm", Rule: "lag", Kind: "lag_time", Subject: "billing", State: "pending", Value: "6m", Since: base}
	if err := s.SaveAlert(ctx, a); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveAlert(ctx, store.AlertRecord{ID: "al-2", Zone: "z", Stage: "dev", BU: "crm", Rule: "lag", Subject: "old", State: "resolved", Since: base.Add(-time.Hour)}); err != nil {
		t.Fatal(err)
	}
	a.State, a.FiredAt, a.Silenced = "firing", base.Add(5*time.Minute), true
	if err := s.SaveAlert(ctx, a); err != nil {
		t.Fatal(err)
	}
	open, err := s.OpenAlerts(ctx, "z", "dev")
	if err != nil || len(open) != 1 || open[0].State != "firing" || !open[0].FiredAt.Equal(base.Add(5*time.Minute)) || !open[0].Silenced || open[0].Subject != "billing" {
		t.Errorf("open: %+v %v", open, err)
	}
	if all, _ := s.OpenAlerts(ctx, "", ""); len(all) != 1 {
		t.Errorf("open everywhere: %+v", all)
	}
	if none, _ := s.OpenAlerts(ctx, "z", "run"); len(none) != 0 {
		t.Errorf("open in run: %+v", none)
	}
	hist, err := s.AlertHistory(ctx, "z", "dev", "crm", 10)
	if err != nil || len(hist) != 2 || hist[0].ID != "al-1" || hist[1].ID != "al-2" {
		t.Errorf("history: %+v %v", hist, err)
	}
	if other, _ := s.AlertHistory(ctx, "z", "dev", "scada", 10); len(other) != 0 {
		t.Errorf("another unit's history: %+v", other)
	}
	if firing, err := s.FiringAlerts(ctx, []string{"crm", "plant"}, 10); err != nil || len(firing) != 1 || firing[0].ID != "al-1" {
		t.Errorf("firing: %+v %v", firing, err)
	}
	if none, err := s.FiringAlerts(ctx, []string{"scada"}, 10); err != nil || len(none) != 0 {
		t.Errorf("scada's firing: %+v %v", none, err)
	}
}
