package api_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/api"
	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/auth"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/ratelimit"
	"github.com/edh-platform/rms-portal/internal/servicetest"
	"github.com/edh-platform/rms-portal/internal/topics"
	"github.com/edh-platform/rms-portal/internal/worker"
)

// users are the callers of these tests: the token is the user name, and
// the groups are the demo users' of dev mode.
var users = map[string]portal.Identity{
	"alice": {Subject: "alice", Username: "alice", Groups: []string{"sg-edh-shared-superadmins"}},
	"bob":   {Subject: "bob", Username: "bob", Groups: []string{"sg-scada-admins"}},
	"carol": {Subject: "carol", Username: "carol", Groups: []string{"sg-scada-developers", "sg-crm-viewers"}},
	"dave":  {Subject: "dave", Username: "dave", Groups: []string{"sg-scada-viewers"}},
	"erin":  {Subject: "erin", Username: "erin"},
	"frank": {Subject: "frank", Username: "frank", Groups: []string{"platform-admins"}},
	"grace": {Subject: "grace", Username: "grace", Groups: []string{"sg-mfg-shared-superadmins"}},
}

// verifier accepts the user names above as tokens and resolves their
// groups with the real policy.
type verifier struct{ r *access.Resolver }

func (v verifier) Verify(_ context.Context, raw string) (*portal.Principal, error) {
	if raw == "" {
		return nil, portal.New(portal.Unauthenticated, "a bearer token is required")
	}
	id, ok := users[raw]
	if !ok {
		return nil, portal.New(portal.Unauthenticated, "the token is not valid")
	}
	return v.r.Resolve(id), nil
}

// server is the API through the real echo setup over the service fakes.
type server struct {
	t *testing.T
	w *servicetest.World
	h http.Handler
}

func newServer(t *testing.T, o func(*api.Options)) *server {
	t.Helper()
	w := servicetest.New(t)
	e := httpserver.New(httpserver.Options{Logger: servicetest.Discard(), MaxBodyBytes: 1 << 20,
		IsAPI: api.IsAPIPath, APIErrors: api.WriteProblem})
	opts := api.Options{Services: w.Services(), Verifier: verifier{access.NewResolver(w.Tenancy, "platform-admins")},
		Logger: servicetest.Discard()}
	if o != nil {
		o(&opts)
	}
	api.New(opts).Register(e)
	return &server{t: t, w: w, h: e}
}

type reply struct {
	status int
	header http.Header
	body   map[string]any
	raw    string
}

func (s *server) do(method, path, user, body string) reply {
	s.t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if user != "" {
		req.Header.Set("Authorization", "Bearer "+user)
	}
	rec := httptest.NewRecorder()
	s.h.ServeHTTP(rec, req)
	conform(s.t, req, rec.Code, rec.Header(), rec.Body.Bytes())
	r := reply{status: rec.Code, header: rec.Header(), raw: rec.Body.String()}
	_ = json.Unmarshal(rec.Body.Bytes(), &r.body)
	return r
}

