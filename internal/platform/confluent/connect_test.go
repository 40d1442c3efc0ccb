package confluent

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	// The SDK module ships the published Connect v1 document that the fake
	// server below follows; importing it keeps the module available.
	_ "github.com/confluentinc/ccloud-sdk-go-v2/connect/v1"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/connect"
	"github.com/edh-platform/rms-portal/internal/upstream"
)

const (
	env     = "env-abc12"
	cluster = "lkc-xyz34"
)

// fakeConnect follows the shapes of Confluent Cloud's Connect v1 API: the
// expand=info,status,id list, CC's masking of secrets, its three error body
// shapes, and Retry-After on 429.
type fakeConnect struct {
	mu         sync.Mutex
	connectors map[string]map[string]string
	paused     map[string]bool
	calls      []string
	// failNext answers the next requests with these statuses first.
	failNext []int
}

func (f *fakeConnect) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, r.Method+" "+r.URL.Path)
	if u, p, ok := r.BasicAuth(); !ok || u != "KEY" || p != "SECRET" {
		writeJSON(w, 401, map[string]any{"error": map[string]any{"code": 401, "message": "Unauthorized"}})
		return
	}
	if len(f.failNext) > 0 {
		status := f.failNext[0]
		f.failNext = f.failNext[1:]
		switch status {
		case 429:
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(429)
		case 500:
			writeJSON(w, 500, map[string]any{"error_code": 500, "message": "Oops, something went wrong"})
		default:
			writeJSON(w, status, map[string]any{"code": status, "message": http.StatusText(status)})
		}
		return
	}
	base := "/connect/v1/environments/" + env + "/clusters/" + cluster
	path := strings.TrimPrefix(r.URL.Path, base)
	parts := strings.Split(strings.Trim(path, "/"), "/")
	switch {
	case path == "/connectors" && r.Method == http.MethodGet && r.URL.Query().Get("expand") == "info,status,id":
		out := map[string]any{}
		for name, cfg := range f.connectors {
			out[name] = map[string]any{"id": map[string]any{"id": "lcc-" + name, "id_type": "ID"},
				"info": map[string]any{"name": name, "config": masked(cfg), "type": "source"}, "status": f.status(name)}
		}
		writeJSON(w, 200, out)
	case path == "/connectors" && r.Method == http.MethodPost:
		var in struct {
			Name   string            `json:"name"`
			Config map[string]string `json:"config"`
		}
		_ = json.NewDecoder(r.Body).Decode(&in)
		if _, ok := f.connectors[in.Name]; ok {
			writeJSON(w, 409, map[string]any{"error": map[string]any{"code": 409, "message": "Connector " + in.Name + " already exists"}})
			return
		}
		f.connectors[in.Name] = in.Config
		writeJSON(w, 201, map[string]any{"name": in.Name, "config": masked(in.Config), "type": "source", "tasks": []any{}})
	case path == "/connector-plugins" && r.Method == http.MethodGet:
		writeJSON(w, 200, []map[string]any{{"class": "DatagenSource", "type": "source"}, {"class": "S3_SINK", "type": "sink"}})
	case len(parts) == 4 && parts[0] == "connector-plugins" && parts[3] == "validate" && r.Method == http.MethodPut:
		if parts[1] != "DatagenSource" {
			writeJSON(w, 404, map[string]any{"error": map[string]any{"code": 404, "message": "plugin not found"}})
			return
		}
		var cfg map[string]string
		_ = json.NewDecoder(r.Body).Decode(&cfg)
		configs := []any{}
		errs := 0
		for _, def := range []struct{ name, typ string }{{"kafka.topic", "STRING"}, {"kafka.api.secret", "PASSWORD"}} {
			var e []string
			if cfg[def.name] == "" {
				e = []string{"Missing required configuration \"" + def.name + "\" which has no default value."}
				errs++
			}
			configs = append(configs, map[string]any{
				"definition": map[string]any{"name": def.name, "type": def.typ, "required": true, "default_value": ""},
				"value":      map[string]any{"name": def.name, "errors": orEmpty(e)}})
		}
		writeJSON(w, 200, map[string]any{"name": "DatagenSource", "error_count": errs, "configs": configs})
	case len(parts) >= 2 && parts[0] == "connectors":
		f.connector(w, r, parts[1], parts[2:])
	default:
		writeJSON(w, 404, map[string]any{"error": map[string]any{"code": 404, "message": "not found"}})
	}
}

