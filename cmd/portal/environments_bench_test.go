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
// instance's clusters) costs while nobody uses it, measured as a platform
// team would: after MANY_SETTLE (1 minute by default) it reads the
// replica's threads and RSS from /proc and its CPU over MANY_WINDOW (2
// minutes), as a share of one core. Then the first request to an
// environment nobody used (cold-ms) beside the same request again
// (warm-ms, the median of 20), and the time from SIGTERM to the process's
// exit (sigterm-s, the 10 s drain included). Targets: at most 150
// threads, 150 MB and 1% of a core idle; exit under 15 s; a cold request
// at most 300 ms over a warm one. SERVE_BINARY runs that build (make
// bench passes the static binary). Linux only.
func BenchmarkManyEnvironments(b *testing.B) {
	if raceEnabled {
		b.Skip("the race detector's cost would be measured")
	}
	settle, window := benchDuration("MANY_SETTLE", time.Minute), benchDuration("MANY_WINDOW", 2*time.Minute)
	dir := b.TempDir()
	serveConfig := filepath.Join(dir, "serve.yaml")
	dev := startProcess(b, "dev instance", []string{"dev", "--write-serve-config", serveConfig, "--data", filepath.Join(dir, "dev")})
	zones := 0
	editServeConfig(b, serveConfig, func(doc map[string]any) {
		zones = manyZones(b, doc, 100)
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
	b.ReportMetric(float64(procStatus(b, pid, "Threads")), "threads")
	b.ReportMetric(float64(procStatus(b, pid, "VmRSS"))/1024, "rss-MB")
	b.ReportMetric(cpu, "idle-cpu-%")

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
	get("/api/v1/b001/dev/topics")
	cold := get("/api/v1/b050/qas/topics")
	var warm []time.Duration
	for range 20 {
		warm = append(warm, get("/api/v1/b050/qas/topics"))
	}
	slices.Sort(warm)
	b.ReportMetric(float64(cold.Microseconds())/1000, "cold-ms")
	b.ReportMetric(float64(warm[len(warm)/2].Microseconds())/1000, "warm-ms")

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
