package portal_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// TestKindsAreComplete: every kind is declared whole (its names, its
// segments, a title), each of its names leads to it alone, a documented
// kind's plan name is its document name in kebab case, and every declared
// action acts on a declared kind (or on one of the few things that are not
// resources: a document's apply, a unit, a stage's switch, a session, a
// budget, a webhook).
func TestKindsAreComplete(t *testing.T) {
	kebab := regexp.MustCompile(`^[a-z]+(-[a-z]+)*$`)
	seen := map[string]string{}
	places := map[int]string{}
	for _, k := range portal.KindInfos() {
		if k.Nav > 0 && (k.Titles == "" || k.Icon == "" || places[k.Nav] != "") {
			t.Errorf("kind %s has a place in the navigation (%d) without a label or an icon, or another kind's", k.Change, k.Nav)
		}
		places[k.Nav] = k.Change
		if (k.Policy != "") != (k.PolicyView != nil) || k.Policy != "" && strings.Contains(", "+portal.PolicyFields(k.Policy)+",", ", ,") {
			t.Errorf("kind %s: policies name it %q, and see %T (every field with its cel name)", k.Change, k.Policy, k.PolicyView)
		}
		if !kebab.MatchString(k.Change) || !kebab.MatchString(k.Plural) || k.Title == "" || (k.Item != "" && !kebab.MatchString(k.Item)) {
			t.Errorf("kind %+v is not declared whole", k)
		}
		if k.Document != "" {
			var b strings.Builder
			for i, r := range k.Document {
				if r >= 'A' && r <= 'Z' && i > 0 {
					b.WriteByte('-')
				}
				b.WriteString(strings.ToLower(string(r)))
			}
			if b.String() != k.Change || portal.ChangeKind(k.Document) != k.Change || portal.DocumentKind(k.Change) != k.Document {
				t.Errorf("kind %s: plans name it %q", k.Document, k.Change)
			}
		}
		for _, name := range append([]string{k.Document, k.Change, k.Plural, k.Item}, k.Aliases...) {
			if name == "" {
				continue
			}
			if other, ok := seen[strings.ToLower(name)]; ok && other != k.Change {
				t.Errorf("name %q is both %s's and %s's", name, other, k.Change)
			}
			seen[strings.ToLower(name)] = k.Change
			if got, ok := portal.KindNamed(name); !ok || got.Change != k.Change {
				t.Errorf("KindNamed(%q) = %s, want %s", name, got.Change, k.Change)
			}
		}
	}
	if _, ok := portal.KindNamed("nothing"); ok {
		t.Error("an unknown name found a kind")
	}
	notResources := []string{"resources", "business_unit", "read_only", "session", "budget", "webhook"}
	acted := map[string]bool{}
	for _, a := range portal.Actions() {
		acted[a.Kind()] = true
		if _, ok := portal.KindNamed(a.Kind()); !ok && !slices.Contains(notResources, a.Kind()) {
			t.Errorf("action %s acts on no declared kind", a)
		}
	}
	for _, k := range portal.ResourceKinds() {
		if !acted[portal.ChangeKind(k)] {
			t.Errorf("documented kind %s has no declared action", k)
		}
	}
}
