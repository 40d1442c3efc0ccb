package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/edh-platform/rms-portal/internal/dev/idp/idptest"
	"github.com/edh-platform/rms-portal/internal/store/pgtest"
)

// TestReplicaLifecycle is how operators run the portal and what they check
// before adopting it: two serve replicas on one PostgreSQL behind a plain
// load balancer, started from a configuration written for a later release
// (keys this one does not know); a rolling restart under 200 requests a
// second; a replica killed, and another stopped, in the middle of a
// 200-account bulk create; identical schema creates and applies of one
// plan over both replicas at once; the identity provider stopped in the
// middle of a sign-in.
func TestReplicaLifecycle(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts three portal processes and PostgreSQL")
	}
	db := pgtest.Database(t)
	dir := t.TempDir()
	serveConfig := filepath.Join(dir, "serve.yaml")
	dev := startProcess(t, "dev instance", []string{"dev", "--write-serve-config", serveConfig, "--data", filepath.Join(dir, "dev")})
	laterRelease(t, serveConfig)

	// Rolling back: an older release takes a newer file, saying what it
	// ignores; --strict (for CI) refuses it.
	checkConfig := func(args ...string) ([]byte, error) {
		cmd := exec.Command(portalBinary(t), append([]string{"check-config", "--config", serveConfig}, args...)...)
		cmd.Env = append(os.Environ(), "DATABASE_URL="+db)
		return cmd.CombinedOutput()
	}
	out, err := checkConfig()
	if err != nil || !strings.Contains(string(out), "unknown key change_requests") {
		t.Errorf("check-config: %v\n%s", err, out)
	}
	if out, err := checkConfig("--strict"); err == nil || !strings.Contains(string(out), "unknown keys (--strict)") {
		t.Errorf("check-config --strict took unknown keys: %v\n%s", err, out)
	}
	// The chart's pre-upgrade job: the schema first, then the replicas.
	migrate := exec.Command(portalBinary(t), "migrate", "--config", serveConfig)
	migrate.Env = append(os.Environ(), "DATABASE_URL="+db)
	if out, err := migrate.CombinedOutput(); err != nil || !strings.Contains(string(out), "the database is at this release's schema") {
		t.Errorf("portal migrate: %v\n%s", err, out)
	}
	a := startProcess(t, "replica A", []string{"serve", "--config", serveConfig}, "DATABASE_URL="+db)
	b := startProcess(t, "replica B", []string{"serve", "--config", serveConfig}, "DATABASE_URL="+db)
	if !strings.Contains(a.log.String(), "configuration key ignored") {
		t.Errorf("replica A did not say what it ignores:\n%s", a.log.String())
	}
	lb := newBalancer(t, a.url, b.url)
	token := func(user string) string {
		res, err := idptest.SignIn(context.Background(), dev.url+"/dev/idp", "rms-portal", user, "openid", "api://rms-portal/.default")
		if err != nil {
			t.Fatalf("token for %s: %v", user, err)
		}
		return res.Token.AccessToken
	}
	bob, carol := token("bob"), token("carol")

	t.Run("rolling restart under load", func(t *testing.T) {
		total, failed, first := underLoad(t, lb.url, carol, 500, func() {
			for i, p := range []*process{a, b} {
				p.stop(30 * time.Second)
				p.start()
				// The next one stops once the balancer sees this one ready.
				lb.waitReady(t, i, 90*time.Second)
			}
		})
		t.Logf("rolling restart of both replicas: %d requests, %d failed", total, failed)
		if failed > 0 || total < 500 {
			t.Errorf("%d of %d requests failed; first: %s", failed, total, first)
		}
	})

	bulk := func(t *testing.T, on, other *process, interrupt func()) {
		sfx := suffix()
		items := make([]map[string]string, 200)
		for i := range items {
			items[i] = map[string]string{"name": fmt.Sprintf("job-%s-%03d", sfx, i), "type": "consumer"}
		}
		start := apiCall(t, on.url, "POST", "/api/v1/scada/dev/service-accounts/bulk", bob, map[string]any{"items": items})
		loc := start.header.Get("Location")
		if start.status != http.StatusAccepted || loc == "" {
			t.Fatalf("bulk: %d %s", start.status, start.body)
		}
		time.Sleep(time.Duration(rand.IntN(4000)) * time.Millisecond) // a moment of the job, at random
		interrupted := time.Now()
		interrupt()
		var job map[string]any
		for {
			r := apiCall(t, other.url, "GET", loc+"?wait=20s", bob, nil)
			job = r.json(t)
			if r.status != 200 || job["state"] != "running" {
				break
			}
			if time.Since(interrupted) > 90*time.Second {
				t.Fatalf("the job is still running %v after: %s", time.Since(interrupted), r.body)
			}
		}
		took := time.Since(interrupted)
		if job["state"] != "done" || job["done"] != float64(200) {
			t.Fatalf("the job: %v", job)
		}
		for _, x := range job["results"].([]any) {
			if r := x.(map[string]any); r["status"] != float64(201) {
				t.Errorf("item %v", r)
			}
		}
		accounts := cloudAccounts(t, dev.url, "-job-"+sfx+"-")
		// The platform's quota of role bindings holds one job's at a time.
		defer deleteCloudAccounts(t, dev.url, accounts)
		if len(accounts) != 200 {
			t.Errorf("%d accounts upstream, want 200", len(accounts))
		}
		short := 0
		for _, id := range accounts {
			r := apiCall(t, other.url, "GET", "/api/v1/scada/dev/service-account/"+id, bob, nil)
			if n := len(r.json(t)["role_bindings"].([]any)); n != 4 {
				short++
			}
		}
		events := auditCount(t, other.url, bob, "service-account.create", "-job-"+sfx+"-")
		once := 0
		for _, n := range events {
			if n == 1 {
				once++
			}
		}
		t.Logf("interrupted after the 202; done %v later: %d accounts, %d without all bindings, %d audited once", took.Round(time.Millisecond), len(accounts), short, once)
		if short > 0 || once != 200 || len(events) != 200 {
			t.Errorf("%d accounts lack bindings; %d of %d accounts audited once", short, once, len(events))
		}
		if took > 60*time.Second {
			t.Errorf("the job took %v after the interruption, want under 60 s", took)
		}
	}
	t.Run("replica killed mid-job", func(t *testing.T) {
		bulk(t, a, b, func() { a.kill() })
		a.start()
	})
	t.Run("replica stopped mid-job", func(t *testing.T) {
		bulk(t, b, a, func() { b.stop(30 * time.Second) })
		b.start()
	})

	t.Run("identical schema creates over both replicas", func(t *testing.T) {
		topic := "schemas-" + suffix()
		if r := apiCall(t, a.url, "POST", "/api/v1/scada/dev/topic", carol, map[string]any{"name": topic}); r.status != 201 {
			t.Fatalf("topic: %d %s", r.status, r.body)
		}
		body := map[string]any{"topic": topic, "subject_type": "value", "schema_type": "AVRO", "schema": `{"type":"string"}`}
		statuses := concurrently(16, func(i int) int {
			return apiCall(t, []*process{a, b}[i%2].url, "POST", "/api/v1/scada/dev/schema", carol, body).status
		})
		if statuses[201] != 1 || statuses[409] != 15 {
			t.Errorf("16 identical creates: %v, want one 201 and 15 409s", statuses)
		}
	})

	t.Run("two applies of one plan", func(t *testing.T) {
		doc := fmt.Sprintf(`{"items": [{"apiVersion": "portal/v1", "kind": "Topic", "metadata": {"name": "applied-%s"}, "spec": {"partitions": 2}}]}`, suffix())
		plan := apiCall(t, a.url, "POST", "/api/v1/scada/dev/plan", carol, doc)
		fp := plan.header.Get("ETag")
		if plan.status != 200 || fp == "" {
			t.Fatalf("plan: %d %s", plan.status, plan.body)
		}
		statuses := concurrently(2, func(i int) int {
			tp := &testPortal{t: t, url: []*process{a, b}[i].url}
			return tp.callToken("POST", "/api/v1/scada/dev/apply", carol, doc, "If-Match", fp).status
		})
		if statuses[200] != 1 || statuses[409] != 1 {
			t.Errorf("two applies of one plan at once: %v, want one 200 and one 409", statuses)
		}
	})

	// Last: it stops the platform.
	t.Run("identity provider stopped during sign-in", func(t *testing.T) {
		jar, _ := cookiejar.New(nil)
		var callback string
		client := &http.Client{Jar: jar, Timeout: 30 * time.Second, CheckRedirect: func(req *http.Request, _ []*http.Request) error {
			if req.URL.Path == "/auth/callback" {
				callback = req.URL.String()
				return http.ErrUseLastResponse
			}
			return nil
		}}
		resp, err := client.Get(a.url + "/auth/login?next=/&login_hint=bob")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if callback == "" {
			t.Fatalf("the sign-in did not come back to the callback: %d", resp.StatusCode)
		}
		dev.kill()
		resp, err = client.Get(callback)
		if err != nil {
			t.Fatal(err)
		}
		page, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" || !strings.Contains(string(page), "identity provider cannot be reached") {
			t.Errorf("the callback with the identity provider stopped: %d %q\n%.600s", resp.StatusCode, resp.Header.Get("Retry-After"), page)
		}
	})
}

