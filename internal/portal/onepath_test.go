package portal_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"sort"
	"strings"
	"testing"
)

// upstreams are the environment's upstreams (platform.Environment's
// fields); changing is what a call to one of their methods whose name
// starts so does.
var (
	upstreams = map[string]bool{"Topics": true, "Groups": true, "Messages": true, "Connectors": true, "Schemas": true,
		"IAM": true, "Pools": true, "APIKeys": true}
	changing = []string{"Create", "Alter", "Add", "Delete", "Update", "Commit", "Produce", "Register", "Pause", "Resume", "Restart"}
	// writeFields are the fields of gate.Change and gate.Batch whose
	// functions run inside the one write path.
	writeFields = map[string]bool{"Do": true, "Steps": true, "Ahead": true, "Send": true, "Each": true, "Announce": true}
)

// bypasses lists, for the Go files of one package (name to source), the
// upstream changes made outside the one write path: a change is inside
// it when it is in a function given to a gate.Change or gate.Batch (Do,
// Steps, Ahead, Send, Each, Announce) or to a helper of the package that
// runs its argument there, or in a function of the package called only
// from inside it.
func bypasses(t *testing.T, files map[string]string) []string {
	t.Helper()
	fset := token.NewFileSet()
	var funcs []*ast.FuncDecl
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		f, err := parser.ParseFile(fset, name, files[name], 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				funcs = append(funcs, fd)
			}
		}
	}
	// helpers: the package's functions that run a function they are
	// handed inside a write's function (admin's write, a grant's end).
	helpers := map[string]bool{}
	for _, fd := range funcs {
		params := map[string]bool{}
		for _, f := range fd.Type.Params.List {
			if _, ok := f.Type.(*ast.FuncType); ok {
				for _, n := range f.Names {
					params[n.Name] = true
				}
			}
		}
		inWrites(fd.Body, false, nil, func(n ast.Node, inside bool) {
			if c, ok := n.(*ast.CallExpr); ok && inside {
				if id, ok := c.Fun.(*ast.Ident); ok && params[id.Name] {
					helpers[fd.Name.Name] = true
				}
			}
		})
	}
	type site struct {
		pos    token.Pos
		inside bool   // lexically in a write's function
		in     string // the enclosing declared function
		what   string
	}
	calls := map[string][]site{} // a package function's name: where it is called
	var changes []site
	decls := map[string]bool{}
	for _, fd := range funcs {
		decls[fd.Name.Name] = true
		inWrites(fd.Body, false, helpers, func(n ast.Node, inside bool) {
			c, ok := n.(*ast.CallExpr)
			if !ok {
				return
			}
			at := site{pos: c.Pos(), inside: inside, in: fd.Name.Name}
			switch fun := c.Fun.(type) {
			case *ast.SelectorExpr:
				if up, ok := fun.X.(*ast.SelectorExpr); ok && upstreams[up.Sel.Name] && isChanging(fun.Sel.Name) {
					at.what = up.Sel.Name + "." + fun.Sel.Name
					changes = append(changes, at)
				}
				// An announcement of a change belongs to its write.
				if g, ok := fun.X.(*ast.SelectorExpr); ok && g.Sel.Name == "guard" && (fun.Sel.Name == "Changed" || fun.Sel.Name == "TopicChanged") {
					at.what = "guard." + fun.Sel.Name
					changes = append(changes, at)
				}
				calls[fun.Sel.Name] = append(calls[fun.Sel.Name], at)
			case *ast.Ident:
				calls[fun.Name] = append(calls[fun.Name], at)
			}
			// A function handed on runs where the call does.
			for _, a := range c.Args {
				switch a := a.(type) {
				case *ast.Ident:
					calls[a.Name] = append(calls[a.Name], at)
				case *ast.SelectorExpr:
					calls[a.Sel.Name] = append(calls[a.Sel.Name], at)
				}
			}
		})
	}
	// within: the package's functions that run only inside the path.
	within := map[string]bool{}
	for grew := true; grew; {
		grew = false
		for name := range decls {
			if within[name] || len(calls[name]) == 0 {
				continue
			}
			all := true
			for _, c := range calls[name] {
				if !c.inside && !within[c.in] && c.in != name {
					all = false
					break
				}
			}
			if all {
				within[name], grew = true, true
			}
		}
	}
	var out []string
	for _, c := range changes {
		if !c.inside && !within[c.in] {
			out = append(out, fset.Position(c.pos).String()+": "+c.what+" in "+c.in)
		}
	}
	return out
}

