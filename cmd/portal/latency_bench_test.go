package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/edh-platform/rms-portal/internal/config"
	"github.com/edh-platform/rms-portal/internal/dev/idp/idptest"
)

// BenchmarkListLatency is the list latency suite, on one embedded cluster
// of 10,000 topics and one of 100,000 (a quarter of them scada's), through
// the API with a bearer token, metrics on, rate limits off:
//
//   - p50-ms, p99-ms, max-ms: a page of 100 of scada's topics (names filtered and
//     paged from the whole list), as seen by the client, under a mixed
//     load of 4 readers without pause and one topic created (and later
//     deleted) every second through the API, for 10 s;
//   - list/healthz: authenticated lists per second as a fraction of
//     /healthz per second, 8 callers each, 3 s each;
//   - metadata-ms: one raw metadata request for every topic, from a
//     separate client (the median of 10): what a cold list would pay.
//
// Ratios, not absolute figures, are what hold from machine to machine.
// Run it with make bench (one iteration each: -benchtime 1x).
func BenchmarkListLatency(b *testing.B) {
	for _, n := range []int{10000, 100000} {
		b.Run(fmt.Sprintf("topics=%d", n), func(b *testing.B) {
			tp := startPortalWith(b, func(cfg *config.Config) {
				cfg.RateLimits.Caller.PerSecond, cfg.RateLimits.Unit.PerSecond = -1, -1
				cfg.MetadataCacheTTL = 15 * time.Second
			}, hooks{})
			cl := tp.app.dev.platform.Clusters["edh-shared/dev"]
			var names []string
			for i := 0; i < n/4; i++ {
				for _, prefix := range []string{"edh-shared-scada-dev-", "edh-shared-crm-dev-", "edh-shared-platform-dev-", "other-"} {
					names = append(names, fmt.Sprintf("%sbench-%06d", prefix, i))
				}
			}
			if err := cl.CreateTopics(context.Background(), names, 1); err != nil {
				b.Fatal(err)
			}
			token := tp.token("carol")
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
			get := func(path string) (int, time.Duration) {
				req, _ := http.NewRequest("GET", tp.url+path, nil)
				req.Header.Set("Authorization", "Bearer "+token)
				start := time.Now()
				resp, err := client.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				return resp.StatusCode, time.Since(start)
			}
			// The background refresh brings the new topics in.
			deadline := time.Now().Add(2 * time.Minute)
			for {
				r := tp.call("GET", "/api/v1/scada/dev/topics?page_size=1", "carol", nil)
				if r.status == 200 && r.json(b)["total_size"].(float64) >= float64(n/4) {
					break
				}
				if time.Now().After(deadline) {
					b.Fatalf("the list never showed the %d topics", n)
				}
				time.Sleep(200 * time.Millisecond)
			}

			metadata := rawMetadata(b, cl.ClientOpts(), n)
			p50, p99, slowest := mixedLoad(b, tp, get, 10*time.Second)
			list := rate(b, get, "/api/v1/scada/dev/topics?page_size=100", 3*time.Second)
			healthz := rate(b, get, "/healthz", 3*time.Second)
			b.ReportMetric(p50, "p50-ms")
			b.ReportMetric(p99, "p99-ms")
			b.ReportMetric(slowest, "max-ms")
			b.ReportMetric(list/healthz, "list/healthz")
			b.ReportMetric(list, "lists/s")
			b.ReportMetric(healthz, "healthz/s")
			b.ReportMetric(metadata, "metadata-ms")
		})
	}
}

// rawMetadata is the median time of one metadata request for every topic.
func rawMetadata(b *testing.B, opts []kgo.Opt, n int) float64 {
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		b.Fatal(err)
	}
	defer cl.Close()
	var took []time.Duration
	for range 10 {
		req := kmsg.NewPtrMetadataRequest()
		start := time.Now()
		resp, err := req.RequestWith(context.Background(), cl)
		if err != nil || len(resp.Topics) < n {
			b.Fatalf("metadata: %v, %d topics", err, len(resp.Topics))
		}
		took = append(took, time.Since(start))
	}
	slices.Sort(took)
	return float64(took[len(took)/2].Microseconds()) / 1000
}

// mixedLoad reads pages of 100 with 4 callers while a topic is created
// every second, and returns the p50, p99 and slowest of the reads, in ms.
func mixedLoad(b *testing.B, tp *testPortal, get func(string) (int, time.Duration), d time.Duration) (float64, float64, float64) {
	stop := time.Now().Add(d)
	var mu sync.Mutex
	var lat []time.Duration
	var wg sync.WaitGroup
	pages := []string{"", "&search=bench-00", "&order=desc", "&search=sensor"}
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []time.Duration
			for i := 0; time.Now().Before(stop); i++ {
				status, took := get("/api/v1/scada/dev/topics?page_size=100" + pages[(w+i)%len(pages)])
				if status != 200 {
					b.Errorf("list: %d", status)
					return
				}
				mine = append(mine, took)
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		}()
	}
	var created []string
	run := time.Now().UnixNano() % 1e6
	for i := 0; time.Now().Before(stop); i++ {
		name := fmt.Sprintf("mixed-%d-%d", run, i)
		if r := tp.call("POST", "/api/v1/scada/dev/topic", "carol", map[string]any{"name": name}); r.status != 201 {
			b.Errorf("create %s: %d %s", name, r.status, r.body)
		}
		created = append(created, name)
		time.Sleep(time.Second)
	}
	wg.Wait()
	for _, name := range created {
		tp.call("DELETE", "/api/v1/scada/dev/topic/"+name, "carol", nil)
	}
	slices.Sort(lat)
	if len(lat) == 0 {
		b.Fatal("no reads")
	}
	ms := func(q float64) float64 { return float64(lat[int(q*float64(len(lat)-1))].Microseconds()) / 1000 }
	return ms(0.5), ms(0.99), ms(1)
}