// laterRelease edits a serve configuration as the next release's would
// read (keys this one does not know) and as the measurement needs: no
// caller limits, Cloud writes paced so that a 200-account job runs for
// some seconds, a short drain.
func laterRelease(t *testing.T, path string) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	doc["change_requests"] = map[string]any{"enabled": true}
	doc["events"] = map[string]any{"webhook": "https://hooks.example.com/portal"}
	doc["rate_limits"] = map[string]any{
		"caller": map[string]any{"per_second": -1}, "unit": map[string]any{"per_second": -1},
		"cloud_writes_per_unit": map[string]any{"per_second": 150, "burst": 10}, "cloud_writes": map[string]any{"per_second": 300, "burst": 10},
		"anonymous": map[string]any{"per_second": 1, "burst": 30},
	}
	doc["shutdown"] = map[string]any{"drain": "2s", "grace": "10s"}
	out, err := yaml.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, out, 0o600); err != nil {
		t.Fatal(err)
	}
}

// underLoad keeps loadWorkers requests in flight through base (half
// lists, half plans), each sending its next once its last is answered,
// while during runs, and after it until at least atLeast were sent and
// every worker sent about eight more; it returns how many were sent, how
// many failed, and the first failure. The load is closed: the
// replicas are kept as busy as they can be on this machine, however fast
// it is, and no request waits in a queue that grows because the machine
// is slower than a fixed rate assumes.
func underLoad(t *testing.T, base, token string, atLeast int64, during func()) (total, failed int64, first string) {
	t.Helper()
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	doc := []byte(`{"items": [{"apiVersion": "portal/v1", "kind": "Topic", "metadata": {"name": "load"}, "spec": {"partitions": 1}}]}`)
	var n, bad, target atomic.Int64
	target.Store(math.MaxInt64)
	var firstErr atomic.Value
	stop, reached := make(chan struct{}), make(chan struct{})
	var once sync.Once
	var wg sync.WaitGroup
	for w := range loadWorkers {
		wg.Go(func() {
			for i := w; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				var req *http.Request
				if i%2 == 0 {
					req, _ = http.NewRequest("GET", base+"/api/v1/scada/dev/topics?page_size=10", nil)
				} else {
					req, _ = http.NewRequest("POST", base+"/api/v1/scada/dev/plan", bytes.NewReader(doc))
					req.Header.Set("Content-Type", "application/json")
				}
				req.Header.Set("Authorization", "Bearer "+token)
				if n.Add(1) >= target.Load() {
					once.Do(func() { close(reached) })
				}
				resp, err := client.Do(req)
				if err == nil {
					body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
					resp.Body.Close()
					if resp.StatusCode == http.StatusOK {
						continue
					}
					err = fmt.Errorf("%s %s: %s %.200s", req.Method, req.URL.Path, resp.Status, body)
				}
				bad.Add(1)
				firstErr.CompareAndSwap(nil, err.Error())
			}
		})
	}
	during()
	target.Store(max(atLeast, n.Load()+8*loadWorkers))
	select {
	case <-reached:
	case <-time.After(2 * time.Minute):
		t.Errorf("the load sent %d requests, not %d", n.Load(), target.Load())
	}
	close(stop)
	wg.Wait()
	if s, ok := firstErr.Load().(string); ok {
		first = s
	}
	return n.Load(), bad.Load(), first
}

