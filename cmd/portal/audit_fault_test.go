package main

import (
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/config"
	"github.com/edh-platform/rms-portal/internal/store/pgtest"
)

// topicExists asks the cluster itself, not the portal's cache.
func (tp *testPortal) topicExists(t *testing.T, name string) bool {
	t.Helper()
	env, err := tp.app.envs.Get("edh-shared", "dev")
	if err != nil {
		t.Fatal(err)
	}
	_, err = env.Topics.DescribeTopic(t.Context(), name)
	return err == nil
}

// waitReady polls /readyz until it answers want, or fails after limit.
func (tp *testPortal) waitReadyz(t *testing.T, want int, limit time.Duration) response {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		r := tp.call("GET", "/readyz", "", nil)
		if r.status == want {
			return r
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz answered %d for %v, want %d: %s", r.status, limit, want, r.body)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestWritesNeedTheirAuditTrail: with PostgreSQL stopped, a write is
// refused with 503 before it reaches the cluster, and readiness fails;
// once the database is back, readiness returns and writes go through,
// each with its event.
func TestWritesNeedTheirAuditTrail(t *testing.T) {
	t.Parallel()
	srv := pgtest.Own(t)
	tp := startPortal(t, func(c *config.Config) {
		c.Database.URL = strings.Replace(srv.URL, "/postgres?", "/postgres?connect_timeout=2&", 1)
		c.UpstreamTimeout = 2 * time.Second
	})
	tp.token("carol")
	sfx := suffix()
	if r := tp.call("POST", "/api/v1/scada/dev/topic", "carol", map[string]any{"name": "before-" + sfx}); r.status != http.StatusCreated {
		t.Fatalf("create before: %d %s", r.status, r.body)
	}
	if err := srv.Stop(); err != nil {
		t.Fatal(err)
	}
	r := tp.call("POST", "/api/v1/scada/dev/topic", "carol", map[string]any{"name": "during-" + sfx})
	wantError(t, r, http.StatusServiceUnavailable, "UPSTREAM_UNAVAILABLE")
	if !strings.Contains(string(r.body), "audit trail cannot be written") || r.header.Get("Retry-After") == "" {
		t.Errorf("the refusal does not say why: %s", r.body)
	}
	if tp.topicExists(t, "edh-shared-scada-dev-during-"+sfx) {
		t.Error("a write without its audit event reached the cluster")
	}
	tp.waitReadyz(t, http.StatusServiceUnavailable, 10*time.Second)
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	tp.waitReadyz(t, http.StatusOK, 30*time.Second)
	if r := tp.call("POST", "/api/v1/scada/dev/topic", "carol", map[string]any{"name": "after-" + sfx}); r.status != http.StatusCreated {
		t.Fatalf("create after: %d %s", r.status, r.body)
	}
	trail := tp.call("GET", "/api/v1/scada/dev/audit?action=topic.create&actor=carol", "bob", nil)
	for _, want := range []string{"before-" + sfx, "after-" + sfx} {
		if !strings.Contains(string(trail.body), want) {
			t.Errorf("the trail lacks %s", want)
		}
	}
	if strings.Contains(string(trail.body), "during-"+sfx) {
		t.Error("the refused write has an event although the trail was down")
	}
}

// TestReadinessFollowsTheSQLiteFile: an SQLite file removed or replaced
// under the process makes it unready: it would write a trail nobody reads.
func TestReadinessFollowsTheSQLiteFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "portal.db")
	tp := startPortal(t, func(c *config.Config) { c.Database.URL = "sqlite:" + path })
	tp.waitReadyz(t, http.StatusOK, 5*time.Second)
	if err := os.Rename(path, path+".moved"); err != nil {
		t.Fatal(err)
	}
	if r := tp.waitReadyz(t, http.StatusServiceUnavailable, 5*time.Second); !strings.Contains(string(r.body), "is gone") {
		t.Errorf("removed: %s", r.body)
	}
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if r := tp.waitReadyz(t, http.StatusServiceUnavailable, 5*time.Second); !strings.Contains(string(r.body), "replaced") {
		t.Errorf("replaced: %s", r.body)
	}
}

// TestWritesOnAFullDisk puts the SQLite database on a small filesystem
// and fills it: a write is refused with 503 and changes nothing on the
// cluster, and readiness fails. It mounts a tmpfs, which needs root (as
// the project's machines and CI run); elsewhere it says so and stops.
func TestWritesOnAFullDisk(t *testing.T) {
	t.Parallel()
	if os.Geteuid() != 0 {
		t.Log("mounting a small filesystem needs root; the full-disk case is covered where tests run as root")
		return
	}
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=4m"); err != nil {
		t.Fatalf("mounting a tmpfs for the full disk: %v", err)
	}
	t.Cleanup(func() { _ = syscall.Unmount(dir, syscall.MNT_DETACH) })
	tp := startPortal(t, func(c *config.Config) { c.Database.URL = "sqlite:" + filepath.Join(dir, "portal.db") })
	tp.token("carol")
	sfx := suffix()
	// Fill the disk.
	f, err := os.Create(filepath.Join(dir, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	chunk := make([]byte, 64<<10)
	for {
		if _, err := f.Write(chunk); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			break
		}
	}
	f.Close()
	refused := 0
	for i := range 20 {
		name := "full-" + sfx + "-" + string(rune('a'+i))
		r := tp.call("POST", "/api/v1/scada/dev/topic", "carol", map[string]any{"name": name,
			"config": map[string]string{"retention.ms": "86400000"}})
		switch r.status {
		case http.StatusServiceUnavailable:
			refused++
			if tp.topicExists(t, "edh-shared-scada-dev-"+name) {
				t.Errorf("%s: refused, yet on the cluster", name)
			}
		case http.StatusCreated:
		default:
			t.Fatalf("create on a full disk: %d %s", r.status, r.body)
		}
	}
	if refused == 0 {
		out, _ := exec.Command("df", dir).CombinedOutput()
		t.Fatalf("no write was refused on a full disk:\n%s", out)
	}
	tp.waitReadyz(t, http.StatusServiceUnavailable, 5*time.Second)
}