// inWrites visits the nodes of n, telling for each whether it is inside
// a write's function: one given to a write field, or handed to a helper.
func inWrites(n ast.Node, inside bool, helpers map[string]bool, visit func(n ast.Node, inside bool)) {
	ast.Inspect(n, func(n ast.Node) bool {
		if n == nil {
			return false
		}
		visit(n, inside)
		switch n := n.(type) {
		case *ast.CompositeLit:
			if !isWriteType(n.Type) {
				return true
			}
			for _, e := range n.Elts {
				kv, ok := e.(*ast.KeyValueExpr)
				if !ok {
					inWrites(e, inside, helpers, visit)
					continue
				}
				k, ok := kv.Key.(*ast.Ident)
				if !ok || !writeFields[k.Name] {
					inWrites(kv.Value, inside, helpers, visit)
					continue
				}
				switch v := kv.Value.(type) {
				case *ast.FuncLit:
					inWrites(v.Body, true, helpers, visit)
				default:
					// A function that makes the write's function.
					inWrites(v, true, helpers, visit)
				}
			}
			return false
		case *ast.CallExpr:
			name := ""
			switch fun := n.Fun.(type) {
			case *ast.SelectorExpr:
				name = fun.Sel.Name
			case *ast.Ident:
				name = fun.Name
			}
			if !helpers[name] {
				return true
			}
			inWrites(n.Fun, inside, helpers, visit)
			for _, a := range n.Args {
				if fl, ok := a.(*ast.FuncLit); ok {
					inWrites(fl.Body, true, helpers, visit)
				} else {
					inWrites(a, inside, helpers, visit)
				}
			}
			return false
		}
		return true
	})
}

// isWriteType tells whether a composite literal is a gate.Change or a
// gate.Batch.
func isWriteType(t ast.Expr) bool {
	sel, ok := t.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "gate" && (sel.Sel.Name == "Change" || sel.Sel.Name == "Batch")
}

func isChanging(method string) bool {
	for _, p := range changing {
		if strings.HasPrefix(method, p) {
			return true
		}
	}
	return false
}

// TestEveryUpstreamChangeTakesTheOneWritePath walks every package above
// the adapters: a change to an upstream (a topic, connector, schema,
// account, pool, key, binding, record or offset), or an announcement of
// one, made outside a function run by Guard.Write, WriteEvent or
// WriteBatch is a change without its attempt in the trail first, its
// guardrails, its budget or its outcome, and fails the test. (Begin and Done are the gate's own,
// so no other code can record an attempt itself.)
func TestEveryUpstreamChangeTakesTheOneWritePath(t *testing.T) {
	// The adapters, the gate, the stores and the test world are below the
	// path; the doors (pages, API, MCP, Terraform, the CLI) call the
	// services, whose methods this walks.
	skip := []string{"internal/platform/", "internal/dev/", "internal/gate/", "internal/store/", "internal/servicetest/",
		"cmd/", "handlers/", "api/", "assistants/", "tfprovider/", "client/",
		// The outbox's delivery of the trail's events to a platform topic:
		// what it writes is the trail, not a change of anybody's.
		"internal/events/kafka.go"}
	byPkg := map[string]map[string]string{}
	seen := 0
	walkSources(t, func(rel string, b []byte) {
		for _, s := range skip {
			if strings.HasPrefix(rel, s) {
				return
			}
		}
		dir := path.Dir(rel)
		if byPkg[dir] == nil {
			byPkg[dir] = map[string]string{}
		}
		byPkg[dir][rel] = string(b)
		seen++
	})
	if seen < 100 {
		t.Fatalf("the walk found %d files: it misses the code", seen)
	}
	for _, files := range byPkg {
		for _, b := range bypasses(t, files) {
			t.Errorf("an upstream change outside the one write path: %s", b)
		}
	}
}

// TestTheWritePathCheckFindsABypass keeps the walk honest: a change
// made beside the path is found, one inside it (directly or through a
// function only the path calls) is not.
func TestTheWritePathCheckFindsABypass(t *testing.T) {
	src := `package x
func (s *S) Good(ctx context.Context) error {
	return s.guard.Write(ctx, call, gate.Change{Event: portal.ActTopicDelete, Do: func(ctx context.Context) error {
		return s.remove(ctx)
	}})
}
func (s *S) remove(ctx context.Context) error { return call.Env.Topics.DeleteTopic(ctx, "t") }
func (s *S) Bad(ctx context.Context) error {
	return call.Env.Connectors.PauseConnector(ctx, "c")
}
func (s *S) Sneaky(ctx context.Context) error { return s.remove(ctx) }
func (s *S) Tells(ctx context.Context) { s.guard.Changed(ctx, env, "topics") }
func (s *S) Reads(ctx context.Context) error { _, err := call.Env.Topics.ListTopics(ctx); return err }
func (s *S) Helped(ctx context.Context) error {
	return s.write(ctx, func(ctx context.Context) error { return call.Env.IAM.DeleteRoleBinding(ctx, "rb") })
}
func (s *S) write(ctx context.Context, do func(ctx context.Context) error) error {
	return s.guard.Write(ctx, call, gate.Change{Steps: func(ctx context.Context, _ *gate.Write) ([]trail.Change, error) { return nil, do(ctx) }})
}
`
	got := strings.Join(bypasses(t, map[string]string{"x.go": src}), "\n")
	if strings.Count(got, "\n") != 2 || !strings.Contains(got, "Connectors.PauseConnector in Bad") || !strings.Contains(got, "Topics.DeleteTopic in remove") ||
		!strings.Contains(got, "guard.Changed in Tells") {
		t.Errorf("bypasses = %q, want PauseConnector in Bad, DeleteTopic in remove (Sneaky calls it outside the path) and Changed in Tells", got)
	}
}
