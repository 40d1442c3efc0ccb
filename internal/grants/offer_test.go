package grants_test

import (
	"slices"
	"testing"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/servicetest"
)

// TestOfferListsWhatExists: any role of a unit sees the other units of
// its landing zone (never another zone's, never its own) and an owner's
// topics by identifier; someone without a role in the unit sees nothing.
func TestOfferListsWhatExists(t *testing.T) {
	w := servicetest.New(t, orders, "edh-shared-scada-dev-readings", "edh-shared-crm-dev-leads", "mfg-shared-plant-dev-parts")
	for _, role := range []portal.Role{portal.Viewer, portal.Developer, portal.Admin, portal.SuperAdmin} {
		ctx := servicetest.As("crm", role)
		o, err := w.Grants.Offer(ctx, crmDev, "scada")
		if err != nil {
			t.Fatalf("%s: %v", role, err)
		}
		if !slices.Contains(o.Units, "scada") || slices.Contains(o.Units, "crm") || slices.Contains(o.Units, "plant") {
			t.Errorf("%s: units %v", role, o.Units)
		}
		if !slices.Contains(o.Topics, "readings") || slices.Contains(o.Topics, "leads") || slices.ContainsFunc(o.Topics, func(s string) bool { return s == "edh-shared-scada-dev-readings" }) {
			t.Errorf("%s: scada's topics %v", role, o.Topics)
		}
	}
	if o, err := w.Grants.Offer(servicetest.As("crm", portal.Admin), crmDev, ""); err != nil || len(o.Topics) != 0 || len(o.Units) == 0 {
		t.Errorf("without an owner: %+v %v", o, err)
	}
	if _, err := w.Grants.Offer(servicetest.As("scada", portal.Admin), crmDev, "scada"); err == nil {
		t.Error("someone without a role in crm was offered its view")
	}
}
