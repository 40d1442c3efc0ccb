package registry

import (
	"fmt"
	"strings"
	"testing"
)

func enumSchema(name string, symbols int) string {
	s := make([]string, symbols)
	for i := range s {
		s[i] = fmt.Sprintf(`"S%06d"`, i)
	}
	return `{"type":"enum","name":"` + name + `","symbols":[` + strings.Join(s, ",") + `]}`
}

func TestParseCacheKeepsParsesWithinItsBound(t *testing.T) {
	c := parseCache{limit: 4000}
	first, err := c.parse("AVRO", enumSchema("First", 3), nil)
	if err != nil {
		t.Fatal(err)
	}
	again, err := c.parse("AVRO", enumSchema("First", 3), nil)
	if err != nil || again.avro != first.avro {
		t.Errorf("the same text was parsed again: %p, then %p (%v)", first.avro, again.avro, err)
	}
	// The same text with other references is another parse.
	if other, err := c.parse("AVRO", enumSchema("First", 3), []string{`"string"`}); err != nil || other.avro == first.avro {
		t.Errorf("a parse with references was served from one without: %v", err)
	}
	if _, err := c.parse("AVRO", `{"type":"enum"`, nil); err == nil || len(c.byKey) != 2 {
		t.Errorf("an invalid schema: %v, %d kept", err, len(c.byKey))
	}
	// Texts past the bound push out the oldest.
	big := enumSchema("Big", 250) // 2,540 bytes
	if _, err := c.parse("AVRO", big, nil); err != nil {
		t.Fatal(err)
	}
	if c.bytes > c.limit {
		t.Errorf("the cache stands for %d bytes, over its bound of %d", c.bytes, c.limit)
	}
	if _, err := c.parse("AVRO", strings.Replace(big, "Big", "Bigger", 1), nil); err != nil {
		t.Fatal(err)
	}
	if c.bytes > c.limit || len(c.byKey) != len(c.order) || len(c.byKey) != 1 {
		t.Errorf("after a second large text: %d bytes, %d entries, %d in order", c.bytes, len(c.byKey), len(c.order))
	}
	if _, ok := c.byKey[digest("AVRO", big)]; ok {
		t.Errorf("the oldest entry was kept past the bound")
	}
	// A text over the bound is parsed and not kept.
	if _, err := c.parse("AVRO", enumSchema("Huge", 500), nil); err != nil || len(c.byKey) != 1 {
		t.Errorf("a text over the bound: %v, %d kept", err, len(c.byKey))
	}
}
