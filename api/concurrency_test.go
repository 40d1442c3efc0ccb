package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// doIf is do with an If-Match header.
func (s *server) doIf(method, path, user, body, ifMatch string) reply {
	s.t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Authorization", "Bearer "+user)
	req.Header.Set("If-Match", ifMatch)
	rec := httptest.NewRecorder()
	s.h.ServeHTTP(rec, req)
	r := reply{status: rec.Code, header: rec.Header(), raw: rec.Body.String()}
	_ = json.Unmarshal(rec.Body.Bytes(), &r.body)
	return r
}

// TestOptimisticConcurrency: reads of topics, connectors and identity
// pools carry an ETag; a write whose If-Match names an older version is
// refused with 412 PRECONDITION_FAILED and changes nothing; with the
// current one (or none, or *) it applies and answers the new ETag.
func TestOptimisticConcurrency(t *testing.T) {
	s := newServer(t, nil)
	base := "/api/v1/scada/dev"
	cases := []struct {
		kind, create, path, change, stale, delete string
	}{
		{"topic", `{"name": "etag", "config": {"retention.ms": "1000"}}`, "/topic/etag",
			`{"partitions_count": 1, "config": {"retention.ms": "2000"}}`, `{"partitions_count": 1, "config": {"retention.ms": "3000"}}`, "/topic/etag"},
		{"connector", `{"name": "etag", "config": {"connector.class": "DatagenSource", "kafka.topic": "existing", "quickstart": "USERS", "output.data.format": "JSON", "kafka.api.key": "K", "kafka.api.secret": "S"}}`,
			"/connector/edh-shared-scada-dev-etag-connector",
			`{"config": {"connector.class": "DatagenSource", "kafka.topic": "existing", "quickstart": "ORDERS", "output.data.format": "JSON", "kafka.api.key": "K", "kafka.api.secret": "S"}}`,
			`{"config": {"connector.class": "DatagenSource", "kafka.topic": "existing", "quickstart": "PAGEVIEWS", "output.data.format": "JSON", "kafka.api.key": "K", "kafka.api.secret": "S"}}`,
			"/connector/edh-shared-scada-dev-etag-connector"},
		{"identity-pool", `{"name": "etag", "type": "consumer", "filter": "claims.sub == \"a\""}`, "",
			`{"filter": "claims.sub == \"b\""}`, `{"filter": "claims.sub == \"c\""}`, ""},
	}
	for _, c := range cases {
		t.Run(c.kind, func(t *testing.T) {
			r := s.do("POST", base+"/"+c.kind, "bob", c.create)
			if r.status != http.StatusCreated {
				t.Fatalf("create: %d %s", r.status, r.raw)
			}
			path := c.path
			if path == "" {
				path = "/" + c.kind + "/" + r.body["id"].(string)
			}
			write := http.MethodPut
			if c.kind == "identity-pool" {
				write = http.MethodPatch
			}
			read := s.do("GET", base+path, "bob", "")
			v1 := read.header.Get("ETag")
			if read.status != 200 || !strings.HasPrefix(v1, `"`) || len(v1) < 10 {
				t.Fatalf("read: %d ETag %q", read.status, v1)
			}
			if again := s.do("GET", base+path, "bob", ""); again.header.Get("ETag") != v1 {
				t.Errorf("the ETag changed without a change: %q, %q", v1, again.header.Get("ETag"))
			}
			// Someone changes it (with the version they read).
			changed := s.doIf(write, base+path, "bob", c.change, v1)
			v2 := changed.header.Get("ETag")
			if changed.status != 200 || v2 == "" || v2 == v1 {
				t.Fatalf("change with the current version: %d %q %s", changed.status, v2, changed.raw)
			}
			// A change from the older version is refused, and changes nothing.
			stale := s.doIf(write, base+path, "bob", c.stale, v1)
			if stale.status != http.StatusPreconditionFailed || stale.errorTypes() != "PRECONDITION_FAILED" {
				t.Errorf("change from an older version: %d %s", stale.status, stale.raw)
			}
			if now := s.do("GET", base+path, "bob", ""); now.header.Get("ETag") != v2 {
				t.Errorf("a refused change changed the %s: %s", c.kind, now.raw)
			}
			if del := s.doIf("DELETE", base+path, "bob", "", v1); del.status != http.StatusPreconditionFailed {
				t.Errorf("delete from an older version: %d %s", del.status, del.raw)
			}
			if any := s.doIf(write, base+path, "bob", c.change, "*"); any.status != 200 {
				t.Errorf("If-Match *: %d %s", any.status, any.raw)
			}
			cur := s.do("GET", base+path, "bob", "").header.Get("ETag")
			if del := s.doIf("DELETE", base+path, "bob", "", cur); del.status != http.StatusNoContent {
				t.Errorf("delete at the current version: %d %s", del.status, del.raw)
			}
		})
	}
}

// TestConcurrentPutsApplyWhole: 16 PUTs of one topic arriving within a
// few milliseconds, each sending a pair of settings, end with one of the
// pairs sent (three rounds).
func TestConcurrentPutsApplyWhole(t *testing.T) {
	s := newServer(t, nil)
	base := "/api/v1/scada/dev"
	s.w.Cluster("edh-shared", "dev").SetLatency(2 * time.Millisecond)
	policies := []string{"delete", "compact"}
	for round := range 3 {
		topic := fmt.Sprintf("pairs-%d", round)
		if r := s.do("POST", base+"/topic", "carol", `{"name": "`+topic+`"}`); r.status != http.StatusCreated {
			t.Fatalf("create: %d %s", r.status, r.raw)
		}
		var wg sync.WaitGroup
		for i := range 16 {
			wg.Go(func() {
				time.Sleep(time.Duration(i) * time.Millisecond) // arrivals spread over a few milliseconds
				body := fmt.Sprintf(`{"partitions_count": 1, "config": {"cleanup.policy": %q, "retention.ms": "%d"}}`, policies[i%2], 100000+i)
				if r := s.do("PUT", base+"/topic/"+topic, "carol", body); r.status != 200 {
					t.Errorf("put %d: %d %s", i, r.status, r.raw)
				}
			})
		}
		wg.Wait()
		cfg := s.do("GET", base+"/topic/"+topic, "carol", "").body["config"].(map[string]any)
		var ms int
		if _, err := fmt.Sscan(cfg["retention.ms"].(string), &ms); err != nil {
			t.Fatal(err)
		}
		if i := ms - 100000; i < 0 || i >= 16 || cfg["cleanup.policy"] != policies[i%2] {
			t.Errorf("round %d: the topic ended as a pair nobody sent: %v", round, cfg)
		}
	}
}
