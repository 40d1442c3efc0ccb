package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/edh-platform/rms-portal/internal/config"
)

// BenchmarkListTopicsAPI lists one business unit's topics through the API
// (HTTP, bearer verification, policy, naming filter, paging, JSON) on a
// cluster holding 10,000 topics, 2,500 of them the unit's. "cached" reuses
// the topic list for the configured TTL, as the portal does; "uncached"
// sends one metadata request per API request. Compare with
// BenchmarkMetadataRaw in internal/platform/kafkaadmin, one raw
// AdminClient metadata call on a cluster of the same size. Metrics are
// always on; "traced" also records every span (request, upstream,
// database) and exports them in batches to an exporter that drops them,
// the cost tracing adds when OTEL_EXPORTER_OTLP_ENDPOINT is set.
func BenchmarkListTopicsAPI(b *testing.B) {
	for _, c := range []struct {
		name   string
		ttl    time.Duration
		traced bool
	}{{"cached", 2 * time.Second, false}, {"cached-traced", 2 * time.Second, true}, {"uncached", 0, false}} {
		b.Run(c.name, func(b *testing.B) {
			var h hooks
			if c.traced {
				provider := sdktrace.NewTracerProvider(sdktrace.WithBatcher(tracetest.NewNoopExporter()))
				b.Cleanup(func() { _ = provider.Shutdown(context.Background()) })
				h.tracerProvider = provider
			}
			tp := startPortalWith(b, func(cfg *config.Config) {
				cfg.MetadataCacheTTL = c.ttl
				// One caller at full speed is what is measured, not refused.
				cfg.RateLimits.Caller.PerSecond, cfg.RateLimits.Unit.PerSecond = -1, -1
			}, h)
			tenThousandTopics(b, tp, "bench")
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

// BenchmarkMetricsPage is one load of a cluster's metrics (counts, and
// six charts over the last hour) through the API in dev mode, where the
// Metrics API is the stand-in this process serves over HTTP. "cold"
// empties the stored answers before each load, so that all six queries
// go to the Metrics API (side by side); "warm" finds them in the store,
// as every load within a minute of the first does on any replica.
func BenchmarkMetricsPage(b *testing.B) {
	tp := startPortalWith(b, func(cfg *config.Config) {
		cfg.RateLimits.Caller.PerSecond, cfg.RateLimits.Unit.PerSecond = -1, -1
	}, hooks{})
	req, _ := http.NewRequest("GET", tp.url+"/api/v1/scada/dev/metrics?range=1h", nil)
	req.Header.Set("Authorization", "Bearer "+tp.token("carol"))
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
	forget := func() {
		if _, err := tp.app.store.DeleteMetricResultsBefore(context.Background(), time.Now().Add(time.Hour)); err != nil {
			b.Fatal(err)
		}
	}
	get()
	b.Run("cold", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			forget()
			b.StartTimer()
			get()
		}
	})
	b.Run("warm", func(b *testing.B) {
		get()
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			get()
		}
	})
}

// BenchmarkPlan500Topics plans a document of 500 topics that all exist,
// through the API: one metadata request (the cached list) and one
// DescribeConfigs for the 500, not one describe per topic. Target: 50 ms.
func BenchmarkPlan500Topics(b *testing.B) {
	tp := startPortalWith(b, func(cfg *config.Config) {
		cfg.RateLimits.Caller.PerSecond, cfg.RateLimits.Unit.PerSecond = -1, -1
	}, hooks{})
	cl := tp.app.dev.platform.Clusters["edh-shared/dev"]
	var names []string
	var doc bytes.Buffer
	doc.WriteString(`{"items": [`)
	for i := 0; i < 500; i++ {
		names = append(names, fmt.Sprintf("edh-shared-scada-dev-plan-%03d", i))
		if i > 0 {
			doc.WriteString(",")
		}
		fmt.Fprintf(&doc, `{"apiVersion": "portal/v1", "kind": "Topic", "metadata": {"name": "plan-%03d"}, "spec": {"partitions": 1, "config": {}}}`, i)
	}
	doc.WriteString("]}")
	if err := cl.CreateTopics(context.Background(), names, 1); err != nil {
		b.Fatal(err)
	}
	token := tp.token("carol")
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	plan := func() bool {
		req, _ := http.NewRequest("POST", tp.url+"/api/v1/scada/dev/plan", bytes.NewReader(doc.Bytes()))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			b.Fatalf("plan: %d %.300s", resp.StatusCode, body)
		}
		return bytes.Contains(body, []byte(`"unchanged":500`))
	}
	// The topics were made behind the portal's back: its list learns them
	// at its next refresh.
	for deadline := time.Now().Add(30 * time.Second); !plan(); {
		if time.Now().After(deadline) {
			b.Fatal("the portal's topic list never showed the 500 topics")
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if !plan() {
			b.Fatal("the plan is not 500 unchanged topics")
		}
	}
}

// BenchmarkApply500TopicCreates applies a document of 500 new topics
// through the API (the plan made first, off the clock): one CreateTopics
// request for the 500, each create audited. Target: 1 s.
func BenchmarkApply500TopicCreates(b *testing.B) {
	post := applyClient(b)
	for n := 0; n < b.N; n++ {
		b.StopTimer()
		var doc bytes.Buffer
		doc.WriteString(`{"items": [`)
		for i := 0; i < 500; i++ {
			if i > 0 {
				doc.WriteString(",")
			}
			fmt.Fprintf(&doc, `{"apiVersion": "portal/v1", "kind": "Topic", "metadata": {"name": "apply-%d-%03d"}, "spec": {"partitions": 1}}`, n, i)
		}
		doc.WriteString("]}")
		var plan struct{ Fingerprint string }
		if err := json.Unmarshal(post("/api/v1/scada/dev/plan", doc.Bytes()), &plan); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		body := post("/api/v1/scada/dev/apply", doc.Bytes(), "If-Match", `"`+plan.Fingerprint+`"`)
		if !bytes.Contains(body, []byte(`"applied":500`)) {
			b.Fatalf("apply: %.300s", body)
		}
	}
}

// BenchmarkApply500TopicUpdates applies a document that changes a
// setting of 500 existing topics (retention.ms, new in each round)
// through the API, the plan made first, off the clock: one
// IncrementalAlterConfigs request for the 500 (their settings read in
// one DescribeTopics and one DescribeConfigs request, the 500 locked
// together), each change audited with its before and after. Target: 1 s.
func BenchmarkApply500TopicUpdates(b *testing.B) {
	post := applyClient(b)
	doc := func(retention string) []byte {
		var doc bytes.Buffer
		doc.WriteString(`{"items": [`)
		for i := 0; i < 500; i++ {
			if i > 0 {
				doc.WriteString(",")
			}
			fmt.Fprintf(&doc, `{"apiVersion": "portal/v1", "kind": "Topic", "metadata": {"name": "update-%03d"}, "spec": {"partitions": 1%s}}`, i, retention)
		}
		doc.WriteString("]}")
		return doc.Bytes()
	}
	apply := func(doc []byte, want string) {
		b.StopTimer()
		var plan struct{ Fingerprint string }
		if err := json.Unmarshal(post("/api/v1/scada/dev/plan", doc), &plan); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if body := post("/api/v1/scada/dev/apply", doc, "If-Match", `"`+plan.Fingerprint+`"`); !bytes.Contains(body, []byte(want)) {
			b.Fatalf("apply: %.300s", body)
		}
	}
	b.StopTimer()
	apply(doc(""), `"applied":500`) // the topics, made once
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		apply(doc(fmt.Sprintf(`, "config": {"retention.ms": "%d"}`, 3600000+n)), `"applied":500`)
	}
}

