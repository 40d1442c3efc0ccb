package confluent

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	_ "github.com/confluentinc/ccloud-sdk-go-v2/metrics/v2"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// metricsDocument compiles the QueryRequest schema of the Metrics API's
// published OpenAPI document (ccloud-sdk-go-v2/metrics v0.2.0).
func metricsDocument(t *testing.T) (*jsonschema.Schema, []documentedOp) {
	t.Helper()
	dir, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/confluentinc/ccloud-sdk-go-v2/metrics").Output()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(dir)), "v2/api/openapi.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	asJSON, err := json.Marshal(jsonable(doc))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	schemaDoc, err := jsonschema.UnmarshalJSON(bytes.NewReader(asJSON))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.AddResource("metrics.json", schemaDoc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile("metrics.json#/components/schemas/QueryRequest")
	if err != nil {
		t.Fatal(err)
	}
	return schema, documentedOps(t, "github.com/confluentinc/ccloud-sdk-go-v2/metrics", "v2/api/openapi.yaml")
}

// jsonable turns YAML's map[string]any trees into JSON-encodable ones.
func jsonable(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = jsonable(e)
		}
		return x
	case []any:
		for i, e := range x {
			x[i] = jsonable(e)
		}
		return x
	case time.Time:
		return x.Format(time.RFC3339)
	}
	return v
}

// metricsServer follows the published document: every request is checked
// against the QueryRequest schema and the documented operations, and a
// grouped query answers in two pages.
type metricsServer struct {
	t      *testing.T
	schema *jsonschema.Schema
	ops    []documentedOp
	mu     sync.Mutex
	bodies []map[string]any
	calls  []string
	status int
}

func (s *metricsServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = append(s.calls, r.Method+" "+r.URL.Path)
	if u, p, ok := r.BasicAuth(); !ok || u != "KEY" || p != "SECRET" {
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
	raw, _ := io.ReadAll(r.Body)
	var body any
	if err := json.Unmarshal(raw, &body); err != nil {
		s.t.Errorf("the body is not JSON: %v", err)
	}
	if err := s.schema.Validate(body); err != nil {
		s.t.Errorf("the request does not follow QueryRequest: %v\n%s", err, raw)
	}
	s.bodies = append(s.bodies, body.(map[string]any))
	if s.status != 0 {
		w.Header().Set("Retry-After", "30")
		w.WriteHeader(s.status)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	grouped := body.(map[string]any)["group_by"] != nil
	switch {
	case grouped && r.URL.Query().Get("page_token") == "":
		_, _ = w.Write([]byte(`{"data":[{"timestamp":"2026-11-22T10:00:00Z","value":100,"metric.topic":"a"},{"timestamp":"2026-11-22T10:01:00Z","value":120,"metric.topic":"a"}],"meta":{"pagination":{"page_size":2,"next_page_token":"page2"}}}`))
	case grouped:
		_, _ = w.Write([]byte(`{"data":[{"timestamp":"2026-11-22T10:00:00Z","value":7.5,"metric.topic":"b"}],"meta":{"pagination":{"page_size":2}}}`))
	default:
		_, _ = w.Write([]byte(`{"data":[{"timestamp":"2026-11-22T10:00:00Z","value":42}]}`))
	}
}

// TestMetricsQuery: requests follow the published document (operation,
// body schema, Basic auth), pages are followed, points carry their
// labels, and a 429 says when to come back.
func TestMetricsQuery(t *testing.T) {
	schema, ops := metricsDocument(t)
	srv := &metricsServer{t: t, schema: schema, ops: ops}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	m := NewMetrics(NewClient(Options{BaseURL: hs.URL, APIKey: "KEY", APISecret: "SECRET", Timeout: 2 * time.Second, MaxRetries: 1}), nil)
	start := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	ctx := context.Background()

	pts, err := m.QueryMetric(ctx, platform.MetricQuery{Metric: platform.MetricReceivedBytes, ClusterID: "lkc-1", GroupBy: []string{platform.LabelTopic},
		Granularity: "PT1M", Start: start, End: start.Add(time.Hour), Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != 3 || pts[0].Labels[platform.LabelTopic] != "a" || pts[2].Value != 7.5 || !pts[1].At.Equal(start.Add(time.Minute)) {
		t.Errorf("points %+v", pts)
	}
	pts, err = m.QueryMetric(ctx, platform.MetricQuery{Metric: platform.MetricRetainedBytes, ClusterID: "lkc-1",
		Filters: map[string]string{platform.LabelTopic: "a"}, Granularity: "PT5M", Start: start, End: start.Add(6 * time.Hour)})
	if err != nil || len(pts) != 1 || pts[0].Value != 42 {
		t.Errorf("ungrouped: %+v %v", pts, err)
	}
	last := srv.bodies[len(srv.bodies)-1]
	f := last["filter"].(map[string]any)
	if f["op"] != "AND" || len(f["filters"].([]any)) != 2 || last["intervals"].([]any)[0] != "2026-11-22T10:00:00Z/2026-11-22T16:00:00Z" {
		t.Errorf("filter and interval %v", last)
	}
	checkCalls(t, ops, srv.calls)

	srv.status = http.StatusTooManyRequests
	_, err = m.QueryMetric(ctx, platform.MetricQuery{Metric: platform.MetricSentBytes, ClusterID: "lkc-1", Granularity: "PT1M", Start: start, End: start.Add(time.Hour)})
	if !portal.Is(err, portal.RateLimited) {
		t.Errorf("429: %v", err)
	}
}
