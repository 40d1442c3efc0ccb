package api_test

import (
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/api"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/wire"
)

// TestKindsHaveTheirRoutes: the API serves each kind at the addresses its
// declaration gives (which portalctl reads): its list, and one by one
// where it is readable; a kind listed only has no item read.
func TestKindsHaveTheirRoutes(t *testing.T) {
	gets := map[string]bool{}
	for _, rt := range newServer(t, nil).h.(*echo.Echo).Routes() {
		if rt.Method == http.MethodGet {
			gets[rt.Path] = true
		}
	}
	item := func(segment string) bool {
		for path := range gets {
			rest, ok := strings.CutPrefix(path, api.Base+"/:bu/:stage/"+segment+"/:")
			if ok && !strings.Contains(rest, "/") || ok && segment == "schema" && strings.HasSuffix(rest, "/:version") {
				return true
			}
		}
		return false
	}
	for _, k := range portal.KindInfos() {
		if len(k.Columns) == 0 {
			continue // not one of a unit's lists (a policy is the admin area's)
		}
		if !gets[api.Base+"/:bu/:stage/"+k.Plural] {
			t.Errorf("kind %s: no list at %s", k.Change, k.Plural)
		}
		if got := k.Item != "" && item(k.Item); got != k.Readable {
			t.Errorf("kind %s: an item read at %q is %v, the declaration says %v", k.Change, k.Item, got, k.Readable)
		}
	}
}

// TestPolicyKindsAreDocumented: the API document's policy kinds are the
// kinds that declare a policy view, in order.
func TestPolicyKindsAreDocumented(t *testing.T) {
	for _, c := range wire.Components() {
		if c.Name != "Policy" {
			continue
		}
		f, ok := reflect.TypeOf(c.Value).FieldByName("Kind")
		if !ok {
			t.Fatal("Policy has no Kind")
		}
		if got, want := f.Tag.Get("enum"), strings.Join(portal.PolicyKinds(), ","); got != want {
			t.Errorf("the document's policy kinds %s, the declared ones %s", got, want)
		}
		return
	}
	t.Error("no Policy schema")
}