func (f *fakeConnect) connector(w http.ResponseWriter, r *http.Request, name string, rest []string) {
	cfg, ok := f.connectors[name]
	if !ok {
		writeJSON(w, 404, map[string]any{"error": map[string]any{"code": 404, "message": "resource not found"}})
		return
	}
	switch sub := strings.Join(rest, "/"); {
	case sub == "" && r.Method == http.MethodGet:
		writeJSON(w, 200, map[string]any{"name": name, "config": masked(cfg), "type": "source", "tasks": []any{}})
	case sub == "" && r.Method == http.MethodDelete:
		delete(f.connectors, name)
		writeJSON(w, 200, map[string]any{"error": nil})
	case sub == "status":
		writeJSON(w, 200, f.status(name))
	case sub == "config" && r.Method == http.MethodPut:
		var in map[string]string
		_ = json.NewDecoder(r.Body).Decode(&in)
		f.connectors[name] = in
		writeJSON(w, 200, map[string]any{"name": name, "config": masked(in), "type": "source"})
	case sub == "pause" || sub == "resume":
		f.paused[name] = sub == "pause"
		w.WriteHeader(202)
	case sub == "restart" && r.Method == http.MethodPost:
		w.WriteHeader(202)
	default:
		writeJSON(w, 404, map[string]any{"error": map[string]any{"code": 404, "message": "not found"}})
	}
}

func (f *fakeConnect) status(name string) map[string]any {
	state := "RUNNING"
	if f.paused[name] {
		state = "PAUSED"
	}
	tasks := []any{map[string]any{"id": 0, "state": "RUNNING", "worker_id": name}}
	if name == "half-broken" {
		tasks = append(tasks, map[string]any{"id": 1, "state": "FAILED", "worker_id": name, "msg": "boom"})
	}
	return map[string]any{"name": name, "type": "source", "connector": map[string]any{"state": state, "worker_id": name, "trace": ""}, "tasks": tasks}
}

