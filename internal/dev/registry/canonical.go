package registry

import (
	"strconv"
	"strings"

	"github.com/hamba/avro/v2"
)

// canonicalAvro writes an Avro schema as the parser's own String does,
// in time linear in its size (that one builds an enum's symbols by
// repeated concatenation: 36 s for 100,000 of them). A named type's
// second use is its name.
func canonicalAvro(s avro.Schema) string {
	var b strings.Builder
	writeCanonical(&b, s, map[string]bool{})
	return b.String()
}

func writeCanonical(b *strings.Builder, s avro.Schema, named map[string]bool) {
	quote := func(v string) { b.WriteString(strconv.Quote(v)) }
	once := func(full string) bool {
		if named[full] {
			quote(full)
			return false
		}
		named[full] = true
		return true
	}
	switch x := s.(type) {
	case *avro.RefSchema:
		writeCanonical(b, x.Schema(), named)
	case *avro.RecordSchema:
		if !once(x.FullName()) {
			return
		}
		b.WriteString(`{"name":`)
		quote(x.FullName())
		b.WriteString(`,"type":"record","fields":[`)
		for i, f := range x.Fields() {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`{"name":`)
			quote(f.Name())
			b.WriteString(`,"type":`)
			writeCanonical(b, f.Type(), named)
			b.WriteByte('}')
		}
		b.WriteString("]}")
	case *avro.EnumSchema:
		if !once(x.FullName()) {
			return
		}
		b.WriteString(`{"name":`)
		quote(x.FullName())
		b.WriteString(`,"type":"enum","symbols":[`)
		for i, sym := range x.Symbols() {
			if i > 0 {
				b.WriteByte(',')
			}
			quote(sym)
		}
		b.WriteString("]}")
	case *avro.FixedSchema:
		if once(x.FullName()) {
			b.WriteString(x.String())
		}
	case *avro.ArraySchema:
		b.WriteString(`{"type":"array","items":`)
		writeCanonical(b, x.Items(), named)
		b.WriteByte('}')
	case *avro.MapSchema:
		b.WriteString(`{"type":"map","values":`)
		writeCanonical(b, x.Values(), named)
		b.WriteByte('}')
	case *avro.UnionSchema:
		b.WriteByte('[')
		for i, t := range x.Types() {
			if i > 0 {
				b.WriteByte(',')
			}
			writeCanonical(b, t, named)
		}
		b.WriteByte(']')
	default:
		// Primitives, with their logical types as the parser writes them.
		b.WriteString(s.String())
	}
}

// enumReadable is the enum rule, in linear time: a reader reads what a
// writer of the same name wrote when it knows every symbol, or has a
// default for those it does not.
func enumReadable(reader, writer *avro.EnumSchema, path string) string {
	known := make(map[string]bool, len(reader.Symbols()))
	for _, s := range reader.Symbols() {
		known[s] = true
	}
	for _, s := range writer.Symbols() {
		if !known[s] && reader.Default() == "" {
			at := "enum " + reader.FullName()
			if path != "" {
				at = "field " + path
			}
			return at + ": symbol " + s + " was removed and the enum has no default"
		}
	}
	return ""
}
