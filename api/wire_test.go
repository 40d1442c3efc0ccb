package api

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"github.com/edh-platform/rms-portal/internal/document"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/wire"

	"github.com/getkin/kin-openapi/openapi3"
)

// TestEveryBodyIsAWireType: each request and response body the document
// describes is a named schema, and so generated from a wire type; a body
// written inline in a path would be the contract written twice.
func TestEveryBodyIsAWireType(t *testing.T) {
	doc, err := openapi3.NewLoader().LoadFromData(DocumentForTest())
	if err != nil {
		t.Fatal(err)
	}
	inline := func(where string, content openapi3.Content) {
		for ct, mt := range content {
			if mt.Schema == nil || mt.Schema.Ref != "" || ct != "application/json" {
				continue
			}
			t.Errorf("%s: the %s body is written inline; declare it in internal/wire and refer to it", where, ct)
		}
	}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			where := method + " " + path
			if op.RequestBody != nil && op.RequestBody.Value != nil {
				inline(where+" (request)", op.RequestBody.Value.Content)
			}
			for status, r := range op.Responses.Map() {
				if r.Value != nil && r.Ref == "" {
					inline(where+" "+status, r.Value.Content)
				}
			}
		}
	}
	for name, r := range doc.Components.Responses {
		inline("response "+name, r.Value.Content)
	}
}

// TestAnswersAreWireTypes: the API writes and reads bodies only as the
// wire types; a map or an anonymous struct in a handler would be a shape
// the document does not know.
func TestAnswersAreWireTypes(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") || name == "docs.go" {
			continue
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.StructType:
				for _, field := range n.Fields.List {
					if field.Tag != nil && strings.Contains(field.Tag.Value, "json:") {
						t.Errorf("%s: a JSON shape declared outside internal/wire", fset.Position(n.Pos()))
						break
					}
				}
			case *ast.CallExpr:
				sel, ok := n.Fun.(*ast.SelectorExpr)
				if !ok || sel.Sel.Name != "JSON" {
					return true
				}
				for _, arg := range n.Args {
					if lit, ok := arg.(*ast.CompositeLit); ok {
						if _, isMap := lit.Type.(*ast.MapType); isMap {
							t.Errorf("%s: an answer built as a map, not a wire type", fset.Position(arg.Pos()))
						}
					}
				}
			}
			return true
		})
	}
}

// TestResourceDocumentIsWhatPlansRead: a document written as the wire
// type says is what plan and apply read, field for field.
func TestResourceDocumentIsWhatPlansRead(t *testing.T) {
	in := wire.ResourceDocument{Prune: true, Force: true, Items: []wire.DocumentItem{{
		APIVersion: "portal/v1", Kind: "Topic",
		Metadata: wire.DocumentMetadata{Name: "orders", Labels: map[string]string{"team": "billing"}, Description: "Orders"},
		Spec:     map[string]any{"partitions": 3, "config": map[string]any{"retention.ms": "86400000"}},
	}}}
	body, _ := json.Marshal(in)
	doc, err := document.Read(body)
	if err != nil {
		t.Fatalf("document.Read refused the wire type's document: %v\n%s", err, body)
	}
	if !doc.Prune || !doc.Force || len(doc.Resources) != 1 {
		t.Fatalf("read %+v", doc)
	}
	r := doc.Resources[0]
	d := portal.DeclOf[portal.TopicDecl](r)
	if r.Kind != "Topic" || r.Name != "orders" || r.Labels["team"] != "billing" || r.Description != "Orders" || d == nil || d.Partitions == nil || *d.Partitions != 3 {
		t.Errorf("read %+v (topic %+v)", r, d)
	}
}