// applyClient starts a portal without rate limits and returns a POST of a
// document as carol that fails the benchmark on any answer but 200.
func applyClient(b *testing.B) func(path string, doc []byte, header ...string) []byte {
	tp := startPortalWith(b, func(cfg *config.Config) {
		cfg.RateLimits.Caller.PerSecond, cfg.RateLimits.Unit.PerSecond = -1, -1
	}, hooks{})
	token := tp.token("carol")
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	return func(path string, doc []byte, header ...string) []byte {
		req, _ := http.NewRequest("POST", tp.url+path, bytes.NewReader(doc))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			b.Fatalf("%s: %d %.300s", path, resp.StatusCode, body)
		}
		return body
	}
}

// BenchmarkSearch is one search of the search box through the API (every
// kind of the unit: topics from the cached listing, groups, connectors,
// subjects, accounts and pools from the dev stand-ins) on a cluster of
// 10,000 topics, 2,500 of them the unit's, as carol types a name. It
// reports the 99th percentile besides the mean; the bound is
// 100 ms.
func BenchmarkSearch(b *testing.B) {
	tp := startPortalWith(b, func(cfg *config.Config) {
		cfg.MetadataCacheTTL = 2 * time.Second
		cfg.RateLimits.Caller.PerSecond, cfg.RateLimits.Unit.PerSecond = -1, -1
	}, hooks{})
	tenThousandTopics(b, tp, "search")
	token := tp.token("carol")
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	find := func(q string) time.Duration {
		req, _ := http.NewRequest("GET", tp.url+"/api/v1/scada/dev/search?q="+q, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		start := time.Now()
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			b.Fatalf("status %d", resp.StatusCode)
		}
		return time.Since(start)
	}
	find("search-0")
	var took []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		took = append(took, find(fmt.Sprintf("search-%04d", i%2500)))
	}
	b.StopTimer()
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)*99/100])/1e6, "p99-ms")
}

// tenThousandTopics fills edh-shared's dev cluster with 10,000 topics
// named word-NNNNN, 2,500 each of scada, crm, platform and no unit.
func tenThousandTopics(b *testing.B, tp *testPortal, word string) {
	b.Helper()
	var names []string
	for i := 0; i < 2500; i++ {
		for _, prefix := range []string{"edh-shared-scada-dev-", "edh-shared-crm-dev-", "edh-shared-platform-dev-", "other-"} {
			names = append(names, fmt.Sprintf("%s%s-%05d", prefix, word, i))
		}
	}
	if err := tp.app.dev.platform.Clusters["edh-shared/dev"].CreateTopics(context.Background(), names, 1); err != nil {
		b.Fatal(err)
	}
}
