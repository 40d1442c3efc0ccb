package openapi

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/edh-platform/rms-portal/api/operations"
)

// TestOpenAPIDocumentIsValid: the document users' client generators read
// is valid OpenAPI 3.0 (kin-openapi loads and validates it), as committed
// (no template: a generator may read the file itself) and as the portal
// serves it, with the deployment's URLs, client and audience in place. A
// description with an unquoted ": " once made keys no schema has.
func TestOpenAPIDocumentIsValid(t *testing.T) {
	for name, doc := range map[string][]byte{"committed": CommittedDocument(), "served": DocumentForTest()} {
		if bytes.Contains(doc, []byte("{{")) {
			t.Errorf("%s: the document holds a placeholder", name)
		}
		loader := openapi3.NewLoader()
		spec, err := loader.LoadFromData(doc)
		if err != nil {
			t.Fatalf("%s: loading: %v", name, err)
		}
		if err := spec.Validate(context.Background()); err != nil {
			t.Fatalf("%s: validating: %v", name, err)
		}
		oidc := spec.Components.SecuritySchemes["oidc"].Value
		want := map[string]string{"committed": "api://portal", "served": "api://portal-test"}[name]
		if oidc.Extensions["x-audience"] != want || oidc.Flows.AuthorizationCode.Scopes[want+"/.default"] == "" {
			t.Errorf("%s: the oidc scheme names audience %v and scopes %v, not %s", name, oidc.Extensions["x-audience"], oidc.Flows.AuthorizationCode.Scopes, want)
		}
		if name == "served" && spec.Servers[0].URL != "https://portal.example.com/api/v1" {
			t.Errorf("served: server %s", spec.Servers[0].URL)
		}
	}
}

// TestOpenAPIDocumentIsValidElsewhere: a second validator, independent of
// kin-openapi (swagger-parser, from the project's npm packages, which
// make test installs), accepts the document as committed and as the
// portal serves it.
func TestOpenAPIDocumentIsValidElsewhere(t *testing.T) {
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	if _, err := os.Stat(filepath.Join(root, "node_modules", "@apidevtools", "swagger-parser")); err != nil {
		if testing.Short() {
			t.Skip("swagger-parser is not installed (npm ci)")
		}
		t.Fatalf("swagger-parser is not installed (npm ci): %v", err)
	}
	served := filepath.Join(t.TempDir(), "openapi.yaml")
	if err := os.WriteFile(served, DocumentForTest(), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{"openapi.yaml", served} {
		cmd := exec.Command("node", filepath.Join("testdata", "swagger-parser.cjs"), file)
		cmd.Env = append(os.Environ(), "NODE_PATH="+filepath.Join(root, "node_modules"))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("swagger-parser %s: %v\n%s", file, err, out)
		}
	}
}

// TestDocumentIsGenerated: the committed document is what `make docs`
// writes from the operations table (api/operations), the frame and the
// wire types, whole, so an operation, an answer's shape and their
// documentation cannot part.
func TestDocumentIsGenerated(t *testing.T) {
	committed, err := os.ReadFile("openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want, err := Generate(operations.All())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(committed, want) {
		t.Fatal("api/openapi/openapi.yaml differs from api/operations, frame.yaml and internal/wire: run make docs and commit the document")
	}
}

// TestAClientGeneratesFromTheDocument: users generate clients from the
// document, so one is generated here (oapi-codegen, Go types and client)
// and compiled. A schema named like a type the generator derives (Grant's
// access enum is GrantAccess; the stage parameter is Stage) once stopped it.
func TestAClientGeneratesFromTheDocument(t *testing.T) {
	if testing.Short() {
		t.Skip("builds oapi-codegen and a client (a minute)")
	}
	dir := t.TempDir()
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("openapi.yaml", string(DocumentForTest()))
	write("config.yaml", "package: client\ngenerate:\n  models: true\n  client: true\noutput: client.gen.go\n")
	write("go.mod", "module example.com/client\n\ngo 1.24\n\nrequire github.com/oapi-codegen/runtime v1.9.0\n")
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	run("run", "github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@v2.8.2", "-config", "config.yaml", "openapi.yaml")
	run("build", "./...")
}
