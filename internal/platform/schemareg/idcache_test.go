package schemareg

import (
	"strings"
	"testing"

	"github.com/edh-platform/rms-portal/internal/portal/schema"
)

func TestSchemasKeptByIDStayWithinTheirBound(t *testing.T) {
	c := NewCache(100)
	text := func(n int) schema.SchemaVersion { return schema.SchemaVersion{Schema: strings.Repeat("s", n)} }
	c.put("a", 1, text(40))
	c.put("a", 2, text(40))
	if _, ok := c.get("a", 1); !ok { // 1 is now the most recently read
		t.Fatal("schema 1 was not kept")
	}
	c.put("a", 3, text(40)) // 120 bytes: the least recently read (2) goes
	if _, ok := c.get("a", 2); ok {
		t.Error("schema 2 was kept past the bound")
	}
	for _, id := range []int{1, 3} {
		if _, ok := c.get("a", id); !ok {
			t.Errorf("schema %d was given up", id)
		}
	}
	c.put("a", 4, text(101)) // larger than the bound alone: not kept, nothing given up
	if _, ok := c.get("a", 4); ok {
		t.Error("a schema larger than the bound was kept")
	}
	if _, ok := c.get("a", 1); !ok || c.size != 80 {
		t.Errorf("keeping nothing gave up schema 1 (size %d)", c.size)
	}
	// One bound across registries: another registry's schema 1 is its
	// own, and counts toward the same bytes.
	if _, ok := c.get("b", 1); ok {
		t.Error("registry b reads registry a's schema 1")
	}
	c.put("b", 1, text(40)) // 120 bytes again: a's 3 (read least lately) goes
	if _, ok := c.get("a", 3); ok || c.size != 80 {
		t.Errorf("the bound is not shared across registries (size %d)", c.size)
	}
}