func masked(cfg map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range cfg {
		if strings.Contains(k, "secret") || strings.Contains(k, "password") {
			v = "****************"
		}
		out[k] = v
	}
	return out
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func newFake(t *testing.T) (*fakeConnect, *Connect) {
	t.Helper()
	f := &fakeConnect{connectors: map[string]map[string]string{}, paused: map[string]bool{}}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	c := NewClient(Options{BaseURL: srv.URL, APIKey: "KEY", APISecret: "SECRET", Timeout: 5 * time.Second,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	c.backoff = func(int) time.Duration { return 10 * time.Millisecond }
	return f, NewConnect(c, env, cluster)
}

func TestConnectLifecycle(t *testing.T) {
	ctx := context.Background()
	f, k := newFake(t)
	problems, err := k.Validate(ctx, "DatagenSource", map[string]string{"connector.class": "DatagenSource"})
	if err != nil || len(problems) != 2 || problems[0].Key != "kafka.topic" {
		t.Fatalf("validate: %v %v", problems, err)
	}
	if _, err := k.Validate(ctx, "NopeSink", nil); !portal.Is(err, portal.InvalidParameter) || !strings.Contains(err.Error(), "available: DatagenSource, S3_SINK") {
		t.Errorf("unknown class: %v", err)
	}
	def, err := k.Definition(ctx, "DatagenSource")
	if err != nil || strings.Join(def.Sensitive, ",") != "kafka.api.secret" || def.Type != "source" {
		t.Errorf("definition %+v %v", def, err)
	}

	cfg := map[string]string{"connector.class": "DatagenSource", "kafka.topic": "t", "kafka.api.secret": "s3cr3t", "name": "c1"}
	c, err := k.CreateConnector(ctx, "c1", cfg)
	if err != nil || c.State != connect.StateProvisioning || c.Config["kafka.api.secret"] != "****************" {
		t.Fatalf("create: %+v %v", c, err)
	}
	if _, err := k.CreateConnector(ctx, "c1", cfg); !portal.Is(err, portal.AlreadyExists) {
		t.Errorf("duplicate: %v", err)
	}
	f.connectors["half-broken"] = map[string]string{"connector.class": "DatagenSource"}
	list, err := k.ListConnectors(ctx)
	if err != nil || len(list) != 2 || list[0].Name != "c1" || list[0].ID != "lcc-c1" || list[0].State != connect.StateRunning ||
		list[1].State != connect.StateDegraded || list[1].Tasks[1].Trace != "boom" {
		t.Fatalf("list: %+v %v", list, err)
	}
	if err := k.PauseConnector(ctx, "c1"); err != nil {
		t.Fatal(err)
	}
	if got, _ := k.GetConnector(ctx, "c1"); got.State != connect.StatePaused {
		t.Errorf("after pause: %s", got.State)
	}
	if err := k.ResumeConnector(ctx, "c1"); err != nil {
		t.Fatal(err)
	}
	if err := k.RestartConnector(ctx, "c1", true); err != nil {
		t.Fatal(err)
	}
	if _, err := k.UpdateConnector(ctx, "c1", cfg, []string{"kafka.api.secret"}); len(portal.Problems(err)) != 1 ||
		portal.Problems(err)[0].Field != "config.kafka.api.secret" {
		t.Errorf("update keeping a secret: %v", err)
	}
	cfg["kafka.topic"] = "t2"
	if got, err := k.UpdateConnector(ctx, "c1", cfg, nil); err != nil || got.Config["kafka.topic"] != "t2" {
		t.Errorf("update: %+v %v", got, err)
	}
	if err := k.DeleteConnector(ctx, "c1"); err != nil {
		t.Fatal(err)
	}
	if _, err := k.GetConnector(ctx, "c1"); !portal.Is(err, portal.NotFound) || !strings.Contains(err.Error(), "connector c1 not found") {
		t.Errorf("get deleted: %v", err)
	}
	if err := k.PauseConnector(ctx, "c1"); !portal.Is(err, portal.NotFound) {
		t.Errorf("pause deleted: %v", err)
	}
	checkDocumented(t, f.calls)
}

func TestRetriesAndErrorShapes(t *testing.T) {
	ctx := context.Background()
	f, k := newFake(t)
	f.connectors["c"] = map[string]string{}

	f.failNext = []int{500, 502}
	if _, err := k.ListConnectors(ctx); err != nil {
		t.Errorf("a read after two 5xx: %v", err)
	}
	f.failNext = []int{429}
	start := time.Now()
	if _, err := k.ListConnectors(ctx); err != nil || time.Since(start) < 900*time.Millisecond {
		t.Errorf("429 with Retry-After 1: %v after %v", err, time.Since(start))
	}
	// A create is not repeated after a 5xx: it may have happened.
	f.failNext = []int{500}
	_, err := k.CreateConnector(ctx, "new", map[string]string{})
	if !portal.Is(err, portal.UpstreamUnavailable) || !strings.Contains(err.Error(), "Oops, something went wrong") {
		t.Errorf("create after 500: %v", err)
	}
	if _, exists := f.connectors["new"]; exists {
		t.Error("the failed create was repeated")
	}
	f.failNext = []int{400}
	if _, err := k.CreateConnector(ctx, "new", map[string]string{}); !portal.Is(err, portal.InvalidParameter) || !strings.Contains(err.Error(), "Bad Request") {
		t.Errorf("code/message shape: %v", err)
	}
	f.failNext = []int{503, 503, 503, 503, 503}
	if _, err := k.GetConnector(ctx, "c"); !portal.Is(err, portal.UpstreamUnavailable) {
		t.Errorf("persistent 503: %v", err)
	}
	k.c.secret = "WRONG"
	// The platform's configuration, named with the operation and the
	// role it needs; never an outage.
	if _, err := k.ListConnectors(ctx); !portal.Is(err, portal.UpstreamPermission) || upstream.IsOutage(err) ||
		!strings.Contains(err.Error(), "GET connectors") || !strings.Contains(err.Error(), "CloudClusterAdmin") {
		t.Errorf("bad key: %v", err)
	}
}

func TestRateLimitBeyondDeadline(t *testing.T) {
	f, k := newFake(t)
	k.c.timeout = 500 * time.Millisecond
	f.failNext = []int{429}
	_, err := k.ListConnectors(context.Background())
	ps := portal.Problems(err)
	if len(ps) != 1 || ps[0].Kind != portal.RateLimited || ps[0].RetryAfter != time.Second {
		t.Errorf("429 beyond the deadline: %v", err)
	}
}

func TestSlowUpstreamTimesOut(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	}))
	t.Cleanup(srv.Close)
	c := NewClient(Options{BaseURL: srv.URL, APIKey: "KEY", APISecret: "SECRET", Timeout: 300 * time.Millisecond})
	start := time.Now()
	_, err := NewConnect(c, env, cluster).ListConnectors(context.Background())
	if !portal.Is(err, portal.UpstreamTimeout) || time.Since(start) > 2*time.Second {
		t.Errorf("slow upstream: %v after %v", err, time.Since(start))
	}
}

