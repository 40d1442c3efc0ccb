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
	"syscall"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/dev/idp/idptest"
)

// BenchmarkManyEnvironments is what a serve replica configured for 300
// environments (100 landing zones of 3 stages, most mapped onto the dev
// instance's clusters) costs while nobody uses it, beside one of the dev
// platform's 9 (its 3 zones), measured as a platform team would: after
// MANY_SETTLE (1 minute by default) it reads the replica's threads and
// RSS from /proc and its CPU over MANY_WINDOW (2 minutes), as a share of
// one core; rss-ratio is the 300's RSS over the 9's. Then, on the 300,
// the first request to each of MANY_COLD (30) environments nobody used
// (cold-p50-ms, cold-p99-ms: the slowest of fewer than 100) beside the
// same request again (warm-ms, the median of 20), and the time from
// SIGTERM to the process's exit (sigterm-s, the 10 s drain included).
// Targets: at most 150 threads and 1% of a core idle; the 300 within 1.5
// times the 9's memory; a first request under 50 ms at p99; exit under
// 15 s. SERVE_BINARY runs that build (make bench passes the static
// binary). Linux only.
func BenchmarkManyEnvironments(b *testing.B) {
	if raceEnabled {
		b.Skip("the race detector's cost would be measured")
	}
	var rss9 float64
	for _, zones := range []int{3, 100} {
		b.Run(strconv.Itoa(zones*3), func(b *testing.B) {
			rss := idleReplica(b, zones, rss9)
			if zones == 3 {
				rss9 = rss
			}
		})
	}
}

// idleReplica measures a serve replica of zones landing zones (see
// BenchmarkManyEnvironments) and returns its idle RSS in MB; with rss9,
// it reports its ratio to it.
func idleReplica(b *testing.B, zones int, rss9 float64) float64 {
	settle, window := benchDuration("MANY_SETTLE", time.Minute), benchDuration("MANY_WINDOW", 2*time.Minute)
	dir := b.TempDir()
	serveConfig := filepath.Join(dir, "serve.yaml")
	dev := startProcess(b, "dev instance", []string{"dev", "--write-serve-config", serveConfig, "--data", filepath.Join(dir, "dev")})
	editServeConfig(b, serveConfig, func(doc map[string]any) {
		zones = manyZones(b, doc, zones)
	})
	serve := startBinary(b, os.Getenv("SERVE_BINARY"), "serve replica", []string{"serve", "--config", serveConfig},
		"DATABASE_URL=sqlite:"+filepath.Join(dir, "serve.db"))
	serve.waitReady(time.Minute)
	pid := serve.cmd.Process.Pid
	b.Logf("%d environments; settling for %v, then measuring for %v", zones*3, settle, window)
	time.Sleep(settle) // the replica idles: nothing is waited for
	cpu0, start := cpuTicks(b, pid), time.Now()
	time.Sleep(window)
	cpu := float64(cpuTicks(b, pid)-cpu0) / clockTicks / time.Since(start).Seconds() * 100
	rss := float64(procStatus(b, pid, "VmRSS")) / 1024
	b.ReportMetric(float64(procStatus(b, pid, "Threads")), "threads")
	b.ReportMetric(rss, "rss-MB")
	b.ReportMetric(cpu, "idle-cpu-%")
	if rss9 > 0 {
		b.ReportMetric(rss/rss9, "rss-ratio")
	}

	res, err := idptest.SignIn(context.Background(), dev.url+"/dev/idp", "rms-portal", "carol", "openid", "api://rms-portal/.default")
	if err != nil {
		b.Fatal(err)
	}
	client := &http.Client{Timeout: 30 * time.Second}
	get := func(path string) time.Duration {
		req, _ := http.NewRequest(http.MethodGet, serve.url+path, nil)
		req.Header.Set("Authorization", "Bearer "+res.Token.AccessToken)
		started := time.Now()
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("GET %s: %d", path, resp.StatusCode)
		}
		return time.Since(started)
	}
	// Signing in is not what is measured: warm the caller up on another unit.
	get("/api/v1/scada/dev/topics")
	if cold := min(benchInt("MANY_COLD", 30), zones-3); cold > 0 {
		// Each a unit of its own zone, in turn of its stages: an
		// environment nobody used since the replica started.
		var firsts []time.Duration
		for i := range cold {
			firsts = append(firsts, get(fmt.Sprintf("/api/v1/b%03d/%s/topics", i+1, []string{"dev", "qas", "run"}[i%3])))
		}
		slices.Sort(firsts)
		b.ReportMetric(float64(firsts[len(firsts)/2].Microseconds())/1000, "cold-p50-ms")
		b.ReportMetric(float64(firsts[len(firsts)*99/100].Microseconds())/1000, "cold-p99-ms")
		var warm []time.Duration
		for range 20 {
			warm = append(warm, get("/api/v1/b001/dev/topics"))
		}
		slices.Sort(warm)
		b.ReportMetric(float64(warm[len(warm)/2].Microseconds())/1000, "warm-ms")
	}

	stopping := time.Now()
	if err := serve.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		b.Fatal(err)
	}
	select {
	case <-serve.done:
	case <-time.After(3 * time.Minute):
		b.Fatal("the replica did not stop within 3 minutes of SIGTERM")
	}
	b.ReportMetric(time.Since(stopping).Seconds(), "sigterm-s")
	return rss
}

// benchInt reads a number from the environment, else def.
func benchInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// manyZones adds landing zones to a serve configuration until it has n,
// each a copy of the first one's environments (the same dev clusters and
// registries) with one unit of its own, b001 to bNNN, in which carol is
// a Developer; it returns n.
func manyZones(b *testing.B, doc map[string]any, n int) int {
	b.Helper()
	zones, _ := doc["landing_zones"].([]any)
	if len(zones) == 0 {
		b.Fatal("the serve configuration has no landing zone")
	}
	first, had := zones[0].(map[string]any), len(zones)
	for i := had; i < n; i++ {
		id := fmt.Sprintf("b%03d", i+1-had)
		zones = append(zones, map[string]any{
			"id": "zone-" + id, "main_bu": id, "environments": first["environments"],
			"super_admin_groups": []any{"sg-" + id + "-superadmins"},
			// carol, who calls, is a Developer of every one of them.
			"business_units": []any{map[string]any{"id": id, "groups": map[string]any{"developer": []any{"sg-scada-developers"}}}},
		})
	}
	doc["landing_zones"] = zones
	return len(zones)
}

// procStatus reads a number of /proc/PID/status (kB for sizes).
func procStatus(b *testing.B, pid int, key string) int {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Skipf("no /proc: %v", err)
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, key+":"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return n
		}
	}
	b.Fatalf("no %s in /proc/%d/status", key, pid)
	return 0
}

// benchDuration reads a duration from the environment, else def.
func benchDuration(name string, def time.Duration) time.Duration {
	if d, err := time.ParseDuration(os.Getenv(name)); err == nil {
		return d
	}
	return def
}
