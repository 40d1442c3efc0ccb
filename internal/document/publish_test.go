package document

import (
	"bytes"
	"testing"
)

// TestPublishedSchemasAreGenerated: the kinds' JSON Schema files are
// what their specs write (make docs), so that a spec's new field, bound or
// description reaches editors with the reader that takes it.
func TestPublishedSchemasAreGenerated(t *testing.T) {
	files, err := GeneratedSchemas()
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 2 {
		t.Fatalf("%d files generated", len(files))
	}
	for name, want := range files {
		got, ok := JSONSchema(name)
		if !ok {
			t.Errorf("%s is generated but not published: run make docs", name)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from what its spec writes: run make docs", name)
		}
	}
}
