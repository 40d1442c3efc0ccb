package document

import (
	"testing"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// TestEveryKindHasASpec: every kind documents declare (portal's kinds)
// has its spec here, so that a kind cannot be declared without the fields
// a document gives it.
func TestEveryKindHasASpec(t *testing.T) {
	for _, k := range portal.ResourceKinds() {
		if newSpec(k) == nil {
			t.Errorf("kind %s has no spec in document", k)
		}
	}
}