// loadWorkers is how many requests underLoad keeps in flight.
const loadWorkers = 16

// concurrently runs n calls at once and counts their statuses.
func concurrently(n int, call func(i int) int) map[int]int {
	var mu sync.Mutex
	out := map[int]int{}
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			<-start
			s := call(i)
			mu.Lock()
			out[s]++
			mu.Unlock()
		})
	}
	close(start)
	wg.Wait()
	return out
}

// cloudAccounts lists, from the dev instance's Cloud API (IAM v2), the ids
// of the service accounts whose display name contains part.
func cloudAccounts(t *testing.T, dev, part string) []string {
	t.Helper()
	var ids []string
	token := ""
	for {
		req, _ := http.NewRequest("GET", dev+"/dev/cloud/iam/v2/service-accounts?page_size=100&page_token="+url.QueryEscape(token), nil)
		req.SetBasicAuth("DEVCLOUDKEY", "dev-cloud-secret")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var page struct {
			Data []struct {
				ID          string `json:"id"`
				DisplayName string `json:"display_name"`
			} `json:"data"`
			Metadata struct {
				Next string `json:"next"`
			} `json:"metadata"`
		}
		err = json.NewDecoder(resp.Body).Decode(&page)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range page.Data {
			if strings.Contains(a.DisplayName, part) {
				ids = append(ids, a.ID)
			}
		}
		if page.Metadata.Next == "" {
			return ids
		}
		next, _ := url.Parse(page.Metadata.Next)
		token = next.Query().Get("page_token")
	}
}

