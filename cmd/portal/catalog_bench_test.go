package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/config"
	"github.com/edh-platform/rms-portal/internal/store"
)

// timedGet answers a GET's duration, failing on any status but 200.
func timedGet(b *testing.B, client *http.Client, url, token string) time.Duration {
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	start := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b.Fatalf("%s: %d %s", url, resp.StatusCode, body)
	}
	return time.Since(start)
}

func p99(took []time.Duration) float64 {
	slices.Sort(took)
	return float64(took[len(took)*99/100]) / 1e6
}

// BenchmarkCatalogSearch searches the zone's catalog through the API as
// crm's Developer: 10,000 topics on the zone's cluster (7,500 of its
// units, each described with a description and two tags, 200 with a
// value schema), by text, tag, owner and schema field in turn. It
// reports the 99th percentile and the first search (which builds the
// zone's index: one topic list, one read of the entries and grants, one
// list of the registry's latest schemas); the bound is 100 ms.
func BenchmarkCatalogSearch(b *testing.B) {
	tp := startPortalWith(b, func(cfg *config.Config) {
		cfg.MetadataCacheTTL = 2 * time.Second
		cfg.RateLimits.Caller.PerSecond, cfg.RateLimits.Unit.PerSecond = -1, -1
	}, hooks{})
	tenThousandTopics(b, tp, "cat")
	ctx := context.Background()
	for i := 0; i < 2500; i++ {
		for _, unit := range []string{"scada", "crm", "platform"} {
			topic := fmt.Sprintf("edh-shared-%s-dev-cat-%05d", unit, i)
			e := store.CatalogEntry{Zone: "edh-shared", Stage: "dev", Topic: topic, BU: unit, Description: fmt.Sprintf("Readings of line %d", i),
				Contact: unit + "-team@example.com", Tags: []string{fmt.Sprintf("line-%d", i%50), unit}, Classification: "internal"}
			if err := tp.app.store.PutCatalogEntry(ctx, e); err != nil {
				b.Fatal(err)
			}
		}
	}
	for i := 0; i < 200; i++ {
		schema := fmt.Sprintf(`{"type":"record","name":"R%d","fields":[{"name":"meter_%d","type":"string"},{"name":"value","type":"double"}]}`, i, i)
		r := tp.call("POST", "/api/v1/scada/dev/schema", "carol", map[string]any{"topic": fmt.Sprintf("cat-%05d", i), "subject_type": "value",
			"schema_type": "AVRO", "schema": schema})
		if r.status != http.StatusCreated {
			b.Fatalf("schema: %d %s", r.status, r.body)
		}
	}
	token := tp.token("alice")
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	base := tp.url + "/api/v1/crm/dev/catalog?page_size=50&"
	// The topics were made behind the portal's back: its cached list
	// takes them in at its next refresh.
	deadline := time.Now().Add(30 * time.Second)
	for {
		r := tp.call("GET", "/api/v1/crm/dev/catalog?tag=scada&page_size=1", "alice", nil)
		if n, _ := r.json(b)["total_size"].(float64); n >= 2500 {
			break
		}
		if time.Now().After(deadline) {
			b.Fatalf("the catalog does not list the 2,500 described scada topics: %s", r.body)
		}
		<-time.After(200 * time.Millisecond)
	}
	// The first search after a change of the topic list builds the index.
	tp.call("POST", "/api/v1/scada/dev/topic", "carol", map[string]any{"name": "cat-first"})
	cold := timedGet(b, client, base+"search=line+17", token)
	queries := []string{"search=line+1", "tag=line-7", "owner=scada", "field=meter_42", "classification=internal&tag=crm", "search=readings"}
	var took []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		took = append(took, timedGet(b, client, base+queries[i%len(queries)], token))
	}
	b.StopTimer()
	b.ReportMetric(p99(took), "p99-ms")
	b.ReportMetric(float64(cold)/1e6, "first-ms")
}

// BenchmarkTopicImpact asks what deleting a topic read by 100 consumer
// groups would break, through the API on the embedded cluster: the
// groups (one list, their offsets and descriptions in batches, the
// topic's ends), the zone's grants, the connectors and the subjects. It
// reports the 99th percentile; the bound is 300 ms.
func BenchmarkTopicImpact(b *testing.B) {
	tp := startPortalWith(b, func(cfg *config.Config) {
		cfg.RateLimits.Caller.PerSecond, cfg.RateLimits.Unit.PerSecond = -1, -1
	}, hooks{})
	topic := "edh-shared-scada-dev-impact"
	if r := tp.call("POST", "/api/v1/scada/dev/topic", "carol", map[string]any{"name": "impact", "partitions_count": 6}); r.status != http.StatusCreated {
		b.Fatalf("topic: %d %s", r.status, r.body)
	}
	cluster := tp.app.dev.platform.Clusters["edh-shared/dev"]
	for i := 0; i < 100; i++ {
		unit := []string{"scada", "crm", "platform"}[i%3]
		if err := cluster.Commit(context.Background(), fmt.Sprintf("edh-shared-%s-dev-reader-%03d", unit, i), topic, map[int32]int64{0: 0, 1: 0}); err != nil {
			b.Fatal(err)
		}
	}
	token := tp.token("carol")
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	url := tp.url + "/api/v1/scada/dev/topic/impact/impact"
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if n := strings.Count(string(body), `"kind":"consumer_group"`); n != 100 {
		b.Fatalf("the impact lists %d groups: %.300s", n, body)
	}
	var took []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		took = append(took, timedGet(b, client, url, token))
	}
	b.StopTimer()
	b.ReportMetric(p99(took), "p99-ms")
}
