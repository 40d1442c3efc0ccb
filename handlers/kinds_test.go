package handlers_test

import (
	"net/http"
	"testing"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/views"
)

// TestKindsHaveTheirPages: every entry of a unit's navigation has its
// page at the address the navigation links to (a kind's at its declared
// list segment), so that a kind's declaration and the page table agree.
func TestKindsHaveTheirPages(t *testing.T) {
	gets := map[string]bool{}
	for _, rt := range newSite(t).e.Routes() {
		if rt.Method == http.MethodGet {
			gets[rt.Path] = true
		}
	}
	nav := map[string]bool{}
	for _, r := range views.Resources() {
		nav[r.ID] = true
		if !gets["/:bu/:stage/"+r.ID] {
			t.Errorf("the navigation links to %s, which has no page", r.ID)
		}
	}
	for _, k := range portal.KindInfos() {
		if k.Nav > 0 && !nav[k.Plural] {
			t.Errorf("kind %s declares a place in the navigation but is not there", k.Change)
		}
	}
}
