package auth

import (
	"fmt"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// TestTokenCacheIsBounded: a full cache drops expired entries first, then
// some others, and never grows past its bound; an expired entry is
// reported as such and removed.
func TestTokenCacheIsBounded(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	c := newTokenCache(10, func() time.Time { return now })
	for i := range 25 {
		c.put(tokenKey(fmt.Sprint("token-", i)), portal.Identity{Subject: fmt.Sprint(i)}, now.Add(time.Duration(i)*time.Second))
		if c.len() > 10 {
			t.Fatalf("%d entries after %d puts", c.len(), i+1)
		}
	}
	if _, found, _ := c.get(tokenKey("token-24")); !found {
		t.Error("the newest token was evicted")
	}
	now = now.Add(time.Hour)
	if _, found, expired := c.get(tokenKey("token-24")); !found || !expired {
		t.Errorf("past its expiry: found %v expired %v", found, expired)
	}
	if _, found, _ := c.get(tokenKey("token-24")); found {
		t.Error("an expired entry was kept")
	}
	c.put(tokenKey("old"), portal.Identity{}, now.Add(-time.Second))
	if _, found, _ := c.get(tokenKey("old")); found {
		t.Error("a token already expired was remembered")
	}
}