// deleteCloudAccounts removes service accounts (and their role bindings)
// through the dev instance's Cloud API.
func deleteCloudAccounts(t *testing.T, dev string, ids []string) {
	t.Helper()
	for _, id := range ids {
		req, _ := http.NewRequest("DELETE", dev+"/dev/cloud/iam/v2/service-accounts/"+id, nil)
		req.SetBasicAuth("DEVCLOUDKEY", "dev-cloud-secret")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNoContent {
			t.Errorf("deleting %s: %s", id, resp.Status)
		}
	}
}

// auditCount counts, per resource name (before the id in parentheses),
// the unit's audit events of an action whose resource contains part.
func auditCount(t *testing.T, base, token, action, part string) map[string]int {
	t.Helper()
	out := map[string]int{}
	next := ""
	for {
		r := apiCall(t, base, "GET", "/api/v1/scada/dev/audit?page_size=500&action="+action+"&page_token="+url.QueryEscape(next), token, nil)
		body := r.json(t)
		items, _ := body["items"].([]any)
		for _, x := range items {
			e := x.(map[string]any)
			res := e["resource"].(string)
			if !strings.Contains(res, part) {
				continue
			}
			if e["outcome"] != "ok" {
				t.Errorf("event %v", e)
			}
			name, _, _ := strings.Cut(res, " ")
			out[name]++
		}
		next, _ = body["next_page_token"].(string)
		if next == "" {
			return out
		}
	}
}
