package portal_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// TestActionsAreDeclared: every declared action has a kind (its own
// kind's, for a kind's verb) and a past tense, and comes back by its
// name; a name not declared comes back undeclared. That an action
// handed to the guard or the trail is declared, the compiler checks:
// only this package makes one.
func TestActionsAreDeclared(t *testing.T) {
	shape := regexp.MustCompile(`^[a-z][a-z_-]*\.[a-z][a-z_-]*$`)
	for _, a := range portal.Actions() {
		if !shape.MatchString(a.String()) || a.Past() == "" || a.Kind() == "" || !a.Declared() {
			t.Errorf("action %q: kind %q, past tense %q", a, a.Kind(), a.Past())
		}
		if got := portal.ActionNamed(a.String()); got != a {
			t.Errorf("ActionNamed(%q) = %#v, not the declared one", a, got)
		}
	}
	for _, k := range portal.KindInfos() {
		for _, v := range k.Verbs {
			if v.Kind() != k.Change {
				t.Errorf("kind %s lists %s, another kind's action", k.Change, v)
			}
		}
	}
	if a := portal.ActionNamed("topic.crate"); a.Declared() || a.String() != "topic.crate" {
		t.Errorf("an undeclared name came back as %#v", a)
	}
	if r := portal.RouteAction("POST /:bu/:stage/topic"); r.Declared() || r.Past() != "" {
		t.Errorf("a route's action is declared: %#v", r)
	}
}

// TestActionConstantsAreDeclared: every Action the package declares (a
// kind's, beside it, or the platform's) is listed, in its kind's Verbs
// or the platform's, so that its stored name comes back as it (an
// action left out of the lists would read back undeclared), and each
// listed one is declared once.
func TestActionConstantsAreDeclared(t *testing.T) {
	fset := token.NewFileSet()
	matches, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, path := range matches {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, name := range vs.Names {
					if i >= len(vs.Values) {
						continue
					}
					lit, ok := vs.Values[i].(*ast.CompositeLit)
					if !ok {
						continue
					}
					if id, isIdent := lit.Type.(*ast.Ident); !isIdent || id.Name != "Action" {
						continue
					}
					if len(lit.Elts) != 2 {
						t.Errorf("%s: %s declares no past tense", fset.Position(name.Pos()), name.Name)
						continue
					}
					v, _ := lit.Elts[0].(*ast.BasicLit)
					if v == nil {
						t.Errorf("%s: %s is not named by a literal", fset.Position(name.Pos()), name.Name)
						continue
					}
					n := strings.Trim(v.Value, `"`)
					names = append(names, n)
					if !portal.ActionNamed(n).Declared() {
						t.Errorf("%s: %s (%q) is in neither its kind's Verbs nor the platform's list", fset.Position(name.Pos()), name.Name, n)
					}
				}
			}
		}
	}
	slices.Sort(names)
	if len(slices.Compact(slices.Clone(names))) != len(names) {
		t.Errorf("an action is declared twice: %v", names)
	}
	if len(names) != len(portal.Actions()) {
		t.Errorf("%d Action declarations for %d listed actions: each listed action is declared once", len(names), len(portal.Actions()))
	}
}
