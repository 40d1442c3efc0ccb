package handlers_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/edh-platform/rms-portal/handlers"
	"github.com/edh-platform/rms-portal/internal/auth"
	"github.com/edh-platform/rms-portal/internal/ratelimit"
)

// TestSignInStartsAreThrottled: sign-in starts from one address past its
// bucket get 429 with Retry-After; another address is not affected.
func TestSignInStartsAreThrottled(t *testing.T) {
	s := newSiteWith(t, func(o *handlers.Options) { o.Throttle = auth.NewThrottle(ratelimit.Rate{PerSecond: 0.1, Burst: 3}) })
	start := func(ip string) page {
		req := httptest.NewRequest(http.MethodGet, "http://portal.test/auth/login", nil)
		req.RemoteAddr = ip + ":1234"
		rec := httptest.NewRecorder()
		s.e.ServeHTTP(rec, req)
		return page{status: rec.Code, header: rec.Header(), body: rec.Body.String()}
	}
	for i := range 3 {
		if p := start("203.0.113.5"); p.status != http.StatusFound {
			t.Fatalf("start %d: %d", i, p.status)
		}
	}
	if p := start("203.0.113.5"); p.status != http.StatusTooManyRequests || p.header.Get("Retry-After") == "" {
		t.Errorf("a fourth start: %d %v", p.status, p.header)
	}
	if p := start("203.0.113.6"); p.status != http.StatusFound {
		t.Errorf("another address: %d", p.status)
	}
}
