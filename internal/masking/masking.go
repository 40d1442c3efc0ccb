// Package masking hides the values of record fields that their schema tags
// as sensitive (Confluent's "confluent:tags" on an Avro field or type, or
// on a JSON Schema property), for readers whose role does not see them
// whole. A masked value keeps its type and the class of its length (a
// string of 9 to 16 characters reads as 16 stars, a number as zero), never
// its content, so that a page or a client still parses it.
package masking

import (
	"encoding/json"
	"math/big"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// TagProperty is the schema property that lists a field's tags.
const TagProperty = "confluent:tags"

// Tags are the tags whose fields are masked, compared without regard to
// case.
type Tags struct{ set map[string]bool }

// NewTags returns the tags to mask.
func NewTags(tags ...string) Tags {
	t := Tags{set: map[string]bool{}}
	for _, tag := range tags {
		if tag = strings.TrimSpace(tag); tag != "" {
			t.set[strings.ToLower(tag)] = true
		}
	}
	return t
}

// IsZero tells Tags never made by NewTags (a configuration that says
// nothing) from NewTags() (one that masks no tag).
func (t Tags) IsZero() bool { return t.set == nil }

// matches tells whether a schema's tag property (a list of strings, or
// one string) holds one of the tags.
func (t Tags) matches(prop any) bool {
	switch p := prop.(type) {
	case string:
		return t.set[strings.ToLower(p)]
	case []any:
		for _, tag := range p {
			if s, ok := tag.(string); ok && t.set[strings.ToLower(s)] {
				return true
			}
		}
	case []string:
		for _, tag := range p {
			if t.set[strings.ToLower(tag)] {
				return true
			}
		}
	}
	return false
}

// Value masks a decoded value whole: every leaf of a record, list or map
// keeps its type and its length's class.
func Value(v any) any {
	switch x := v.(type) {
	case nil:
		return nil
	case string:
		return strings.Repeat("*", lengthClass(utf8.RuneCountInString(x)))
	case []byte:
		return make([]byte, lengthClass(len(x)))
	case bool:
		return false
	case json.Number:
		return json.Number("0")
	case float64:
		return float64(0)
	case float32:
		return float32(0)
	case int:
		return 0
	case int32:
		return int32(0)
	case int64:
		return int64(0)
	case time.Time:
		return time.Unix(0, 0).UTC()
	case time.Duration:
		return time.Duration(0)
	case *big.Rat:
		return new(big.Rat)
	case map[string]any:
		for k, e := range x {
			x[k] = Value(e)
		}
		return x
	case []any:
		for i, e := range x {
			x[i] = Value(e)
		}
		return x
	}
	// A type this package does not know: nothing of it is shown.
	return nil
}

// lengthClass is the length a masked value of n characters (or bytes)
// shows: the next power of two from 4, at most 256; empty stays empty.
func lengthClass(n int) int {
	if n == 0 {
		return 0
	}
	c := 4
	for c < n && c < 256 {
		c *= 2
	}
	return c
}

// found collects the paths of the fields masked in one value.
type found map[string]bool

func (f found) add(path string) { f[path] = true }

func (f found) list() []string {
	if len(f) == 0 {
		return nil
	}
	out := make([]string, 0, len(f))
	for p := range f {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// join names a field under its parent ("customer.email"); a list's
// elements and a map's values are "[]" and ".*" of theirs.
func join(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "." + name
}
