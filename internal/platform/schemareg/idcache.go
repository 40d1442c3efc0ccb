package schemareg

import (
	"container/list"
	"sync"

	"github.com/edh-platform/rms-portal/internal/portal/schema"
)

// DefaultCacheBytes bounds the schema texts a replica keeps by id, across
// all its registries: schemas never change under an id, but a tenant may
// register (and its records name) as many as it likes, each up to the
// registry's limit, and a replica may serve hundreds of environments.
const DefaultCacheBytes = 64 << 20

// Cache keeps the schemas read by id, of every registry of a replica, the
// least recently read given up first once their texts pass its bound in
// bytes. It is safe for concurrent use.
type Cache struct {
	mu    sync.Mutex
	max   int
	size  int
	order *list.List // of *idEntry, most recently read first
	byID  map[idKey]*list.Element
}

// idKey names a schema: its registry (the environment's, whose
// credentials read it) and its id there.
type idKey struct {
	registry string
	id       int
}

type idEntry struct {
	key idKey
	v   schema.SchemaVersion
}

// NewCache returns a cache of schemas within max bytes of text.
func NewCache(max int) *Cache {
	return &Cache{max: max, order: list.New(), byID: map[idKey]*list.Element{}}
}

func (c *Cache) get(registry string, id int) (schema.SchemaVersion, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byID[idKey{registry, id}]
	if !ok {
		return schema.SchemaVersion{}, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*idEntry).v, true
}

// put keeps v unless its text alone passes the bound.
func (c *Cache) put(registry string, id int, v schema.SchemaVersion) {
	if len(v.Schema) > c.max {
		return
	}
	k := idKey{registry, id}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byID[k]; ok {
		return
	}
	c.byID[k] = c.order.PushFront(&idEntry{key: k, v: v})
	c.size += len(v.Schema)
	for c.size > c.max {
		last := c.order.Back()
		e := c.order.Remove(last).(*idEntry)
		delete(c.byID, e.key)
		c.size -= len(e.v.Schema)
	}
}
