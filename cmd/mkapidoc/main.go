// Command mkapidoc writes the API document's schemas from the wire types
// (internal/wire), keeping the hand-written paths: `make docs` runs it.
package main

import (
	"fmt"
	"os"

	"github.com/edh-platform/rms-portal/internal/wire"
)

func main() {
	path := "api/openapi.yaml"
	if len(os.Args) > 1 {
		path = os.Args[1]
	}
	if err := run(path); err != nil {
		fmt.Fprintln(os.Stderr, "mkapidoc:", err)
		os.Exit(1)
	}
}

func run(path string) error {
	doc, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	out, err := wire.Document(doc)
	if err != nil {
		return err
	}
	return os.WriteFile(path, out, 0o644)
}