// rate is how many GETs of path 8 callers complete per second.
func rate(b *testing.B, get func(string) (int, time.Duration), path string, d time.Duration) float64 {
	var done atomic.Int64
	stop := time.Now().Add(d)
	start := time.Now()
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(stop) {
				if status, _ := get(path); status != 200 {
					b.Errorf("%s: %d", path, status)
					return
				}
				done.Add(1)
			}
		}()
	}
	wg.Wait()
	return float64(done.Load()) / time.Since(start).Seconds()
}

// BenchmarkServeRSS is the resident memory of a serve process (no
// embedded brokers) whose three clusters (scada in dev, qas and run, from
// a dev instance) hold 10,000 topics each, after 10,000 list calls spread
// over them by 4 callers for at least a minute (RSS_SOAK) while a topic
// is created every 100 ms (each
// write replaces the cluster's cached list): rss-MB, read from /proc, and
// the Go heap in use. The binary is built
// without the race detector (its memory would be measured); Linux only.
func BenchmarkServeRSS(b *testing.B) {
	if raceEnabled {
		b.Skip("the race detector's memory would be measured")
	}
	dir := b.TempDir()
	serveConfig := filepath.Join(dir, "serve.yaml")
	dev := startProcess(b, "dev instance", []string{"dev", "--write-serve-config", serveConfig, "--data", filepath.Join(dir, "dev"),
		"--bulk-topics", "10000", "--bulk-clusters", "3"})
	// One caller at full speed is what is measured, not refused.
	unlimited(b, serveConfig)
	serve := startProcess(b, "serve replica", []string{"serve", "--config", serveConfig}, "DATABASE_URL=sqlite:"+filepath.Join(dir, "serve.db"))
	res, err := idptest.SignIn(context.Background(), dev.url+"/dev/idp", "rms-portal", "carol", "openid", "api://rms-portal/.default")
	if err != nil {
		b.Fatal(err)
	}
	token := res.Token.AccessToken
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 8}}
	var calls atomic.Int64
	// At least 10,000 calls, and for RSS_SOAK (default 60 s) while the
	// writes go on.
	soak := 60 * time.Second
	if d, err := time.ParseDuration(os.Getenv("RSS_SOAK")); err == nil {
		soak = d
	}
	start := time.Now()
	var wg sync.WaitGroup
	stages := []string{"dev", "qas", "run"}
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; calls.Add(1) <= 10000 || time.Since(start) < soak; i++ {
				path := fmt.Sprintf("/api/v1/scada/%s/topics?page_size=100&search=load-%d", stages[i%3], i%100)
				req, _ := http.NewRequest("GET", serve.url+path, nil)
				req.Header.Set("Authorization", "Bearer "+token)
				resp, err := client.Do(req)
				if err != nil {
					b.Error(err)
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					b.Errorf("%s: %d", path, resp.StatusCode)
					return
				}
			}
		}()
	}
	// Writes go on meanwhile (one every 100 ms): each replaces the
	// cluster's cached list, as a busy platform's do.
	stop := make(chan struct{})
	writes := make(chan int, 1)
	go func() {
		n := 0
		defer func() { writes <- n }()
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
			}
			body := strings.NewReader(fmt.Sprintf(`{"name": "rss-write-%d", "partitions_count": 1}`, n))
			req, _ := http.NewRequest("POST", serve.url+"/api/v1/scada/dev/topic", body)
			req.Header.Set("Authorization", "Bearer "+token)
			req.Header.Set("Content-Type", "application/json")
			if resp, err := client.Do(req); err == nil {
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				n++
			}
		}
	}()
	wg.Wait()
	close(stop)
	b.ReportMetric(float64(<-writes), "writes")
	if resp, err := http.Get(serve.url + "/metrics"); err == nil {
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		for _, l := range strings.Split(string(body), "\n") {
			if v, ok := strings.CutPrefix(l, "go_memstats_heap_inuse_bytes "); ok {
				n, _ := strconv.ParseFloat(v, 64)
				b.ReportMetric(n/(1<<20), "go-heap-MB")
			}
		}
	}
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", serve.cmd.Process.Pid))
	if err != nil {
		b.Skipf("no /proc: %v", err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if kb, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(kb), "kB")))
			b.ReportMetric(float64(n)/1024, "rss-MB")
		}
	}
}

// unlimited turns a serve configuration's per-caller and per-unit rate
// limits off.
func unlimited(b *testing.B, path string) {
	b.Helper()
	editServeConfig(b, path, func(doc map[string]any) {
		rl, _ := doc["rate_limits"].(map[string]any)
		if rl == nil {
			rl = map[string]any{}
			doc["rate_limits"] = rl
		}
		for _, k := range []string{"caller", "unit"} {
			rl[k] = map[string]any{"per_second": -1}
		}
	})
}
