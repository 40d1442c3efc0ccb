package registry

import (
	"crypto/sha256"
	"io"
	"sync"
)

// parseCacheBytes bounds the schema text the parse cache stands for.
const parseCacheBytes = 16 << 20

// parseCache keeps recently parsed schemas by a digest of their type,
// text and referenced texts, as a registry keeps the schemas it parsed:
// a schema sent again (the same one under another subject, a
// producer's serializer registering at each start) is not parsed again.
// Parsing an Avro schema of 100,000 enum symbols takes about 90 ms and
// 36 MB, which in dev mode the stand-in's other answers (the Kafka
// cluster's among them) would wait behind. Entries leave in the order
// they came once the texts they stand for pass the cache's limit.
type parseCache struct {
	// limit is the bound (parseCacheBytes when 0).
	limit int
	mu    sync.Mutex
	byKey map[[sha256.Size]byte]cachedParse
	order [][sha256.Size]byte
	bytes int
}

type cachedParse struct {
	p    parsed
	size int
}

// digest is a SHA-256 of parts, each ended by a zero byte so that no two
// lists of parts run together: the short key of a schema's texts.
func digest(parts ...string) [sha256.Size]byte {
	h := sha256.New()
	for _, part := range parts {
		_, _ = io.WriteString(h, part)
		_, _ = h.Write([]byte{0})
	}
	var k [sha256.Size]byte
	h.Sum(k[:0])
	return k
}

// parse returns the parse of text, from the cache or parsed now; a
// schema that does not parse is not kept.
func (c *parseCache) parse(typ, text string, refs []string) (parsed, error) {
	k := digest(append([]string{typ, text}, refs...)...)
	c.mu.Lock()
	hit, ok := c.byKey[k]
	c.mu.Unlock()
	if ok {
		return hit.p, nil
	}
	p, err := parseSchema(typ, text, refs)
	if err != nil {
		return p, err
	}
	size := len(text)
	for _, r := range refs {
		size += len(r)
	}
	limit := c.limit
	if limit == 0 {
		limit = parseCacheBytes
	}
	if size > limit {
		return p, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byKey[k]; ok {
		return p, nil
	}
	if c.byKey == nil {
		c.byKey = map[[sha256.Size]byte]cachedParse{}
	}
	for c.bytes+size > limit && len(c.order) > 0 {
		c.bytes -= c.byKey[c.order[0]].size
		delete(c.byKey, c.order[0])
		c.order = c.order[1:]
	}
	c.byKey[k] = cachedParse{p: p, size: size}
	c.order = append(c.order, k)
	c.bytes += size
	return p, nil
}
