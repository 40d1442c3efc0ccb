package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/dev/idp/idptest"
	"github.com/edh-platform/rms-portal/internal/events"
	"github.com/edh-platform/rms-portal/internal/store/pgtest"
)

// faultyCloud is a proxy in front of the dev instance's Cloud API that
// acts at a chosen request: it answers slowly, or runs a step (SIGKILL of
// the replica that asked) after the Cloud made the change and before the
// replica hears of it.
type faultyCloud struct {
	srv   *httptest.Server
	mu    sync.Mutex
	rules []*fault
}

// fault is what the proxy does to the requests that match: the nth one
// (counted from 1; 0: every one) of method on a path starting with path.
type fault struct {
	method, path string
	nth, seen    int
	delay        time.Duration
	before       func()
	after        func()
}

func newFaultyCloud(t *testing.T, target string) *faultyCloud {
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(u)
	f := &faultyCloud{}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rule := f.match(r)
		if rule == nil {
			proxy.ServeHTTP(w, r)
			return
		}
		if rule.before != nil {
			rule.before()
		}
		if rule.delay > 0 {
			time.Sleep(rule.delay) // the fault: a slow Cloud API
		}
		if rule.after == nil {
			proxy.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		proxy.ServeHTTP(rec, r)
		rule.after()
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
	}))
	t.Cleanup(f.srv.Close)
	return f
}

// on adds a fault; the returned function removes it.
func (f *faultyCloud) on(x *fault) func() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.rules = append(f.rules, x)
	return func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		for i, r := range f.rules {
			if r == x {
				f.rules = append(f.rules[:i], f.rules[i+1:]...)
				return
			}
		}
	}
}

// match finds the fault for a request; a fault of the nth request is
// dropped once it fired.
func (f *faultyCloud) match(r *http.Request) *fault {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, x := range f.rules {
		if r.Method != x.method || !strings.HasPrefix(r.URL.Path, x.path) {
			continue
		}
		x.seen++
		switch {
		case x.nth == 0:
			return x
		case x.seen == x.nth:
			f.rules = append(f.rules[:i], f.rules[i+1:]...)
			return x
		}
	}
	return nil
}

// rig is the platform as the faults were found on it: a dev instance
// (identity provider, clusters, Cloud API) behind the faulty proxy, and
// two serve replicas on one PostgreSQL, which finish what a stopped
// replica left within seconds (recovery settings of the test), and a
// webhook receiver on https that the replicas trust.
type rig struct {
	t     *testing.T
	dev   *process
	a, b  *process
	cloud *faultyCloud
	hooks *hookReceiver
	mu    sync.Mutex
	toks  map[string]string
}

func startRig(t *testing.T) *rig {
	if testing.Short() {
		t.Skip("starts three portal processes and PostgreSQL")
	}
	return startRigOn(t, pgtest.Database(t))
}

// startRigOn is startRig on the database at db.
func startRigOn(t *testing.T, db string) *rig {
	dir := t.TempDir()
	serveConfig := filepath.Join(dir, "serve.yaml")
	dev := startProcess(t, "dev instance", []string{"dev", "--write-serve-config", serveConfig, "--data", filepath.Join(dir, "dev")})
	cloud := newFaultyCloud(t, dev.url)
	raw, err := os.ReadFile(serveConfig)
	if err != nil {
		t.Fatal(err)
	}
	cfg := strings.ReplaceAll(string(raw), dev.url+"/dev/cloud", cloud.srv.URL+"/dev/cloud")
	cfg = strings.Replace(cfg, "\nwebhooks:\n", "\nwebhooks:\n  retry_base: 200ms\n  retry_max: 1s\n", 1)
	cfg += "recovery:\n  every: 1s\n  stopped_after: 10s\n  settle_after: 12s\n  heartbeat: 1s\n"
	if err := os.WriteFile(serveConfig, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	hooks := newHookReceiver(t)
	ca := filepath.Join(dir, "receiver.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: hooks.srv.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	env := []string{"DATABASE_URL=" + db, "SSL_CERT_FILE=" + ca}
	r := &rig{t: t, dev: dev, cloud: cloud, hooks: hooks, toks: map[string]string{}}
	r.a = startProcess(t, "replica A", []string{"serve", "--config", serveConfig}, env...)
	r.b = startProcess(t, "replica B", []string{"serve", "--config", serveConfig}, env...)
	return r
}

// token signs user in at the dev identity provider, once.
func (r *rig) token(user string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if tok, ok := r.toks[user]; ok {
		return tok
	}
	res, err := idptest.SignIn(context.Background(), r.dev.url+"/dev/idp", "rms-portal", user, "openid", "api://rms-portal/.default")
	if err != nil {
		r.t.Fatalf("token for %s: %v", user, err)
	}
	r.toks[user] = res.Token.AccessToken
	return res.Token.AccessToken
}

// call sends one API request as user to a replica; it fails the test on
// a transport error.
func (r *rig) call(p *process, method, path, user string, body any) response {
	r.t.Helper()
	return apiCall(r.t, p.url, method, path, r.token(user), body)
}

// try sends one API request that may find its replica killed: the error
// is the transport's.
func (r *rig) try(p *process, method, path, user string, body any) (response, error) {
	var rd io.Reader
	if body != nil {
		data, _ := json.Marshal(body)
		rd = bytes.NewReader(data)
	}
	req, _ := http.NewRequest(method, p.url+path, rd)
	req.Header.Set("Authorization", "Bearer "+r.token(user))
	req.Header.Set("Content-Type", "application/json")
	resp, err := (&http.Client{Timeout: time.Minute}).Do(req)
	if err != nil {
		return response{}, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	return response{status: resp.StatusCode, header: resp.Header, body: data}, err
}

// field reads a string field of a JSON answer.
func field(t *testing.T, r response, name string) string {
	t.Helper()
	v, _ := r.json(t)[name].(string)
	return v
}

// eventually polls cond (each call is a request to a replica) until it
// holds, or fails the test after within.
func eventually(t *testing.T, what string, within time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, within)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// hookReceiver is a webhook receiver on https: it keeps every delivery
// it got, in the order it got them, and answers after delay (a slow
// receiver).
type hookReceiver struct {
	srv   *httptest.Server
	mu    sync.Mutex
	got   []events.CloudEvent
	delay atomic.Int64
}

func newHookReceiver(t *testing.T) *hookReceiver {
	h := &hookReceiver{}
	h.srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		var ev events.CloudEvent
		if err := json.NewDecoder(req.Body).Decode(&ev); err != nil {
			http.Error(w, "not a CloudEvent", http.StatusBadRequest)
			return
		}
		time.Sleep(time.Duration(h.delay.Load())) // the fault: a slow receiver
		h.mu.Lock()
		h.got = append(h.got, ev)
		h.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(h.srv.Close)
	return h
}

// received returns the deliveries so far whose subject contains part.
func (h *hookReceiver) received(part string) []events.CloudEvent {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []events.CloudEvent
	for _, e := range h.got {
		if strings.Contains(e.Subject, part) {
			out = append(out, e)
		}
	}
	return out
}
