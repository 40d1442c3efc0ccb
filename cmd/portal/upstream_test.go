package main

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/config"
)

// TestStoppedClusterAndReadiness stops the edh-shared/dev cluster: its
// topic list is served from the cache up to the staleness bound, then
// fails with 503 saying how old it is; calls that need the cluster fail
// with 503 or 504 within a few seconds; other environments keep working,
// the process stays ready (one tenant's outage must not take the replica
// out of the load balancer) and the upstream report names the failing
// cluster.
func TestStoppedClusterAndReadiness(t *testing.T) {
	t.Parallel()
	tp := startPortal(t, func(c *config.Config) {
		c.UpstreamTimeout = 2 * time.Second
		// A TTL long enough that the first read after the stop is the
		// cache's on a busy machine too; a refresh failing after the
		// timeout would otherwise land past the staleness bound.
		c.MetadataCacheTTL, c.MetadataMaxStaleness = 4*time.Second, 8*time.Second
	})
	if r := tp.call("GET", "/healthz", "", nil); r.status != 200 {
		t.Fatalf("healthz %d", r.status)
	}
	ready := tp.call("GET", "/readyz", "", nil)
	if ready.status != 200 || ready.json(t)["status"] != "ready" || len(ready.json(t)["checks"].([]any)) != 3 {
		t.Fatalf("readyz before: %d %s", ready.status, ready.body)
	}
	tp.token("carol") // sign in first: the provider is part of the portal
	// The upstream report is not anonymous on the public port.
	wantError(t, tp.call("GET", "/healthz/upstreams", "", nil), http.StatusUnauthorized, "UNAUTHENTICATED")
	if up := tp.call("GET", "/healthz/upstreams", "carol", nil); up.status != 200 || up.json(t)["status"] != "ok" || len(up.json(t)["upstreams"].([]any)) < 7 {
		t.Fatalf("upstreams before: %d %s", up.status, up.body)
	}
	if r := tp.call("GET", "/api/v1/scada/dev/topics", "carol", nil); r.status != 200 {
		t.Fatalf("list before: %d", r.status)
	}

	tp.app.dev.platform.Clusters["edh-shared/dev"].Close()
	start := time.Now()
	if r := tp.call("GET", "/api/v1/scada/dev/topics", "carol", nil); r.status != 200 || time.Since(start) > time.Second {
		t.Fatalf("the cached list on a stopped cluster: %d after %v", r.status, time.Since(start))
	}
	start = time.Now()
	r := tp.call("GET", "/api/v1/scada/dev/topic/alarms", "carol", nil)
	took := time.Since(start)
	if r.status != http.StatusServiceUnavailable && r.status != http.StatusGatewayTimeout {
		t.Fatalf("a topic on a stopped cluster: %d %s", r.status, r.body)
	}
	wantError(t, r, r.status, map[int]string{503: "UPSTREAM_UNAVAILABLE", 504: "UPSTREAM_TIMEOUT"}[r.status])
	if took > 4*time.Second {
		t.Errorf("took %v", took)
	}
	// Past the staleness bound the list says how old it is.
	deadline := time.Now().Add(30 * time.Second)
	for {
		r = tp.call("GET", "/api/v1/scada/dev/topics", "carol", nil)
		if r.status != 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the list was served past its staleness bound")
		}
		time.Sleep(100 * time.Millisecond)
	}
	if e := wantError(t, r, r.status, map[int]string{503: "UPSTREAM_UNAVAILABLE", 504: "UPSTREAM_TIMEOUT"}[r.status]); !strings.Contains(string(r.body), "old, past the bound of 8s") {
		t.Errorf("stale list refusal: %v", e)
	}
	if r := tp.call("GET", "/api/v1/scada/qas/topics", "carol", nil); r.status != 200 {
		t.Errorf("another environment: %d", r.status)
	}
	start = time.Now()
	r = tp.call("POST", "/api/v1/scada/dev/topic", "carol", map[string]any{"name": "while-down"})
	if r.status != 503 && r.status != 504 || time.Since(start) > 4*time.Second {
		t.Errorf("create on a stopped cluster: %d after %v", r.status, time.Since(start))
	}

	if ready = tp.call("GET", "/readyz", "", nil); ready.status != http.StatusOK {
		t.Fatalf("readyz after: %d %s", ready.status, ready.body)
	}
	up := tp.call("GET", "/healthz/upstreams", "carol", nil)
	if up.status != http.StatusOK || up.json(t)["status"] != "degraded" {
		t.Fatalf("upstreams after: %d %s", up.status, up.body)
	}
	for _, c := range up.json(t)["upstreams"].([]any) {
		m := c.(map[string]any)
		failing := m["state"] == "failing" || m["circuit"] != "closed"
		if failing != (m["kind"] == "cluster" && m["name"] == "edh-shared/dev") {
			t.Errorf("upstream %v", m)
		}
		if failing && m["last_error"] == "" {
			t.Errorf("no last error: %v", m)
		}
	}

	// After repeated failures the circuit opens: calls fail at once, with
	// Retry-After, and the cluster is not asked. The circuit's own refusal
	// says so; a call that asked would wait up to the upstream timeout.
	// (How fast "at once" is depends on the machine's load, so the bound
	// is the timeout, not a figure of milliseconds.)
	for i := 0; i < 6; i++ {
		tp.call("GET", "/api/v1/scada/dev/topic/alarms", "carol", nil)
	}
	start = time.Now()
	r = tp.call("GET", "/api/v1/scada/dev/topic/alarms", "carol", nil)
	took = time.Since(start)
	wantError(t, r, http.StatusServiceUnavailable, "UPSTREAM_UNAVAILABLE")
	if !strings.Contains(string(r.body), "stopped calling it") || r.header.Get("Retry-After") == "" || took >= 2*time.Second {
		t.Errorf("open circuit: answered after %v, Retry-After %q: %s", took, r.header.Get("Retry-After"), r.body)
	}
	if r := tp.call("GET", "/api/v1/scada/qas/topics", "carol", nil); r.status != 200 {
		t.Errorf("another cluster while one circuit is open: %d", r.status)
	}
}
