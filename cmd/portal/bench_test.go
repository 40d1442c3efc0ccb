package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/config"
)

// BenchmarkListTopicsAPI lists one business unit's topics through the API
// (HTTP, bearer verification, policy, naming filter, paging, JSON) on a
// cluster holding 10,000 topics, 2,500 of them the unit's. "cached" reuses
// the topic list for the configured TTL, as the portal does; "uncached"
// sends one metadata request per API request. Compare with
// BenchmarkMetadataRaw in internal/platform/kafkaadmin, one raw
// AdminClient metadata call on a cluster of the same size.
func BenchmarkListTopicsAPI(b *testing.B) {
	for _, c := range []struct {
		name string
		ttl  time.Duration
	}{{"cached", 2 * time.Second}, {"uncached", 0}} {
		b.Run(c.name, func(b *testing.B) {
			tp := startPortal(b, func(cfg *config.Config) { cfg.MetadataCacheTTL = c.ttl })
			cl := tp.app.clusters["edh-shared/dev"]
			var names []string
			for i := 0; i < 2500; i++ {
				for _, prefix := range []string{"edh-shared-scada-dev-", "edh-shared-crm-dev-", "edh-shared-platform-dev-", "other-"} {
					names = append(names, fmt.Sprintf("%sbench-%05d", prefix, i))
				}
			}
			if err := cl.CreateTopics(context.Background(), names, 1); err != nil {
				b.Fatal(err)
			}
			token := tp.token("carol")
			req, _ := http.NewRequest("GET", tp.url+"/api/v1/scada/dev/topics?page_size=100", nil)
			req.Header.Set("Authorization", "Bearer "+token)
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
			get := func() {
				resp, err := client.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					b.Fatalf("status %d", resp.StatusCode)
				}
			}
			get()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				get()
			}
		})
	}
}
