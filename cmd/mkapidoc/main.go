// Command mkapidoc writes the published documents: the API document,
// whole, from its frame (api/openapi/frame.yaml), the operations table
// (api/operations) and the wire types (internal/wire), and the JSON
// Schemas of the documented kinds from their specs (internal/document).
// `make docs` runs it.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/edh-platform/rms-portal/api/openapi"
	"github.com/edh-platform/rms-portal/api/operations"
	"github.com/edh-platform/rms-portal/internal/document"
)

func main() {
	path, schemas := "api/openapi/openapi.yaml", "internal/document/schemas"
	if len(os.Args) > 2 {
		path, schemas = os.Args[1], os.Args[2]
	}
	if err := run(path, schemas); err != nil {
		fmt.Fprintln(os.Stderr, "mkapidoc:", err)
		os.Exit(1)
	}
}

func run(path, schemas string) error {
	out, err := openapi.Generate(operations.All())
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		return err
	}
	files, err := document.GeneratedSchemas()
	if err != nil {
		return err
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(schemas, name), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}
