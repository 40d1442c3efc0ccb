package wire

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
)

// schemasLine opens the document's generated part: everything after it is
// written from the wire types, so it must be the document's last section.
const schemasLine = "\n  schemas:\n"

// Document returns the API document doc with its components' schemas
// written anew from the wire types; the rest (paths, parameters,
// responses) is kept as written. A schema's description may name a text
// the package cannot know ({{TOPIC_SETTINGS}}, the settings the portal
// edits): texts fills it, and one left unfilled is an error, so the
// document is whole as committed.
func Document(doc []byte, texts map[string]string) ([]byte, error) {
	i := bytes.LastIndex(doc, []byte(schemasLine))
	if i < 0 {
		return nil, errors.New("wire: the document has no components.schemas section")
	}
	components := Components()
	for j, c := range components {
		for k, v := range texts {
			c.Doc = strings.ReplaceAll(c.Doc, "{{"+k+"}}", strings.TrimRight(v, "\n"))
		}
		// An enum of one text is that text's comma-separated values.
		if len(c.Enum) == 1 && strings.HasPrefix(c.Enum[0], "{{") {
			v, ok := texts[strings.Trim(c.Enum[0], "{}")]
			if !ok {
				return nil, fmt.Errorf("wire: %s's values name a text not given: %s", c.Name, c.Enum[0])
			}
			c.Enum = strings.Split(v, ",")
		}
		if strings.Contains(c.Doc, "{{") {
			return nil, fmt.Errorf("wire: %s's description names a text not given: %q", c.Name, c.Doc)
		}
		components[j] = c
	}
	schemas, err := SchemasYAML(components, 4)
	if err != nil {
		return nil, err
	}
	out := append([]byte{}, doc[:i+len(schemasLine)]...)
	out = append(out, "    # Generated from internal/wire by `make docs`: edit the wire types, not this section.\n"...)
	return append(out, schemas...), nil
}
