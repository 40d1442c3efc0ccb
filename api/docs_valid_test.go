package api

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// TestOpenAPIDocumentIsValid: the document users' client generators read
// is valid OpenAPI 3.0 (kin-openapi loads and validates it), rendered as
// the portal serves it. A description with an unquoted ": " once made
// keys no schema has.
func TestOpenAPIDocumentIsValid(t *testing.T) {
	doc := DocumentForTest()
	loader := openapi3.NewLoader()
	spec, err := loader.LoadFromData(doc)
	if err != nil {
		t.Fatalf("loading: %v", err)
	}
	if err := spec.Validate(context.Background()); err != nil {
		t.Fatalf("validating: %v", err)
	}
}

// TestOpenAPIDocumentIsValidElsewhere: a second validator, independent of
// kin-openapi (swagger-parser, from the project's npm packages, which
// make test installs), accepts the document as the portal serves it.
func TestOpenAPIDocumentIsValidElsewhere(t *testing.T) {
	root, _ := filepath.Abs("..")
	if _, err := os.Stat(filepath.Join(root, "node_modules", "@apidevtools", "swagger-parser")); err != nil {
		if testing.Short() {
			t.Skip("swagger-parser is not installed (npm ci)")
		}
		t.Fatalf("swagger-parser is not installed (npm ci): %v", err)
	}
	file := filepath.Join(t.TempDir(), "openapi.yaml")
	if err := os.WriteFile(file, DocumentForTest(), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", filepath.Join("testdata", "swagger-parser.cjs"), file)
	cmd.Env = append(os.Environ(), "NODE_PATH="+filepath.Join(root, "node_modules"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("swagger-parser: %v\n%s", err, out)
	}
}
