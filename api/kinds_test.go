package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/api"
	"github.com/edh-platform/rms-portal/api/openapi"
	"github.com/edh-platform/rms-portal/internal/portal"
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
	doc, err := openapi.ReadDocument()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	kind, _ := doc.Schemas["PolicyKind"].(map[string]any)
	values, _ := kind["enum"].([]any)
	for _, v := range values {
		s, _ := v.(string)
		got = append(got, s)
	}
	if want := portal.PolicyKinds(); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("the document's policy kinds %v, the declared ones %v", got, want)
	}
}