// errorTypes lists the error record's items as "TYPE" or "TYPE:field".
func (r reply) errorTypes() string {
	items, _ := r.body["errors"].([]any)
	var out []string
	for _, it := range items {
		m := it.(map[string]any)
		s := m["type"].(string)
		if f, _ := m["field"].(string); f != "" {
			s += ":" + f
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

// writeBodies hold a valid body for every state-changing route, so that
// the only reason for a refusal is the policy. A new write route without
// an entry here fails TestEveryWriteRefusesViewersAndReadOnlyStages.
var writeBodies = map[string]string{
	"POST /api/v1/:bu/:stage/topic":                            `{"name": "fresh", "partitions_count": 2}`,
	"PUT /api/v1/:bu/:stage/topic/:name":                       `{"partitions_count": 2, "config": {}}`,
	"PATCH /api/v1/:bu/:stage/topic/:name":                     `{"config": {"retention.ms": "1000"}}`,
	"DELETE /api/v1/:bu/:stage/topic/:name":                    ``,
	"POST /api/v1/:bu/:stage/topic/:name/records":              `{"records": [{"key": "k", "value": "v"}]}`,
	"POST /api/v1/:bu/:stage/connector":                        `{"name": "fresh", "config": {"connector.class": "DatagenSource", "kafka.topic": "existing", "quickstart": "USERS", "output.data.format": "JSON", "kafka.api.key": "K", "kafka.api.secret": "S"}}`,
	"PUT /api/v1/:bu/:stage/connector/:name":                   `{"config": {"connector.class": "DatagenSource", "kafka.topic": "existing", "quickstart": "USERS", "output.data.format": "JSON", "kafka.api.key": "K", "kafka.api.secret": "S"}}`,
	"DELETE /api/v1/:bu/:stage/connector/:name":                ``,
	"POST /api/v1/:bu/:stage/connector/:name/pause":            ``,
	"POST /api/v1/:bu/:stage/connector/:name/resume":           ``,
	"POST /api/v1/:bu/:stage/connector/:name/restart":          ``,
	"PUT /api/v1/:bu/:stage/connector/:name/auto-restart":      `{"enabled": true, "max_restarts": 3}`,
	"PUT /api/v1/:bu/:stage/alert-rule/:name":                  `{"kind": "lag_time", "threshold": 300, "for_seconds": 60}`,
	"DELETE /api/v1/:bu/:stage/alert-rule/:name":               ``,
	"POST /api/v1/:bu/:stage/alert-rule/:name/silence":         `{"for_seconds": 3600, "reason": "walk"}`,
	"POST /api/v1/:bu/:stage/alert-channel":                    `{"format": "slack", "url": "https://hooks.example.com/x"}`,
	"DELETE /api/v1/:bu/:stage/alert-channel/:id":              ``,
	"POST /api/v1/:bu/:stage/schema":                           `{"topic": "fresh", "subject_type": "value", "schema_type": "AVRO", "schema": "{\"type\":\"string\"}"}`,
	"PUT /api/v1/:bu/:stage/schema/:subject":                   `{"schema": "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"string\"},{\"name\":\"b\",\"type\":\"string\",\"default\":\"\"}]}"}`,
	"DELETE /api/v1/:bu/:stage/schema/:subject/:version":       ``,
	"POST /api/v1/:bu/:stage/service-account":                  `{"name": "fresh", "type": "producer"}`,
	"POST /api/v1/:bu/:stage/service-accounts/bulk":            `{"items": [{"name": "fresh", "type": "producer"}]}`,
	"PATCH /api/v1/:bu/:stage/service-account/:id":             `{"description": "changed"}`,
	"DELETE /api/v1/:bu/:stage/service-account/:id":            ``,
	"POST /api/v1/:bu/:stage/service-account/:id/api-keys":     `{"resource": "kafka"}`,
	"PATCH /api/v1/:bu/:stage/api-key/:id":                     `{"description": "changed"}`,
	"DELETE /api/v1/:bu/:stage/api-key/:id":                    ``,
	"POST /api/v1/:bu/:stage/api-key/:id/rotate":               `{"overlap": "1h"}`,
	"POST /api/v1/:bu/:stage/identity-pool":                    `{"name": "fresh", "type": "consumer", "filter": "claims.sub == \"y\""}`,
	"PATCH /api/v1/:bu/:stage/identity-pool/:id":               `{"filter": "claims.sub == \"z\""}`,
	"DELETE /api/v1/:bu/:stage/identity-pool/:id":              ``,
	"POST /api/v1/:bu/:stage/identity-pools/test-filter":       `{"filter": "true", "claims": {}}`,
	"POST /api/v1/:bu/:stage/schema/:subject/compatibility":    `{"schema": "{\"type\":\"string\"}"}`,
	"DELETE /api/v1/:bu/:stage/consumer-group/:id":             ``,
	"POST /api/v1/:bu/:stage/consumer-group/:id/reset-offsets": `{"to": "earliest"}`,
	"POST /api/v1/:bu/:stage/plan":                             planBody,
	"POST /api/v1/:bu/:stage/apply":                            planBody,
	"POST /api/v1/:bu/:stage/export":                           ``,
	"POST /api/v1/:bu/:stage/change-requests":                  planBody,
	"POST /api/v1/:bu/:stage/change-request/:id/approve":       ``,
	"POST /api/v1/:bu/:stage/change-request/:id/reject":        ``,
	"POST /api/v1/:bu/:stage/change-request/:id/withdraw":      ``,
	"PUT /api/v1/:bu/:stage/topic/:name/catalog":               `{"description": "walk", "tags": ["walk"], "classification": "internal"}`,
	"POST /api/v1/:bu/:stage/grants":                           `{"owner": "crm", "topic": "orders", "access": "read", "principal": "sa-x", "reason": "walk"}`,
	"POST /api/v1/:bu/:stage/grant/:id/approve":                ``,
	"POST /api/v1/:bu/:stage/grant/:id/reject":                 ``,
	"POST /api/v1/:bu/:stage/grant/:id/withdraw":               ``,
	"POST /api/v1/:bu/:stage/grant/:id/revoke":                 ``,
}

const planBody = `{"items": [{"apiVersion": "portal/v1", "kind": "Topic", "metadata": {"name": "fresh"}, "spec": {"partitions": 2}}]}`

// reads are POST routes that change nothing; every role may call them.
var reads = map[string]bool{
	"POST /api/v1/:bu/:stage/identity-pools/test-filter":    true,
	"POST /api/v1/:bu/:stage/schema/:subject/compatibility": true,
	"POST /api/v1/:bu/:stage/plan":                          true,
	"POST /api/v1/:bu/:stage/export":                        true,
}

// identityRoutes need the Admin role in any stage (grants too: they
// change what a principal may do).
func identityRoute(path string) bool {
	return strings.Contains(path, "/service-account") || strings.Contains(path, "/identity-pool") || strings.Contains(path, "/api-key") ||
		strings.Contains(path, "/grant")
}

// TestEveryWriteRefusesViewersAndReadOnlyStages walks the route table:
// every state-changing route refuses a Viewer (INSUFFICIENT_ROLE) and a
// Developer in the read-only stage (READ_ONLY_ENVIRONMENT; identity
// routes need an Admin anywhere), and changes nothing upstream.
func TestEveryWriteRefusesViewersAndReadOnlyStages(t *testing.T) {
	s := newServer(t, nil)
	seeded := map[string]servicetest.Seeded{}
	for _, st := range []string{"dev", "run"} {
		seeded[st] = s.w.Seed(t, "scada", st)
	}
	before := s.w.Snapshot(t)
	e := s.h.(*echo.Echo)
	walked := 0
	for _, rt := range e.Routes() {
		if rt.Method == http.MethodGet || rt.Method == http.MethodHead || !strings.HasPrefix(rt.Path, api.Base+"/:bu/:stage/") {
			continue
		}
		key := rt.Method + " " + rt.Path
		body, ok := writeBodies[key]
		if !ok {
			t.Errorf("%s has no sample body in writeBodies: add one", key)
			continue
		}
		walked++
		for _, c := range []struct{ user, stage, want string }{
			{"dave", "dev", "INSUFFICIENT_ROLE"},
			{"carol", "run", "READ_ONLY_ENVIRONMENT"},
		} {
			want := c.want
			if identityRoute(rt.Path) && c.user == "carol" {
				want = "INSUFFICIENT_ROLE"
			}
			if reads[key] {
				want = ""
			}
			if strings.HasSuffix(key, "/records") && c.stage == "run" {
				want = "PRODUCE_DISABLED" // produce is off in read-only stages
			}
			if strings.HasSuffix(key, "/apply") {
				want += ":items[0]" // the refused change of the document
			}
			status := http.StatusForbidden
			switch {
			case strings.HasSuffix(key, "/change-requests") && c.stage == "run":
				want = "" // what a request is for: it changes nothing upstream
			case strings.Contains(key, "/change-request/"):
				// No such request; the journey tests the roles on real ones.
				want, status = "NOT_FOUND", http.StatusNotFound
			}
			sd := seeded[c.stage]
			id := sd.PoolID
			switch {
			case strings.Contains(rt.Path, "/service-account/"):
				id = sd.AccountID
			case strings.Contains(rt.Path, "/api-key/"):
				id = sd.KeyID
			}
			path := strings.NewReplacer(":bu", "scada", ":stage", c.stage, ":name", sd.Topic, ":subject", sd.Subject,
				":version", "1", ":id", id).Replace(rt.Path)
			if strings.Contains(rt.Path, "/connector/") {
				path = strings.Replace(path, sd.Topic, sd.Connector, 1)
			}
			if strings.HasSuffix(key, "/change-requests") {
				path += "?reason=walk"
			}
			trail := len(s.w.AuditEvents(t))
			r := s.do(rt.Method, path, c.user, body)
			switch {
			case want == "" && r.status >= 300:
				t.Errorf("%s as %s in %s: %d %s, want success", key, c.user, c.stage, r.status, r.raw)
			case want != "" && (r.status != status || r.errorTypes() != want):
				t.Errorf("%s as %s in %s: %d %s, want %d %s", key, c.user, c.stage, r.status, r.errorTypes(), status, want)
			}
			// Every refused write is in the trail, once, with its refusal
			// (a bulk or an apply: at least once, one per item).
			if want != "" && status == http.StatusForbidden {
				evs := s.w.AuditEvents(t)
				added := evs[:len(evs)-trail]
				refusal := strings.SplitN(want, ":", 2)[0]
				n := 0
				for _, e := range added {
					if e.Outcome == refusal {
						n++
					}
				}
				if n == 0 || n != len(added) || (n > 1 && !strings.Contains(key, "/bulk") && !strings.HasSuffix(key, "/apply")) {
					t.Errorf("%s as %s in %s: the trail has %d event(s) (%d with outcome %s), want one", key, c.user, c.stage, len(added), n, refusal)
				}
			}
		}
	}
	if walked < 15 {
		t.Errorf("walked only %d write routes", walked)
	}
	if after := s.w.Snapshot(t); after != before {
		t.Errorf("refused writes changed upstream:\nbefore\n%s\nafter\n%s", before, after)
	}
}

func TestErrorRecordsAndStatuses(t *testing.T) {
	s := newServer(t, nil)
	cases := []struct {
		method, path, user, body string
		status                   int
		types                    string
	}{
		{"GET", "/api/v1/scada/dev/topics", "", "", 401, "UNAUTHENTICATED"},
		{"GET", "/api/v1/scada/dev/topics", "nobody", "", 401, "UNAUTHENTICATED"},
		{"GET", "/api/v1/scada/dev/topics", "erin", "", 404, "NOT_FOUND:bu"},
		{"GET", "/api/v1/nowhere/dev/topics", "carol", "", 404, "NOT_FOUND:bu"},
		{"GET", "/api/v1/scada/prod/topics", "carol", "", 404, "NOT_FOUND:stage"},
		{"POST", "/api/v1/scada/dev/topic", "carol", `{"name": 5}`, 400, "INVALID_PARAMETER:name"},
		{"POST", "/api/v1/scada/dev/topic", "carol", `{"name": "x",`, 400, "MALFORMED_BODY"},
		{"POST", "/api/v1/scada/dev/topic", "carol", `{"partitions_count": 0, "config": {"nope": "1"}}`, 400,
			"MISSING_PARAMETER:name INVALID_PARAMETER:partitions_count INVALID_PARAMETER:config.nope"},
		{"GET", "/api/v1/scada/dev/topics?page_size=5000", "carol", "", 400, "INVALID_PARAMETER:page_size"},
		{"POST", "/api/v1/scada/dev/topic", "carol", `{"partitions_count":"six","config":["a"]}`, 400,
			"INVALID_PARAMETER:config INVALID_PARAMETER:partitions_count"},
		{"POST", "/api/v1/scada/dev/topic", "carol", `{"name":"x","config":{"retention.ms":5,"cleanup.policy":"compact","segment.ms":true},"extra":1}`, 400,
			"INVALID_PARAMETER:config.retention.ms INVALID_PARAMETER:config.segment.ms INVALID_PARAMETER:extra"},
		{"POST", "/api/v1/scada/dev/service-accounts/bulk", "bob", `{"items":[{"name":"a","type":"consumer"},{"name":7}]}`, 400,
			"INVALID_PARAMETER:items[1].name"},
		{"POST", "/api/v1/scada/dev/topic", "carol", `null`, 400, "MALFORMED_BODY"},
		// A decodable token that the API did not issue is refused, not
		// read as the end of the list.
		{"GET", "/api/v1/scada/dev/topics?page_token=enp6", "carol", "", 400, "INVALID_PARAMETER:page_token"},
		{"GET", "/api/v1/scada/dev/topics?page_token=enp6.AAAAAAAAAAAAAAAA", "carol", "", 400, "INVALID_PARAMETER:page_token"},
		{"PUT", "/api/v1/scada/dev/topics", "carol", "{}", 405, "METHOD_NOT_ALLOWED"},
		{"GET", "/api/v1/scada/dev/nothing-here", "carol", "", 404, "NOT_FOUND"},
	}
	for _, c := range cases {
		r := s.do(c.method, c.path, c.user, c.body)
		if r.status != c.status || r.errorTypes() != c.types {
			t.Errorf("%s %s as %q: %d %s, want %d %s\n%s", c.method, c.path, c.user, r.status, r.errorTypes(), c.status, c.types, r.raw)
			continue
		}
		if code, _ := r.body["code"].(float64); int(code) != c.status || r.body["status"] != api.StatusName(c.status) {
			t.Errorf("%s %s: record %v", c.method, c.path, r.body)
		}
		if r.header.Get("X-Request-Id") == "" {
			t.Errorf("%s %s: no X-Request-Id", c.method, c.path)
		}
	}
	if r := s.do("GET", "/api/v1/scada/dev/topics", "", ""); !strings.HasPrefix(r.header.Get("WWW-Authenticate"), "Bearer") {
		t.Errorf("401 without a challenge: %v", r.header)
	}
}

func TestTopicLifecycle(t *testing.T) {
	s := newServer(t, nil)
	r := s.do("POST", "/api/v1/scada/dev/topic", "carol", `{"name": "Orders_EU", "partitions_count": 3, "config": {"retention.ms": "86400000"}}`)
	if r.status != http.StatusCreated || r.body["name"] != "edh-shared-scada-dev-orders-eu" ||
		r.header.Get("Location") != "/api/v1/scada/dev/topic/edh-shared-scada-dev-orders-eu" {
		t.Fatalf("create: %d %v %s", r.status, r.header, r.raw)
	}
	if !s.w.Cluster("edh-shared", "dev").Has("edh-shared-scada-dev-orders-eu") {
		t.Error("the topic is not on the cluster")
	}
	if r := s.do("POST", "/api/v1/scada/dev/topic", "carol", `{"name": "orders-eu"}`); r.status != 409 || r.errorTypes() != "ALREADY_EXISTS" {
		t.Errorf("again: %d %s", r.status, r.raw)
	}
	r = s.do("GET", "/api/v1/scada/dev/topics?search=orders", "dave", "")
	if items := r.body["items"].([]any); r.status != 200 || len(items) != 1 {
		t.Errorf("list: %d %s", r.status, r.raw)
	}
	r = s.do("PATCH", "/api/v1/scada/dev/topic/orders-eu", "carol", `{"config": {"retention.ms": null, "cleanup.policy": "compact"}}`)
	if cfg, _ := r.body["config"].(map[string]any); r.status != 200 || len(cfg) != 1 || cfg["cleanup.policy"] != "compact" {
		t.Errorf("patch: %d %s", r.status, r.raw)
	}
	if r := s.do("DELETE", "/api/v1/scada/dev/topic/orders-eu", "carol", ""); r.status != http.StatusNoContent {
		t.Errorf("delete: %d %s", r.status, r.raw)
	}
	if s.w.Cluster("edh-shared", "dev").Has("edh-shared-scada-dev-orders-eu") {
		t.Error("the topic is still on the cluster")
	}
}

// TestBulkJob: a batch is answered 202 with its location before anything
// is created; only its owner (and platform admins) can read it there.
func TestBulkJob(t *testing.T) {
	s := newServer(t, nil)
	s.w.Org.SetLatency(20 * time.Millisecond)
	r := s.do("POST", "/api/v1/scada/dev/service-accounts/bulk", "bob",
		`{"items": [{"name": "b1", "type": "producer"}, {"name": "b2", "type": "consumer"}, {"name": "b3", "type": "metrics"}]}`)
	if r.status != http.StatusAccepted || r.body["state"] != "running" {
		t.Fatalf("start: %d %s", r.status, r.raw)
	}
	loc := r.header.Get("Location")
	if !strings.HasPrefix(loc, "/api/v1/scada/dev/service-accounts/bulk/") {
		t.Fatalf("Location %q", loc)
	}
	if r := s.do("GET", loc, "dave", ""); r.status != 404 {
		t.Errorf("another user reads the job: %d %s", r.status, r.raw)
	}
	r = s.do("GET", loc+"?wait=20s", "bob", "")
	if r.status != 200 || r.body["state"] != "done" || r.body["done"].(float64) != 3 {
		t.Fatalf("progress: %d %s", r.status, r.raw)
	}
	for _, res := range r.body["results"].([]any) {
		if res.(map[string]any)["status"].(float64) != 201 {
			t.Errorf("result %v", res)
		}
	}
	if r := s.do("GET", loc, "frank", ""); r.status != 200 {
		t.Errorf("platform admin reads the job: %d %s", r.status, r.raw)
	}
	if r := s.do("GET", loc+"?wait=forever", "bob", ""); r.status != 400 || r.errorTypes() != "INVALID_PARAMETER:wait" {
		t.Errorf("bad wait: %d %s", r.status, r.raw)
	}
}

// TestAuditTrail: writes, allowed and refused, are in the unit's trail
// with who, what, the outcome and the changes; Admins read it, filtered and
// paged; Developers may not.
func TestAuditTrail(t *testing.T) {
	s := newServer(t, nil)
	s.do("POST", "/api/v1/scada/dev/topic", "carol", `{"name": "audited", "config": {"retention.ms": "1000"}}`)
	s.do("PATCH", "/api/v1/scada/dev/topic/audited", "carol", `{"config": {"retention.ms": "2000"}}`)
	s.do("POST", "/api/v1/scada/dev/topic", "dave", `{"name": "daves"}`)
	s.do("POST", "/api/v1/scada/run/topic", "carol", `{"name": "in-run"}`)
	s.do("DELETE", "/api/v1/scada/dev/topic/audited", "", "")
	s.do("DELETE", "/api/v1/scada/dev/topic/audited", "forged-token", "")
	s.w.Audit.Flush(context.Background())

	r := s.do("GET", "/api/v1/scada/dev/audit", "bob", "")
	items, _ := r.body["items"].([]any)
	if r.status != 200 || len(items) != 4 {
		t.Fatalf("trail: %d %s", r.status, r.raw)
	}
	// The unauthenticated refusals of one source in one minute are one
	// event with their count.
	if e := items[0].(map[string]any); e["outcome"] != "UNAUTHENTICATED" || e["action"] != "DELETE /:bu/:stage/topic/:name" || e["resource"] != "audited" ||
		len(e["changes"].([]any)) != 1 || e["changes"].([]any)[0].(map[string]any)["after"] != "2" {
		t.Errorf("unauthenticated deletes %v", e)
	}
	refused, patch, created := items[1].(map[string]any), items[2].(map[string]any), items[3].(map[string]any)
	if created["actor"] != "carol" || created["action"] != "topic.create" || created["outcome"] != "ok" ||
		created["resource"] != "edh-shared-scada-dev-audited" || created["actor_role"] != "developer" ||
		created["source_ip"] != "192.0.2.1" || created["request_id"] == "" {
		t.Errorf("create %v", created)
	}
	if refused["actor"] != "dave" || refused["outcome"] != "INSUFFICIENT_ROLE" || refused["resource"] != "daves" {
		t.Errorf("refusal %v", refused)
	}
	changes, _ := patch["changes"].([]any)
	if len(changes) != 1 || changes[0].(map[string]any)["before"] != "1000" || changes[0].(map[string]any)["after"] != "2000" {
		t.Errorf("patch %v", patch)
	}
	if r := s.do("GET", "/api/v1/scada/run/audit?outcome=READ_ONLY_ENVIRONMENT", "bob", ""); len(r.body["items"].([]any)) != 1 {
		t.Errorf("the run stage's refusal: %s", r.raw)
	}
	page := s.do("GET", "/api/v1/scada/dev/audit?page_size=2", "bob", "")
	next := page.body["next_page_token"].(string)
	rest := s.do("GET", "/api/v1/scada/dev/audit?page_size=2&page_token="+next, "bob", "")
	if len(page.body["items"].([]any)) != 2 || next == "" || len(rest.body["items"].([]any)) != 2 || rest.body["next_page_token"] != "" {
		t.Errorf("paging: %s / %s", page.raw, rest.raw)
	}
	if r := s.do("GET", "/api/v1/scada/dev/audit?actor=dave", "bob", ""); len(r.body["items"].([]any)) != 1 {
		t.Errorf("by actor: %s", r.raw)
	}
	if r := s.do("GET", "/api/v1/scada/dev/audit", "carol", ""); r.status != 403 || r.errorTypes() != "INSUFFICIENT_ROLE" {
		t.Errorf("a developer reads the trail: %d %s", r.status, r.raw)
	}
	if r := s.do("GET", "/api/v1/scada/dev/audit?since=yesterday&page_size=0", "bob", ""); r.status != 400 ||
		r.errorTypes() != "INVALID_PARAMETER:since INVALID_PARAMETER:page_size" {
		t.Errorf("bad query: %d %s", r.status, r.raw)
	}
	if r := s.do("GET", "/api/v1/scada/dev/audit?page_token=@@", "bob", ""); r.status != 400 || r.errorTypes() != "INVALID_PARAMETER:page_token" {
		t.Errorf("bad token: %d %s", r.status, r.raw)
	}
}

// TestDatabaseDown: with the database gone, calls that need it answer 503
// UPSTREAM_UNAVAILABLE with Retry-After, at once; and every write route,
// which records its attempt in the audit trail before anything goes
// upstream, answers so too and changes nothing upstream.
func TestDatabaseDown(t *testing.T) {
	s := newServer(t, nil)
	sd := s.w.Seed(t, "scada", "dev")
	// A topic of crm for scada's account to ask access to.
	if err := s.w.Cluster("edh-shared", "dev").CreateTopic(context.Background(), platform.TopicSpec{Name: "edh-shared-crm-dev-orders", Partitions: 1}); err != nil {
		t.Fatal(err)
	}
	before := s.w.SnapshotUpstream(t)
	s.w.Store.Close()
	start := time.Now()
	r := s.do("GET", "/api/v1/scada/dev/audit", "bob", "")
	if r.status != 503 || r.errorTypes() != "UPSTREAM_UNAVAILABLE" || r.header.Get("Retry-After") == "" {
		t.Errorf("audit without a database: %d %v %s", r.status, r.header, r.raw)
	}
	r = s.do("POST", "/api/v1/scada/dev/service-accounts/bulk", "bob", `{"items": [{"name": "x", "type": "consumer"}]}`)
	if r.status != 503 || r.errorTypes() != "UPSTREAM_UNAVAILABLE" {
		t.Errorf("bulk without a database: %d %s", r.status, r.raw)
	}
	walked := 0
	for _, rt := range s.h.(*echo.Echo).Routes() {
		key := rt.Method + " " + rt.Path
		body, ok := writeBodies[key]
		if !ok || reads[key] || !strings.HasPrefix(rt.Path, api.Base+"/:bu/:stage/") {
			continue
		}
		path := strings.NewReplacer(":bu", "scada", ":stage", "dev", ":name", sd.Topic, ":subject", sd.Subject,
			":version", "1", ":id", sd.PoolID).Replace(rt.Path)
		switch {
		case strings.Contains(rt.Path, "/connector/"):
			path = strings.Replace(path, sd.Topic, sd.Connector, 1)
		case strings.Contains(rt.Path, "/consumer-group/"):
			path = strings.Replace(path, sd.PoolID, sd.Group, 1)
		case strings.Contains(rt.Path, "/service-account/"):
			path = strings.Replace(path, sd.PoolID, sd.AccountID, 1)
			if rt.Method == http.MethodDelete {
				path += "?delete_api_keys=true" // else refused for its key first
			}
		case strings.Contains(rt.Path, "/api-key/"):
			path = strings.Replace(path, sd.PoolID, sd.KeyID, 1)
		}
		if strings.HasSuffix(key, "/change-requests") {
			path += "?reason=walk"
		}
		if strings.HasSuffix(key, "/grants") {
			body = strings.Replace(body, "sa-x", sd.AccountID, 1)
		}
		if strings.HasSuffix(key, "/apply") {
			// The plan's fingerprint is needed to get as far as a change.
			p := s.do("POST", "/api/v1/scada/dev/plan", "bob", body)
			r = s.send(path, "bob", "application/json", body, p.header.Get("ETag"))
		} else {
			r = s.do(rt.Method, path, "bob", body)
		}
		walked++
		if r.status != 503 || r.errorTypes() != "UPSTREAM_UNAVAILABLE" || r.header.Get("Retry-After") == "" {
			t.Errorf("%s without a database: %d %s, want 503 UPSTREAM_UNAVAILABLE", key, r.status, r.raw)
		}
	}
	if walked < 15 {
		t.Errorf("walked only %d write routes", walked)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("took %v", took)
	}
	if after := s.w.SnapshotUpstream(t); after != before {
		t.Errorf("writes without an audit trail changed upstream:\nbefore\n%s\nafter\n%s", before, after)
	}
}

// TestRateLimits: a caller over its budget gets 429 RATE_LIMITED with
// Retry-After, and other callers do not; a unit over its budget refuses
// everyone in it.
func TestRateLimits(t *testing.T) {
	w := servicetest.New(t)
	w.Guard = gate.New(gate.Options{Tenancy: w.Tenancy, Envs: w.Envs, Audit: w.Audit, Notify: w.Store,
		Logger: servicetest.Discard(), Limits: gate.Limits{Caller: gate.Rate{PerSecond: 0.01, Burst: 3}, Unit: gate.Rate{PerSecond: 0.01, Burst: 5}}})
	topics := topics.New(w.Guard, worker.NewSampler(time.Minute, time.Hour, 10, w.Store, servicetest.Discard()), w.Charts)
	s := newServer(t, func(o *api.Options) { o.Services.Topics = topics })
	for i := range 3 {
		if r := s.do("GET", "/api/v1/scada/dev/topics", "carol", ""); r.status != 200 {
			t.Fatalf("request %d: %d %s", i, r.status, r.raw)
		}
	}
	r := s.do("GET", "/api/v1/scada/dev/topics", "carol", "")
	if r.status != 429 || r.errorTypes() != "RATE_LIMITED" || r.header.Get("Retry-After") == "" {
		t.Errorf("over the caller's budget: %d %v %s", r.status, r.header, r.raw)
	}
	for i := range 2 {
		if r := s.do("GET", "/api/v1/scada/dev/topics", "dave", ""); r.status != 200 {
			t.Fatalf("dave's request %d: %d %s", i, r.status, r.raw)
		}
	}
	if r := s.do("GET", "/api/v1/scada/dev/topics", "bob", ""); r.status != 429 || !strings.Contains(r.raw, "business unit scada") {
		t.Errorf("over the unit's budget: %d %s", r.status, r.raw)
	}
}

// TestHeadAndOversizedHeaders: HEAD answers as GET without a body, and
// oversized headers get the error record.
func TestHeadAndOversizedHeaders(t *testing.T) {
	s := newServer(t, nil)
	srv := httptest.NewServer(s.h)
	defer srv.Close()
	req, _ := http.NewRequest(http.MethodHead, srv.URL+"/api/v1/scada/dev/topics", nil)
	req.Header.Set("Authorization", "Bearer carol")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || len(body) != 0 || resp.Header.Get("Content-Type") != "application/json" {
		t.Errorf("HEAD: %d %v %q", resp.StatusCode, resp.Header, body)
	}
	req, _ = http.NewRequest(http.MethodGet, srv.URL+"/api/v1/scada/dev/topics", nil)
	req.Header.Set("Authorization", "Bearer carol")
	req.Header.Set("X-Padding", strings.Repeat("x", 70<<10))
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 431 || !strings.Contains(string(body), `"type":"HEADERS_TOO_LARGE"`) {
		t.Errorf("oversized headers: %d %s", resp.StatusCode, body)
	}
}

// TestOversizedNamesAreBoundedInTheTrail: a refused create with a name of
// 900 KB is refused with a short message, and what reaches the trail is
// cut with a marker.
func TestOversizedNamesAreBoundedInTheTrail(t *testing.T) {
	s := newServer(t, nil)
	huge := strings.Repeat("n", 900_000)
	for _, user := range []string{"dave", "carol"} {
		r := s.do("POST", "/api/v1/scada/dev/topic", user, `{"name": "`+huge+`"}`)
		if r.status/100 != 4 || len(r.raw) > 4096 {
			t.Errorf("%s: %d with a %d-byte answer", user, r.status, len(r.raw))
		}
	}
	if r := s.do("GET", "/api/v1/scada/dev/topic/"+huge[:60_000], "carol", ""); r.status != 400 || len(r.raw) > 4096 {
		t.Errorf("a long name in the path: %d with a %d-byte answer", r.status, len(r.raw))
	}
	size := 0
	for _, e := range s.w.AuditEvents(t) {
		size += len(e.Resource) + len(e.Detail)
		if len(e.Resource) > 600 || !strings.Contains(e.Resource, "more bytes)") {
			t.Errorf("audited resource of %d bytes: %.80q", len(e.Resource), e.Resource)
		}
	}
	if size > 10_000 {
		t.Errorf("the trail holds %d bytes of names and details", size)
	}
}

// TestUnauthenticatedFloodIsThrottled: bad tokens from one address are
// refused with 429 and Retry-After once its bucket is spent, before any
// verification; another address is not affected; the trail holds one
// event per address and minute.
func TestUnauthenticatedFloodIsThrottled(t *testing.T) {
	s := newServer(t, func(o *api.Options) { o.Throttle = auth.NewThrottle(ratelimit.Rate{PerSecond: 1, Burst: 10}) })
	from := func(ip, token string) reply {
		req := httptest.NewRequest("DELETE", "/api/v1/scada/dev/topic/x", nil)
		req.RemoteAddr = ip + ":4242"
		req.Header.Set("Authorization", "Bearer "+token)
		rec := httptest.NewRecorder()
		s.h.ServeHTTP(rec, req)
		r := reply{status: rec.Code, header: rec.Header(), raw: rec.Body.String()}
		_ = json.Unmarshal(rec.Body.Bytes(), &r.body)
		return r
	}
	limited := 0
	for i := range 300 {
		r := from("198.51.100.7", "garbage")
		switch {
		case r.status == 429:
			limited++
			if r.errorTypes() != "RATE_LIMITED" || r.header.Get("Retry-After") == "" {
				t.Fatalf("429 without its record: %v %s", r.header, r.raw)
			}
		case r.status != 401:
			t.Fatalf("bad token %d: %d %s", i, r.status, r.raw)
		}
	}
	if limited < 280 {
		t.Errorf("%d of 300 bad tokens were refused with 429", limited)
	}
	if r := from("198.51.100.8", "carol"); r.status == 429 {
		t.Errorf("another address is throttled: %s", r.raw)
	}
	s.w.Audit.Flush(context.Background())
	if n := len(s.w.AuditEvents(t)); n > 2 {
		t.Errorf("%d audit events for a flood from one address", n)
	}
}

// TestSuperAdminsStayInTheirZone is the reported takeover, tried again:
// alice (Super Admin of edh-shared only) cannot list, read, change or
// delete an identity pool or account of sales (another zone on the same
// identity provider) by id through the API, nor can grace those of
// edh-shared; nothing changes upstream and no event is written for the
// other zone.
func TestSuperAdminsStayInTheirZone(t *testing.T) {
	s := newServer(t, nil)
	sales := s.w.Seed(t, "sales", "dev")
	scada := s.w.Seed(t, "scada", "dev")
	before := s.w.Snapshot(t)
	for _, c := range []struct {
		user, main string
		victim     servicetest.Seeded
	}{
		{"alice", "platform", sales}, {"grace", "mfg", sales}, {"grace", "mfg", scada},
	} {
		base := "/api/v1/" + c.main + "/dev/"
		if r := s.do("GET", base+"identity-pools", c.user, ""); r.status != 200 || strings.Contains(r.raw, c.victim.PoolID) {
			t.Errorf("%s lists another zone's pool: %d %s", c.user, r.status, r.raw)
		}
		if r := s.do("GET", base+"service-accounts", c.user, ""); r.status != 200 || strings.Contains(r.raw, c.victim.AccountID) {
			t.Errorf("%s lists another zone's account: %d %s", c.user, r.status, r.raw)
		}
		for _, rq := range []struct{ method, path, body string }{
			{"GET", "identity-pool/" + c.victim.PoolID, ""},
			{"PATCH", "identity-pool/" + c.victim.PoolID, `{"filter": "true"}`},
			{"DELETE", "identity-pool/" + c.victim.PoolID, ""},
			{"GET", "service-account/" + c.victim.AccountID, ""},
		} {
			if r := s.do(rq.method, base+rq.path, c.user, rq.body); r.status != 404 || r.errorTypes() != "NOT_FOUND" {
				t.Errorf("%s %s %s: %d %s", c.user, rq.method, rq.path, r.status, r.raw)
			}
		}
	}
	if after := s.w.Snapshot(t); after != before {
		t.Errorf("another zone's pools changed:\nbefore\n%s\nafter\n%s", before, after)
	}
	// alice still manages her own zone's pools from the whole-cluster view,
	// audited in the owning unit's trail.
	if r := s.do("PATCH", "/api/v1/platform/dev/identity-pool/"+scada.PoolID, "alice", `{"filter": "claims.sub == \"ci\""}`); r.status != 200 {
		t.Errorf("alice changes scada's pool: %d %s", r.status, r.raw)
	}
	if ev := s.w.AuditEvents(t); len(ev) == 0 || ev[0].BU != "scada" || ev[0].Action != portal.ActIdentityPoolFilter || ev[0].Outcome != "ok" {
		t.Errorf("alice's change of scada's pool is audited as %+v", ev[0])
	}
}