// checkDocumented asserts that every call matches an operation of the
// published Connect v1 document, or restart, which Confluent documents
// separately and the SDK does not carry.
func checkDocumented(t *testing.T, calls []string) {
	t.Helper()
	ops := documentedOps(t, "github.com/confluentinc/ccloud-sdk-go-v2/connect", "v1/api/openapi.yaml")
	ops = append(ops, newDocumentedOp("POST", "/connect/v1/environments/{environment_id}/clusters/{kafka_cluster_id}/connectors/{connector_name}/restart"))
	checkCalls(t, ops, calls)
}

type documentedOp struct {
	method string
	re     *regexp.Regexp
}

func newDocumentedOp(method, path string) documentedOp {
	path = strings.SplitN(path, "?", 2)[0]
	path = regexp.MustCompile(`\{[^}]+\}`).ReplaceAllString(path, "PARAM")
	return documentedOp{strings.ToUpper(method), regexp.MustCompile("^" + strings.ReplaceAll(regexp.QuoteMeta(path), "PARAM", "[^/]+") + "$")}
}

// documentedOps reads the operations of an OpenAPI document shipped in a
// module of the SDK.
func documentedOps(t *testing.T, module, file string) []documentedOp {
	t.Helper()
	dir, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", module).Output()
	if err != nil {
		t.Fatalf("locating %s: %v", module, err)
	}
	data, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(dir)), file))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths map[string]map[string]any `yaml:"paths"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	var ops []documentedOp
	for p, methods := range doc.Paths {
		for m := range methods {
			ops = append(ops, newDocumentedOp(m, p))
		}
	}
	return ops
}

func checkCalls(t *testing.T, ops []documentedOp, calls []string) {
	t.Helper()
	for _, c := range calls {
		method, path, _ := strings.Cut(c, " ")
		found := false
		for _, o := range ops {
			found = found || (o.method == method && o.re.MatchString(path))
		}
		if !found {
			t.Errorf("%s is not a published Confluent Cloud operation", c)
		}
	}
}
