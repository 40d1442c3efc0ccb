package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/dev/idp/idptest"
	"github.com/edh-platform/rms-portal/internal/store/pgtest"
)

// TestTwoReplicasOnOneDatabase runs the portal as platform teams do: one
// dev instance as the platform (identity provider, clusters, Cloud API,
// registries), and two serve-mode replicas on one PostgreSQL, started from
// the configuration the dev instance writes. A session started on one
// replica works on the other and ends on both; a bulk job started on one
// reports on the other; a topic created through one is in the other's list
// within a second; a replica killed and restarted keeps everyone signed
// in; and the audit trail, shared, holds everything, refusals included.
func TestTwoReplicasOnOneDatabase(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts three portal processes and PostgreSQL")
	}
	db := pgtest.Database(t)
	dir := t.TempDir()
	serveConfig := filepath.Join(dir, "serve.yaml")
	dev := startProcess(t, "dev instance", []string{"dev", "--write-serve-config", serveConfig, "--data", filepath.Join(dir, "dev")})
	a := startProcess(t, "replica A", []string{"serve", "--config", serveConfig}, "DATABASE_URL="+db)
	b := startProcess(t, "replica B", []string{"serve", "--config", serveConfig}, "DATABASE_URL="+db)

	// bob signs in through A; the same cookie (cookies ignore the port)
	// works on B.
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, Timeout: 30 * time.Second}
	onA := &webClient{t: t, base: a.url, http: client}
	onB := &webClient{t: t, base: b.url, http: client}
	onA.signIn("bob")
	if r := onB.get("/scada/dev/topics"); r.status != 200 || !strings.Contains(r.body, `data-user="bob"`) {
		t.Fatalf("bob's session on B: %d\n%.400s", r.status, r.body)
	}

	// A bulk create of 200 accounts, started on A, reports on B.
	token := func(user string) string {
		res, err := idptest.SignIn(context.Background(), dev.url+"/dev/idp", "rms-portal", user, "openid", "api://rms-portal/.default")
		if err != nil {
			t.Fatalf("token for %s: %v", user, err)
		}
		return res.Token.AccessToken
	}
	bob, carol := token("bob"), token("carol")
	items := make([]map[string]string, 200)
	sfx := suffix()
	for i := range items {
		items[i] = map[string]string{"name": fmt.Sprintf("load-%s-%03d", sfx, i), "type": "consumer"}
	}
	start := apiCall(t, a.url, "POST", "/api/v1/scada/dev/service-accounts/bulk", bob, map[string]any{"items": items})
	if start.status != http.StatusAccepted {
		t.Fatalf("bulk start on A: %d %s", start.status, start.body)
	}
	loc := start.header.Get("Location")
	progress := apiCall(t, b.url, "GET", loc, bob, nil)
	var job struct {
		State string `json:"state"`
		Done  int    `json:"done"`
		Total int    `json:"total"`
	}
	if err := json.Unmarshal(progress.body, &job); err != nil || progress.status != 200 || job.Total != 200 {
		t.Fatalf("progress on B: %d %s", progress.status, progress.body)
	}
	if r := apiCall(t, b.url, "GET", loc, carol, nil); r.status != http.StatusNotFound {
		t.Errorf("carol reads bob's job: %d", r.status)
	}
	for job.State == "running" {
		r := apiCall(t, b.url, "GET", loc+"?wait=30s", bob, nil)
		if err := json.Unmarshal(r.body, &job); err != nil || r.status != 200 {
			t.Fatalf("waiting on B: %d %s", r.status, r.body)
		}
	}
	if job.State != "done" || job.Done != 200 {
		t.Fatalf("the batch ended %s with %d of 200", job.State, job.Done)
	}

	// A topic created through A is in B's list within a second, although
	// B has just cached the list (for metadata_cache_ttl, 2s): A's write
	// reaches B through the database's notifications.
	name := "replicated-" + sfx
	if r := apiCall(t, b.url, "GET", "/api/v1/scada/dev/topics?search="+name, carol, nil); r.status != 200 || strings.Contains(string(r.body), name) {
		t.Fatalf("B's list before: %d %s", r.status, r.body)
	}
	if r := apiCall(t, a.url, "POST", "/api/v1/scada/dev/topic", carol, map[string]any{"name": name}); r.status != http.StatusCreated {
		t.Fatalf("create on A: %d %s", r.status, r.body)
	}
	created := time.Now()
	for {
		r := apiCall(t, b.url, "GET", "/api/v1/scada/dev/topics?search="+name, carol, nil)
		if strings.Contains(string(r.body), "edh-shared-scada-dev-"+name) {
			break
		}
		if time.Since(created) > time.Second {
			t.Fatalf("B did not list the topic within a second: %s", r.body)
		}
	}
	t.Logf("topic visible on B after %v", time.Since(created))

	// frank onboards billing through A: within a second carol's next
	// request on B sees it, without a restart, and she creates a topic
	// there; frank's read-only switch, set on A, refuses her on B.
	frank := token("frank")
	onboard := map[string]any{"id": "billing", "landing_zone": "edh-shared",
		"groups": map[string]any{"developer": []string{"sg-scada-developers"}, "viewer": []string{"sg-crm-viewers"}}}
	if r := apiCall(t, a.url, "POST", "/api/v1/admin/business-units", frank, onboard); r.status != http.StatusCreated {
		t.Fatalf("onboard on A: %d %s", r.status, r.body)
	}
	onboarded := time.Now()
	for {
		r := apiCall(t, b.url, "GET", "/api/v1/me", carol, nil)
		if strings.Contains(string(r.body), `"id":"billing"`) {
			break
		}
		if time.Since(onboarded) > time.Second {
			t.Fatalf("B does not know billing a second after A onboarded it: %s", r.body)
		}
	}
	t.Logf("billing in force on B after %v", time.Since(onboarded))
	if r := apiCall(t, b.url, "POST", "/api/v1/billing/dev/topic", carol, map[string]any{"name": "ledger-" + sfx}); r.status != http.StatusCreated {
		t.Fatalf("carol's create in billing on B: %d %s", r.status, r.body)
	}
	if r := apiCall(t, a.url, "PUT", "/api/v1/admin/read-only/edh-shared/qas", frank, map[string]any{"read_only": true, "reason": "Release freeze " + sfx}); r.status != 200 {
		t.Fatalf("switch on A: %d %s", r.status, r.body)
	}
	switched := time.Now()
	for {
		r := apiCall(t, b.url, "GET", "/api/v1/admin/read-only", frank, nil)
		if strings.Contains(string(r.body), "Release freeze "+sfx) {
			break
		}
		if time.Since(switched) > time.Second {
			t.Fatalf("B does not know the switch a second after A set it: %s", r.body)
		}
	}
	if r := apiCall(t, b.url, "POST", "/api/v1/scada/qas/topic", carol, map[string]any{"name": "frozen-" + sfx}); r.status != http.StatusForbidden ||
		!strings.Contains(string(r.body), "Release freeze "+sfx) {
		t.Fatalf("carol in frozen qas on B: %d %s", r.status, r.body)
	}

	// carol's refused write is audited too.
	if r := apiCall(t, a.url, "POST", "/api/v1/scada/dev/service-account", carol, map[string]string{"name": "sneaky", "type": "producer"}); r.status != http.StatusForbidden {
		t.Fatalf("carol's account: %d %s", r.status, r.body)
	}

	// A dies and comes back: bob is still signed in.
	a.restart()
	if r := onA.get("/scada/dev/topics"); r.status != 200 || !strings.Contains(r.body, `data-user="bob"`) {
		t.Fatalf("bob after A's restart: %d\n%.400s", r.status, r.body)
	}

	// The trail, read on B, holds what happened on A.
	trail := apiCall(t, b.url, "GET", "/api/v1/scada/dev/audit?page_size=1000", bob, nil)
	var events struct {
		Items []struct {
			Actor, Action, Resource, Outcome string
		} `json:"items"`
	}
	if err := json.Unmarshal(trail.body, &events); err != nil || trail.status != 200 {
		t.Fatalf("audit on B: %d %s", trail.status, trail.body)
	}
	seen := map[string]bool{}
	for _, e := range events.Items {
		seen[e.Actor+" "+string(e.Action)+" "+e.Outcome] = true
	}
	for _, want := range []string{"carol topic.create ok", "carol service-account.create INSUFFICIENT_ROLE", "bob service-account.create ok"} {
		if !seen[want] {
			t.Errorf("the trail lacks %q", want)
		}
	}
	if r := apiCall(t, b.url, "GET", "/api/v1/scada/dev/audit", carol, nil); r.status != http.StatusForbidden {
		t.Errorf("carol reads the trail: %d", r.status)
	}

	// Signing out on B ends the session on A.
	onB.get("/scada/dev/topics")
	if r := onB.post("/auth/logout", url.Values{}); r.status != 200 {
		t.Fatalf("sign out on B: %d", r.status)
	}
	if r := onA.get("/scada/dev/topics"); !strings.Contains(r.body, `id="sign-in"`) {
		t.Error("still signed in on A after signing out on B")
	}
}

// apiCall sends one API request with a bearer token.
func apiCall(t *testing.T, base, method, path, token string, body any) response {
	t.Helper()
	tp := &testPortal{t: t, url: base}
	return tp.callToken(method, path, token, body)
}
