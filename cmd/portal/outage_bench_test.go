package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"go.yaml.in/yaml/v3"

	"github.com/edh-platform/rms-portal/internal/dev/idp/idptest"
)

// BenchmarkOutageCost is what a killed cluster costs a serve replica: a
// dev instance is the platform, but scada's dev cluster is one the
// benchmark runs (kfake) and kills (its port then refuses connections).
// For each kind of request (list, detail, create, consumer groups,
// records, health, pages), sent at 2 a second (a monitor's poll) and at
// the caller's rate limit (50 a second) for 10 s while the cluster is
// down, it reports the replica's CPU (from
// /proc, as a share of one core), the refused connection attempts per
// second (from /proc/net/snmp: every refused connect in the network
// namespace, which during the benchmark is the replica's) and the
// replica's own count of connection attempts to that cluster
// (rms_kafka_connection_attempts_total, from statistics at most 5 s old),
// beside the same figures with the cluster up and idle, and for a request
// that needs no upstream (me: the floor of any authenticated request at
// that rate). Target: under 5% of a core and under 5 attempts per second
// for every kind.
//
// RMS_BENCH_BINARY runs another build of the portal as the replica (an
// older release, to compare). Linux only; run it with make bench.
func BenchmarkOutageCost(b *testing.B) {
	if raceEnabled {
		b.Skip("the race detector's cost would be measured")
	}
	dir := b.TempDir()
	serveConfig := filepath.Join(dir, "serve.yaml")
	dev := startProcess(b, "dev instance", []string{"dev", "--write-serve-config", serveConfig, "--data", filepath.Join(dir, "dev")})
	cluster, err := kfake.NewCluster(kfake.NumBrokers(1))
	if err != nil {
		b.Fatal(err)
	}
	defer cluster.Close()
	rewriteBootstrap(b, serveConfig, "edh-shared", "dev", cluster.ListenAddrs()[0])

	serve := &process{t: b, name: "serve replica", args: []string{"serve", "--config", serveConfig}}
	port := freePort(b)
	serve.url = fmt.Sprintf("http://127.0.0.1:%d", port)
	serve.env = []string{fmt.Sprintf("PORT=%d", port), "BASE_URL=" + serve.url, "DATABASE_URL=sqlite:" + filepath.Join(dir, "serve.db")}
	if bin := os.Getenv("RMS_BENCH_BINARY"); bin != "" {
		binary = bin // portalBinary then returns it
		buildOnce.Do(func() {})
	}
	serve.start()
	defer serve.kill()

	res, err := idptest.SignIn(context.Background(), dev.url+"/dev/idp", "rms-portal", "carol", "openid", "api://rms-portal/.default")
	if err != nil {
		b.Fatal(err)
	}
	token := res.Token.AccessToken
	jar, _ := cookiejar.New(nil)
	web := &webClient{t: b, base: serve.url, http: &http.Client{Jar: jar, Timeout: 20 * time.Second}}
	web.get("/auth/login?next=/&login_hint=carol")
	api := &http.Client{Timeout: 20 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	call := func(method, path, body string, client *http.Client, bearer bool) int {
		req, _ := http.NewRequest(method, serve.url+path, strings.NewReader(body))
		if bearer {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := client.Do(req)
		if err != nil {
			return 0
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	if s := call("POST", "/api/v1/scada/dev/topic", `{"name":"outage"}`, api, true); s != 201 {
		b.Fatalf("creating the benchmark's topic: %d", s)
	}
	var seq int
	var mu sync.Mutex
	kinds := []struct {
		name string
		do   func() int
	}{
		{"me", func() int { return call("GET", "/api/v1/me", "", api, true) }},
		{"list", func() int { return call("GET", "/api/v1/scada/dev/topics", "", api, true) }},
		{"detail", func() int { return call("GET", "/api/v1/scada/dev/topic/outage", "", api, true) }},
		{"create", func() int {
			mu.Lock()
			seq++
			n := seq
			mu.Unlock()
			return call("POST", "/api/v1/scada/dev/topic", fmt.Sprintf(`{"name":"outage-%d"}`, n), api, true)
		}},
		{"groups", func() int { return call("GET", "/api/v1/scada/dev/consumer-groups", "", api, true) }},
		{"records", func() int { return call("GET", "/api/v1/scada/dev/topic/outage/messages", "", api, true) }},
		{"health", func() int { return call("GET", "/healthz/upstreams", "", api, true) }},
		{"pages", func() int { return call("GET", "/scada/dev/topic/outage", "", web.http, false) }},
	}
	pid := serve.cmd.Process.Pid
	const window = 10 * time.Second
	idle := measure(b, serve.url, pid, window, 0, nil)
	b.ReportMetric(idle.cpu, "up-idle-cpu-%")
	cluster.Close()
	// The first request finds the cluster down; the circuit and the reach
	// probe know it from then on. An idle window lets the replica's
	// statistics catch up with that first request's attempts.
	kinds[2].do()
	downIdle := measure(b, serve.url, pid, window, 0, nil)
	b.ReportMetric(downIdle.cpu, "down-idle-cpu-%")
	b.ReportMetric(downIdle.refused, "down-idle-refused/s")
	fmt.Printf("up, idle:   %5.1f%% of a core\n", idle.cpu)
	fmt.Printf("down, idle: %5.1f%% of a core, %6.1f refused connects/s, %6.1f attempts/s by the replica's count\n", downIdle.cpu, downIdle.refused, downIdle.connects)
	for _, rate := range []int{2, 50} {
		var worst outageFigures
		for _, k := range kinds {
			f := measure(b, serve.url, pid, window, rate, k.do)
			name := fmt.Sprintf("%s@%d", k.name, rate)
			b.ReportMetric(f.cpu, name+"-cpu-%")
			b.ReportMetric(f.refused, name+"-refused/s")
			fmt.Printf("%-11s %5.1f%% of a core, %6.1f refused connects/s, %6.1f attempts/s by the replica's count, answers %v\n", name, f.cpu, f.refused, f.connects, f.statuses)
			if k.name != "me" {
				worst.cpu, worst.refused = max(worst.cpu, f.cpu), max(worst.refused, f.refused)
			}
		}
		fmt.Printf("down, %d requests/s, worst kind: %.1f%% of a core, %.1f refused connects/s\n", rate, worst.cpu, worst.refused)
	}
}

type outageFigures struct {
	cpu, refused, connects float64
	statuses               map[int]int
}

// measure sends do rate times a second for the window (not waiting for
// answers: a slow answer must not slow the load) and reads the replica's
// CPU and the connection attempts around it.
func measure(b *testing.B, url string, pid int, window time.Duration, rate int, do func() int) outageFigures {
	b.Helper()
	cpu0, fails0, conn0 := cpuTicks(b, pid), snmpAttemptFails(b), replicaConnects(url)
	start := time.Now()
	statuses := map[int]int{}
	if do != nil {
		var mu sync.Mutex
		var wg sync.WaitGroup
		tick := time.NewTicker(time.Second / time.Duration(rate))
		for time.Since(start) < window {
			<-tick.C
			wg.Go(func() {
				s := do()
				mu.Lock()
				statuses[s]++
				mu.Unlock()
			})
		}
		tick.Stop()
		wg.Wait()
	} else {
		time.Sleep(window) // nothing is waited for: the replica idles for the window
	}
	took := time.Since(start).Seconds()
	cpu1, fails1, conn1 := cpuTicks(b, pid), snmpAttemptFails(b), replicaConnects(url)
	return outageFigures{
		cpu:      float64(cpu1-cpu0) / clockTicks / took * 100,
		refused:  float64(fails1-fails0) / took,
		connects: (conn1 - conn0) / took,
		statuses: statuses,
	}
}

// clockTicks is Linux's USER_HZ, the unit of /proc/PID/stat's times.
const clockTicks = 100

// cpuTicks is the process's user and system time.
func cpuTicks(b *testing.B, pid int) int64 {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Skipf("no /proc: %v", err)
	}
	// The command name may hold spaces: the fields after it count from ')'.
	fields := strings.Fields(string(raw[strings.LastIndexByte(string(raw), ')')+2:]))
	utime, _ := strconv.ParseInt(fields[11], 10, 64)
	stime, _ := strconv.ParseInt(fields[12], 10, 64)
	return utime + stime
}

// snmpAttemptFails is the network namespace's count of connects that
// failed from SYN-SENT (refused or unanswered).
func snmpAttemptFails(b *testing.B) int64 {
	raw, err := os.ReadFile("/proc/net/snmp")
	if err != nil {
		b.Skipf("no /proc/net/snmp: %v", err)
	}
	var head []string
	for _, l := range strings.Split(string(raw), "\n") {
		f := strings.Fields(l)
		if len(f) == 0 || f[0] != "Tcp:" {
			continue
		}
		if head == nil {
			head = f
			continue
		}
		for i, h := range head {
			if h == "AttemptFails" {
				n, _ := strconv.ParseInt(f[i], 10, 64)
				return n
			}
		}
	}
	return 0
}

// replicaConnects is the replica's count of connection attempts to
// scada's dev cluster; 0 for a build without it.
func replicaConnects(url string) float64 {
	resp, err := http.Get(url + "/metrics")
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	for _, l := range strings.Split(string(body), "\n") {
		if v, ok := strings.CutPrefix(l, `rms_kafka_connection_attempts_total{cluster="edh-shared/dev"} `); ok {
			n, _ := strconv.ParseFloat(v, 64)
			return n
		}
	}
	return 0
}

// rewriteBootstrap points one environment of a serve configuration at
// another cluster.
func rewriteBootstrap(b *testing.B, path, zone, stage, addr string) {
	b.Helper()
	editServeConfig(b, path, func(doc map[string]any) {
		for _, z := range doc["landing_zones"].([]any) {
			z := z.(map[string]any)
			if z["id"] == zone {
				k := z["environments"].(map[string]any)[stage].(map[string]any)["kafka"].(map[string]any)
				k["bootstrap_servers"] = addr
				return
			}
		}
		b.Fatalf("no landing zone %s in %s", zone, path)
	})
}

// editServeConfig rewrites a serve configuration file through edit.
func editServeConfig(b *testing.B, path string, edit func(doc map[string]any)) {
	b.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	var doc map[string]any
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		b.Fatal(err)
	}
	edit(doc)
	out, err := yaml.Marshal(doc)
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(path, out, 0o600); err != nil {
		b.Fatal(err)
	}
}
