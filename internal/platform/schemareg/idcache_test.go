package schemareg

import (
	"strings"
	"testing"

	"github.com/edh-platform/rms-portal/internal/portal"
)

func TestSchemasKeptByIDStayWithinTheirBound(t *testing.T) {
	c := newIDCache(100)
	text := func(n int) portal.SchemaVersion { return portal.SchemaVersion{Schema: strings.Repeat("s", n)} }
	c.put(1, text(40))
	c.put(2, text(40))
	if _, ok := c.get(1); !ok { // 1 is now the most recently read
		t.Fatal("schema 1 was not kept")
	}
	c.put(3, text(40)) // 120 bytes: the least recently read (2) goes
	if _, ok := c.get(2); ok {
		t.Error("schema 2 was kept past the bound")
	}
	for _, id := range []int{1, 3} {
		if _, ok := c.get(id); !ok {
			t.Errorf("schema %d was given up", id)
		}
	}
	c.put(4, text(101)) // larger than the bound alone: not kept, nothing given up
	if _, ok := c.get(4); ok {
		t.Error("a schema larger than the bound was kept")
	}
	if _, ok := c.get(1); !ok || c.size != 80 {
		t.Errorf("keeping nothing gave up schema 1 (size %d)", c.size)
	}
}
