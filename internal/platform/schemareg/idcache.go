package schemareg

import (
	"container/list"
	"sync"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// idCacheBytes bounds the schema texts kept by id: schemas never change
// under an id, but a tenant may register (and its records name) as many
// as it likes, each up to the registry's limit.
const idCacheBytes = 32 << 20

// idCache keeps the schemas read by id, the least recently read given up
// first once their texts pass max bytes.
type idCache struct {
	mu    sync.Mutex
	max   int
	size  int
	order *list.List // of *idEntry, most recently read first
	byID  map[int]*list.Element
}

type idEntry struct {
	id int
	v  portal.SchemaVersion
}

func newIDCache(max int) *idCache {
	return &idCache{max: max, order: list.New(), byID: map[int]*list.Element{}}
}

func (c *idCache) get(id int) (portal.SchemaVersion, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byID[id]
	if !ok {
		return portal.SchemaVersion{}, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*idEntry).v, true
}

// put keeps v unless its text alone passes the bound.
func (c *idCache) put(id int, v portal.SchemaVersion) {
	if len(v.Schema) > c.max {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byID[id]; ok {
		return
	}
	c.byID[id] = c.order.PushFront(&idEntry{id: id, v: v})
	c.size += len(v.Schema)
	for c.size > c.max {
		last := c.order.Back()
		e := c.order.Remove(last).(*idEntry)
		delete(c.byID, e.id)
		c.size -= len(e.v.Schema)
	}
}
