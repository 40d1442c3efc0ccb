package auth

import (
	"crypto/sha256"
	"sync"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// tokenCache remembers access tokens already verified, by the SHA-256 of
// the token (never the token), until the token's own expiry: a pipeline's
// repeated calls cost a hash and a map lookup instead of a signature
// check and a claims decode. It also keeps the roles resolved for the
// token while the tenancy they were resolved from is in force. Its size is
// bounded; when full, expired entries go first, then any.
type tokenCache struct {
	max int
	now func() time.Time

	mu      sync.Mutex
	entries map[[sha256.Size]byte]*cachedToken
}

type cachedToken struct {
	id     portal.Identity
	expiry time.Time
	// principal was resolved from the tenancy ten.
	principal *portal.Principal
	ten       *tenancy.Tenancy
}

func newTokenCache(max int, now func() time.Time) *tokenCache {
	return &tokenCache{max: max, now: now, entries: map[[sha256.Size]byte]*cachedToken{}}
}

func tokenKey(raw string) [sha256.Size]byte { return sha256.Sum256([]byte(raw)) }

// get returns the cached entry of a token; an entry past the token's
// expiry is removed and reported as expired, so a token is refused at its
// own expiry, never at the cache's.
func (c *tokenCache) get(key [sha256.Size]byte) (entry cachedToken, found, expired bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if !ok {
		return cachedToken{}, false, false
	}
	if e.expiry.Before(c.now()) {
		delete(c.entries, key)
		return *e, true, true
	}
	return *e, true, false
}

// put remembers a verified token's identity until expiry.
func (c *tokenCache) put(key [sha256.Size]byte, id portal.Identity, expiry time.Time) {
	if c.max <= 0 || expiry.Before(c.now()) {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.entries[key]; !ok && len(c.entries) >= c.max {
		c.evict()
	}
	c.entries[key] = &cachedToken{id: id, expiry: expiry}
}

// resolved records the roles resolved for a cached token.
func (c *tokenCache) resolved(key [sha256.Size]byte, p *portal.Principal, ten *tenancy.Tenancy) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[key]; ok {
		e.principal, e.ten = p, ten
	}
}

// evict makes room: every expired entry, or else about a tenth of the
// entries (the map's order is arbitrary enough for a bound).
func (c *tokenCache) evict() {
	now := c.now()
	for k, e := range c.entries {
		if e.expiry.Before(now) {
			delete(c.entries, k)
		}
	}
	for k := range c.entries {
		if len(c.entries) < c.max-c.max/10 {
			return
		}
		delete(c.entries, k)
	}
}

func (c *tokenCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}
