package portal_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// TestActionsAreDeclared: every declared action has a kind and a past
// tense, and every action the code hands to the audit trail as a literal
// (an argument of the calls that take one, an AuditEvent's Action) is
// declared, so that no CloudEvent type is made up from an unknown verb.
func TestActionsAreDeclared(t *testing.T) {
	shape := regexp.MustCompile(`^[a-z][a-z_-]*\.[a-z][a-z_-]*$`)
	for _, a := range portal.Actions() {
		if !shape.MatchString(string(a)) || a.Past() == "" || a.Kind() == "" {
			t.Errorf("action %q: kind %q, past tense %q", a, a.Kind(), a.Past())
		}
	}
	// The calls whose argument names an action: the guard's, and the
	// services' helpers that pass it on.
	takers := map[string]bool{"Begin": true, "Record": true, "ResumeWrite": true, "EnterWrite": true, "EnterOwner": true, "Writes": true,
		"Event": true, "Check": true, "CheckAll": true, "Refused": true, "enterWrite": true, "begin": true, "record": true, "decision": true,
		"review": true, "decide": true, "close": true, "approve": true, "lockToWrite": true, "findToWrite": true, "enterData": true,
		"lifecycle": true, "create": true, "enter": true, "event": true, "resetAutoRestart": true, "checkVersion": true}
	seen := 0
	check := func(fset *token.FileSet, lit *ast.BasicLit) {
		v, err := strconv.Unquote(lit.Value)
		if err != nil || !shape.MatchString(v) {
			return
		}
		seen++
		if !portal.Action(v).Declared() {
			t.Errorf("%s: action %q is not declared (its kind's Verbs in internal/portal/kinds.go, or internal/portal/actions.go)", fset.Position(lit.Pos()), v)
		}
	}
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.HasSuffix(path, "_templ.go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				name := ""
				switch fn := n.Fun.(type) {
				case *ast.SelectorExpr:
					name = fn.Sel.Name
				case *ast.Ident:
					name = fn.Name
				}
				if takers[name] {
					for _, a := range n.Args {
						if lit, ok := a.(*ast.BasicLit); ok && lit.Kind == token.STRING {
							check(fset, lit)
						}
					}
				}
			case *ast.KeyValueExpr:
				if k, ok := n.Key.(*ast.Ident); ok && k.Name == "Action" {
					if lit, ok := n.Value.(*ast.BasicLit); ok && lit.Kind == token.STRING {
						check(fset, lit)
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen < 100 {
		t.Errorf("found only %d action literals: the walk misses the code", seen)
	}
}

// TestActionConstantsAreDeclared: every Action constant of the portal
// package (a kind's, declared beside it, or the platform's) names a
// declared action, so a constant cannot stand for a verb its kind does
// not declare with a past tense.
func TestActionConstantsAreDeclared(t *testing.T) {
	fset := token.NewFileSet()
	matches, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	found := 0
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
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "Action" {
					continue
				}
				for i, name := range vs.Names {
					lit, ok := vs.Values[i].(*ast.BasicLit)
					if !ok {
						t.Errorf("%s: %s is not a literal", fset.Position(name.Pos()), name.Name)
						continue
					}
					v, _ := strconv.Unquote(lit.Value)
					found++
					if !portal.Action(v).Declared() {
						t.Errorf("%s: %s = %q is not declared by its kind's Verbs", fset.Position(name.Pos()), name.Name, v)
					}
				}
			}
		}
	}
	if found != len(portal.Actions()) {
		t.Errorf("%d Action constants for %d declared actions: each declared action has one constant", found, len(portal.Actions()))
	}
}
