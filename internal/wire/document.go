package wire

import (
	"bytes"
	"errors"
)

// schemasLine opens the document's generated part: everything after it is
// written from the wire types, so it must be the document's last section.
const schemasLine = "\n  schemas:\n"

// Document returns the API document doc with its components' schemas
// written anew from the wire types; the rest (paths, parameters,
// responses) is kept as written.
func Document(doc []byte) ([]byte, error) {
	i := bytes.LastIndex(doc, []byte(schemasLine))
	if i < 0 {
		return nil, errors.New("wire: the document has no components.schemas section")
	}
	schemas, err := SchemasYAML(Components(), 4)
	if err != nil {
		return nil, err
	}
	out := append([]byte{}, doc[:i+len(schemasLine)]...)
	out = append(out, "    # Generated from internal/wire by `make docs`: edit the wire types, not this section.\n"...)
	return append(out, schemas...), nil
}
