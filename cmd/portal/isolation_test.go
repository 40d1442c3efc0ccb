package main

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/edh-platform/rms-portal/internal/upstream"
)

// TestOneTenantNeverCostsAnother: while a Developer of scada sends what
// the last probe sent (records larger than the topic takes, a record near
// the portal's own limit, a schema of 100,000 enum symbols, a topic
// deleted after its metrics were watched), another unit's pages and API
// are read all along: none of their answers is a 5xx, the shared
// cluster's and registry's circuits stay closed, and scada gets its own
// 4xx for each refusal.
func TestOneTenantNeverCostsAnother(t *testing.T) {
	tp := startPortal(t, nil)
	sfx := suffix()
	base := "/api/v1/scada/dev"

	// The quiet unit: crm's topics, schemas and consumer groups, read
	// without pause by alice (Super Admin of the zone).
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	var reads int
	var fails []string
	crmToken := tp.token("alice")
	for _, path := range []string{"/api/v1/crm/dev/topics", "/api/v1/crm/dev/schemas", "/api/v1/crm/dev/consumer-groups"} {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				req, _ := http.NewRequest(http.MethodGet, tp.url+path, nil)
				req.Header.Set("Authorization", "Bearer "+crmToken)
				resp, err := http.DefaultClient.Do(req)
				mu.Lock()
				reads++
				switch {
				case err != nil:
					fails = append(fails, path+": "+err.Error())
				case resp.StatusCode >= 500:
					fails = append(fails, fmt.Sprintf("%s: %d", path, resp.StatusCode))
				}
				mu.Unlock()
				if err == nil {
					resp.Body.Close()
				}
			}
		})
	}

	// 1. Records larger than the topic takes, and one near the portal's
	// limit: the Developer's own 400, on the record's value.
	small := "small-" + sfx
	if r := tp.call("POST", base+"/topic", "carol", map[string]any{"name": small, "config": map[string]string{"max.message.bytes": "1024"}}); r.status != 201 {
		t.Fatalf("create: %d %s", r.status, r.body)
	}
	tp.removeAfter(base + "/topic/edh-shared-scada-dev-" + small)
	for range 10 {
		wantError(t, tp.call("POST", base+"/topic/"+small+"/records", "carol", map[string]any{"records": []map[string]any{{"value": strings.Repeat("x", 5000)}}}),
			http.StatusBadRequest, "INVALID_PARAMETER:records[0].value")
	}
	big := "big-" + sfx
	if r := tp.call("POST", base+"/topic", "carol", map[string]any{"name": big}); r.status != 201 {
		t.Fatalf("create: %d %s", r.status, r.body)
	}
	tp.removeAfter(base + "/topic/edh-shared-scada-dev-" + big)
	for range 3 {
		r := tp.call("POST", base+"/topic/"+big+"/records", "carol", map[string]any{"records": []map[string]any{{"value": strings.Repeat("y", 1_040_000)}}})
		if r.status >= 500 {
			t.Errorf("a record near 1 MiB: %d %s", r.status, r.body)
		}
	}

	// 2. A schema of 100,000 enum symbols: whatever the registry makes of
	// it, it is the Developer's answer alone.
	symbols := make([]string, 100_000)
	for i := range symbols {
		symbols[i] = fmt.Sprintf(`"SYMBOL_%06d"`, i)
	}
	huge := `{"type":"enum","name":"Huge","symbols":[` + strings.Join(symbols, ",") + `]}`
	r := tp.call("POST", base+"/schema", "carol", map[string]any{"topic": "huge-" + sfx, "subject_type": "value", "schema_type": "AVRO", "schema": huge})
	if r.status >= 500 {
		t.Errorf("a schema of %d bytes: %d %.300s", len(huge), r.status, r.body)
	}
	if r.status == 201 { // cleanups run last first: soft, then for good
		tp.removeAfter(base + "/schema/edh-shared-scada-dev-huge-" + sfx + "-value/1?permanent=true")
		tp.removeAfter(base + "/schema/edh-shared-scada-dev-huge-" + sfx + "-value/1")
	}

	// 3. A topic whose metrics were watched, then deleted: the sampler
	// finds it gone, forgets it, and the cluster stays well.
	gone := "gone-" + sfx
	if r := tp.call("POST", base+"/topic", "carol", map[string]any{"name": gone, "partitions_count": 2}); r.status != 201 {
		t.Fatalf("create: %d %s", r.status, r.body)
	}
	tp.call("POST", base+"/topic/"+gone+"/records", "carol", map[string]any{"records": []map[string]any{{"value": "v"}}})
	if r := tp.call("GET", base+"/topic/"+gone+"/metrics", "carol", nil); r.status != 200 {
		t.Fatalf("metrics: %d %s", r.status, r.body)
	}
	watched := tp.app.sampler.Watched()
	if r := tp.call("DELETE", base+"/topic/"+gone, "carol", nil); r.status != 204 {
		t.Fatalf("delete: %d %s", r.status, r.body)
	}
	for range 5 {
		tp.app.sampler.SampleOnce(context.Background())
	}
	if n := tp.app.sampler.Watched(); n != watched-1 {
		t.Errorf("the sampler watches %d topics after the delete, %d before", n, watched)
	}

	close(stop)
	wg.Wait()
	if len(fails) > 0 || reads < 10 {
		t.Errorf("crm, read %d times meanwhile, got %d failures: %v", reads, len(fails), fails[:min(len(fails), 10)])
	}
	for _, h := range tp.app.upstreams.Report() {
		if (h.Kind == upstream.Cluster || h.Kind == upstream.SchemaRegistry) && strings.HasPrefix(h.Name, "edh-shared/") && (h.Circuit != "closed" || h.State == "failing") {
			t.Errorf("%s %s after scada's requests: %+v", h.Kind, h.Name, h)
		}
	}
}
