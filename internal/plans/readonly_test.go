package plans_test

import (
	"strings"
	"testing"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/adminarea"
	"github.com/edh-platform/rms-portal/internal/portal/ascode"
	"github.com/edh-platform/rms-portal/internal/servicetest"
)

// TestAStageSwitchedReadOnlyMidApplyRefusesTheStepsAfter: each step of an
// apply enters as its kind's own write, against the tenancy in force, so
// a freeze switched on while an apply runs holds for every step after it.
func TestAStageSwitchedReadOnlyMidApplyRefusesTheStepsAfter(t *testing.T) {
	w := servicetest.New(t)
	dev := servicetest.As("scada", portal.Developer)
	scope := portal.Scope{BU: "scada", Stage: "dev"}
	plan, err := w.Plans.Plan(dev, scope, unitDoc("86400000"))
	if err != nil {
		t.Fatal(err)
	}
	frank := w.AsGroups("platform-admins")
	w.Clusters["edh-shared/dev"].OnCreate(func(name string) {
		if name != "edh-shared-scada-dev-iac-orders" {
			return
		}
		// The first step has made its topic; the freeze comes now.
		if _, err := w.Admin.SetReadOnly(frank, "edh-shared", "dev", adminarea.ReadOnlyChange{ReadOnly: true, Reason: "Incident 42"}); err != nil {
			t.Errorf("switching dev read-only: %v", err)
		}
	})
	applied, err := w.Plans.Apply(dev, scope, unitDoc("86400000"), plan.Fingerprint)
	if err != nil {
		t.Fatal(err)
	}
	if len(applied.Changes) != 3 {
		t.Fatalf("the apply's steps:\n%s", changes(applied))
	}
	for i, c := range applied.Changes {
		switch {
		case i == 0 && c.Outcome != ascode.OutcomeApplied:
			t.Errorf("the step before the freeze: %s %s -> %s %v", c.Kind, c.Name, c.Outcome, c.Error)
		case i > 0 && (c.Outcome == ascode.OutcomeApplied || c.Error == nil || c.Error.Kind != portal.ReadOnlyEnvironment || !strings.Contains(c.Error.Message, "Incident 42")):
			t.Errorf("a step after the freeze: %s %s -> %s %v", c.Kind, c.Name, c.Outcome, c.Error)
		}
	}
	if _, err := w.Schemas.Get(dev, scope, "iac-orders-value", "latest"); !portal.Is(err, portal.NotFound) {
		t.Errorf("the schema was registered after the freeze: %v", err)
	}
	if _, err := w.Connectors.Get(dev, scope, "iac-orders-gen", false); !portal.Is(err, portal.NotFound) {
		t.Errorf("the connector was made after the freeze: %v", err)
	}
	refused := 0
	for _, e := range w.AuditEvents(t) {
		if e.Outcome == string(portal.ReadOnlyEnvironment) && e.Stage == "dev" {
			refused++
		}
	}
	if refused != 2 {
		t.Errorf("%d refused steps in the audit trail, want 2", refused)
	}
}
