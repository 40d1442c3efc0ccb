package document

import (
	"embed"
	"io/fs"
	"slices"
)

//go:embed schemas/*.json
var schemaFiles embed.FS

// JSONSchema returns the JSON Schema file of that name ("topic.json",
// "document.json", ...), for editors to validate documents.
func JSONSchema(name string) ([]byte, bool) {
	b, err := schemaFiles.ReadFile("schemas/" + name)
	return b, err == nil
}

// JSONSchemaNames lists the published JSON Schema files.
func JSONSchemaNames() []string {
	entries, _ := fs.ReadDir(schemaFiles, "schemas")
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	slices.Sort(out)
	return out
}
