package masking

import (
	"github.com/hamba/avro/v2"
)

// propertied is a schema or field that carries properties of its own.
type propertied interface{ Prop(name string) any }

// AvroTagged tells whether any field or type of an Avro schema carries
// one of the tags: a schema without any masks nothing, and its values
// need no walk.
func AvroTagged(s avro.Schema, tags Tags) bool {
	return avroTagged(s, tags, map[string]bool{})
}

func avroTagged(s avro.Schema, tags Tags, seen map[string]bool) bool {
	if p, ok := s.(propertied); ok && tags.matches(p.Prop(TagProperty)) {
		return true
	}
	switch x := s.(type) {
	case *avro.RefSchema:
		return avroTagged(x.Schema(), tags, seen)
	case *avro.RecordSchema:
		// A named type is looked into once: records may hold themselves.
		if seen[x.FullName()] {
			return false
		}
		seen[x.FullName()] = true
		for _, f := range x.Fields() {
			if tags.matches(f.Prop(TagProperty)) || avroTagged(f.Type(), tags, seen) {
				return true
			}
		}
	case *avro.ArraySchema:
		return avroTagged(x.Items(), tags, seen)
	case *avro.MapSchema:
		return avroTagged(x.Values(), tags, seen)
	case *avro.UnionSchema:
		for _, t := range x.Types() {
			if avroTagged(t, tags, seen) {
				return true
			}
		}
	}
	return false
}

// Avro masks, in a value decoded generically from schema s (records and
// maps as map[string]any, arrays as []any, a union's named branch as a
// map of its one type name), the fields tagged with one of the tags, and
// returns it with the paths of the fields it masked.
func Avro(s avro.Schema, v any, tags Tags) (any, []string) {
	f := found{}
	v = avroMask(s, v, "", tags, f)
	return v, f.list()
}

func avroMask(s avro.Schema, v any, path string, tags Tags, f found) any {
	if v == nil {
		return nil
	}
	if p, ok := s.(propertied); ok && tags.matches(p.Prop(TagProperty)) {
		f.add(path)
		return Value(v)
	}
	switch x := s.(type) {
	case *avro.RefSchema:
		return avroMask(x.Schema(), v, path, tags, f)
	case *avro.RecordSchema:
		m, ok := v.(map[string]any)
		if !ok {
			return v
		}
		for _, field := range x.Fields() {
			val, ok := m[field.Name()]
			if !ok {
				continue
			}
			p := join(path, field.Name())
			if tags.matches(field.Prop(TagProperty)) {
				f.add(p)
				m[field.Name()] = Value(val)
				continue
			}
			m[field.Name()] = avroMask(field.Type(), val, p, tags, f)
		}
	case *avro.ArraySchema:
		if list, ok := v.([]any); ok {
			for i, e := range list {
				list[i] = avroMask(x.Items(), e, path+"[]", tags, f)
			}
		}
	case *avro.MapSchema:
		if m, ok := v.(map[string]any); ok {
			for k, e := range m {
				m[k] = avroMask(x.Values(), e, join(path, "*"), tags, f)
			}
		}
	case *avro.UnionSchema:
		return unionMask(x, v, path, tags, f)
	}
	return v
}

// unionMask masks a union's value with the branch it was decoded from:
// the one its wrapper names, else the first whose shape it has.
func unionMask(u *avro.UnionSchema, v any, path string, tags Tags, f found) any {
	if m, ok := v.(map[string]any); ok && len(m) == 1 {
		for name, inner := range m {
			for _, t := range u.Types() {
				if typeName(t) == name {
					m[name] = avroMask(t, inner, path, tags, f)
					return m
				}
			}
		}
	}
	for _, t := range u.Types() {
		if t.Type() != avro.Null && shaped(t, v) {
			return avroMask(t, v, path, tags, f)
		}
	}
	return v
}

// typeName is how a union's wrapper names a branch: a named type by its
// full name, others by their type.
func typeName(s avro.Schema) string {
	if r, ok := s.(*avro.RefSchema); ok {
		s = r.Schema()
	}
	if n, ok := s.(avro.NamedSchema); ok {
		return n.FullName()
	}
	return string(s.Type())
}

// shaped tells whether a decoded value could be one of the schema's.
func shaped(s avro.Schema, v any) bool {
	if r, ok := s.(*avro.RefSchema); ok {
		s = r.Schema()
	}
	switch s.Type() {
	case avro.Record, avro.Map:
		_, ok := v.(map[string]any)
		return ok
	case avro.Array:
		_, ok := v.([]any)
		return ok
	case avro.String, avro.Enum:
		_, ok := v.(string)
		return ok
	case avro.Bytes, avro.Fixed:
		_, ok := v.([]byte)
		return ok
	case avro.Boolean:
		_, ok := v.(bool)
		return ok
	}
	switch v.(type) {
	case map[string]any, []any, string, []byte, bool:
		return false
	}
	return true
}
