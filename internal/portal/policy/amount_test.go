package policy

import (
	"testing"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// TestParseAmount: counts are whole numbers; storage is an amount with a
// unit, GiB when none is written.
func TestParseAmount(t *testing.T) {
	for _, c := range []struct {
		dim, in string
		want    int64
		bad     bool
	}{
		{portal.BudgetTopics, "12", 12, false},
		{portal.BudgetTopics, "1.5", 0, true},
		{portal.BudgetTopics, "-1", 0, true},
		{portal.BudgetStorageBytes, "500", 500 << 30, false},
		{portal.BudgetStorageBytes, "1.5 TiB", 3 << 39, false},
		{portal.BudgetStorageBytes, "200GB", 200e9, false},
		{portal.BudgetStorageBytes, "1024 b", 1024, false},
		{portal.BudgetStorageBytes, "lots", 0, true},
		{portal.BudgetStorageBytes, "5 parsecs", 0, true},
		{portal.BudgetStorageBytes, "-3 GiB", 0, true},
	} {
		got, err := ParseAmount(c.dim, c.in)
		if (err != nil) != c.bad || got != c.want {
			t.Errorf("%s %q: %d %v", c.dim, c.in, got, err)
		}
	}
}
