package main

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// TestIssueWalkthrough follows the checks of the foundation issue, as a
// new user would make them with curl.
func TestIssueWalkthrough(t *testing.T) {
	tp := sharedPortal(t)
	t.Parallel()

	sfx := suffix()
	tp.removeAfter("/api/v1/scada/dev/topic/crm-orders-" + sfx)
	tp.removeAfter("/api/v1/scada/run/topic/crm-orders-" + sfx)
	r := tp.call("POST", "/api/v1/scada/dev/topic", "carol", map[string]any{"name": "crm_orders_" + sfx})
	if r.status != http.StatusCreated {
		t.Fatalf("carol's create: %d %s", r.status, r.body)
	}
	if got := r.json(t)["name"]; got != "edh-shared-scada-dev-crm-orders-"+sfx {
		t.Errorf("created %v", got)
	}
	if loc := r.header.Get("Location"); loc != "/api/v1/scada/dev/topic/edh-shared-scada-dev-crm-orders-"+sfx {
		t.Errorf("Location %q", loc)
	}
	get := tp.call("GET", r.header.Get("Location"), "carol", nil)
	if get.status != http.StatusOK || get.json(t)["identifier"] != "crm-orders-"+sfx {
		t.Errorf("GET Location: %d %s", get.status, get.body)
	}

	wantError(t, tp.call("POST", "/api/v1/scada/run/topic", "carol", map[string]any{"name": "crm_orders_" + sfx}),
		http.StatusForbidden, "READ_ONLY_ENVIRONMENT")
	if r := tp.call("POST", "/api/v1/scada/run/topic", "bob", map[string]any{"name": "crm_orders_" + sfx}); r.status != http.StatusCreated {
		t.Errorf("bob's create in run: %d %s", r.status, r.body)
	}
	wantError(t, tp.call("POST", "/api/v1/scada/dev/topic", "dave", map[string]any{"name": "daves"}),
		http.StatusForbidden, "INSUFFICIENT_ROLE")
	wantError(t, tp.call("POST", "/api/v1/scada/dev/topic", "carol", map[string]any{"partitions_count": 3}),
		http.StatusBadRequest, "MISSING_PARAMETER:name")

	noToken := tp.call("GET", "/api/v1/scada/dev/topics", "", nil)
	wantError(t, noToken, http.StatusUnauthorized, "UNAUTHENTICATED")
	if h := noToken.header.Get("WWW-Authenticate"); !strings.HasPrefix(h, "Bearer") {
		t.Errorf("WWW-Authenticate %q", h)
	}

	me := tp.call("GET", "/api/v1/me", "erin", nil).json(t)
	if units := me["business_units"].([]any); len(units) != 0 {
		t.Errorf("erin sees %v", units)
	}
	carol := tp.call("GET", "/api/v1/me", "carol", nil).json(t)
	if got := fmt.Sprint(carol["business_units"]); got != "[map[dedicated:false groups:[sg-crm-viewers] id:crm landing_zone:edh-shared main:false role:viewer] map[dedicated:false groups:[sg-scada-developers] id:scada landing_zone:edh-shared main:false role:developer]]" {
		t.Errorf("carol's units %s", got)
	}
	if got := fmt.Sprint(carol["stages"]); got != "[map[name:dev read_only:false] map[name:qas read_only:false] map[name:run read_only:true]]" {
		t.Errorf("stages %s", got)
	}
}

func TestErrorRecords(t *testing.T) {
	tp := sharedPortal(t)
	t.Parallel()
	cases := []struct {
		name   string
		method string
		path   string
		user   string
		body   any
		header []string
		status int
		items  []string
	}{
		{"unknown route", "GET", "/api/v1/scada/dev/widgets", "carol", nil, nil, 404, []string{"NOT_FOUND"}},
		{"unknown route without token", "GET", "/api/v1/nothing/here/at/all", "", nil, nil, 404, []string{"NOT_FOUND"}},
		{"method not allowed", "DELETE", "/api/v1/me", "carol", nil, nil, 405, []string{"METHOD_NOT_ALLOWED"}},
		{"unknown unit", "GET", "/api/v1/nope/dev/topics", "carol", nil, nil, 404, []string{"NOT_FOUND:bu"}},
		{"unit without a role", "GET", "/api/v1/sales/dev/topics", "carol", nil, nil, 404, []string{"NOT_FOUND:bu"}},
		{"unknown stage", "GET", "/api/v1/scada/prod/topics", "carol", nil, nil, 404, []string{"NOT_FOUND:stage"}},
		{"not JSON", "POST", "/api/v1/scada/dev/topic", "carol", "name=x", []string{"Content-Type", "text/plain"}, 415, []string{"UNSUPPORTED_MEDIA_TYPE"}},
		{"broken JSON", "POST", "/api/v1/scada/dev/topic", "carol", `{"name": `, nil, 400, []string{"MALFORMED_BODY"}},
		{"empty body", "POST", "/api/v1/scada/dev/topic", "carol", " ", nil, 400, []string{"MALFORMED_BODY"}},
		{"array body", "POST", "/api/v1/scada/dev/topic", "carol", `[1]`, nil, 400, []string{"MALFORMED_BODY"}},
		{"wrong type", "POST", "/api/v1/scada/dev/topic", "carol", `{"name":"x","partitions_count":"six"}`, nil, 400, []string{"INVALID_PARAMETER:partitions_count"}},
		{"unknown field", "POST", "/api/v1/scada/dev/topic", "carol", `{"name":"x","partition_count":6}`, nil, 400, []string{"INVALID_PARAMETER:partition_count"}},
		{"two values", "POST", "/api/v1/scada/dev/topic", "carol", `{"name":"x"} {}`, nil, 400, []string{"MALFORMED_BODY"}},
		{"several fields", "POST", "/api/v1/scada/dev/topic", "carol", `{"partitions_count":101,"config":{"retention.ms":"x"}}`, nil, 400,
			[]string{"MISSING_PARAMETER:name", "INVALID_PARAMETER:partitions_count", "INVALID_PARAMETER:config.retention.ms"}},
		{"bad page size", "GET", "/api/v1/scada/dev/topics?page_size=abc", "carol", nil, nil, 400, []string{"INVALID_PARAMETER:page_size"}},
		{"bad flag", "GET", "/api/v1/scada/dev/topic/alarms?include_defaults=maybe", "carol", nil, nil, 400, []string{"INVALID_PARAMETER:include_defaults"}},
		{"missing topic", "GET", "/api/v1/scada/dev/topic/nothing-here", "carol", nil, nil, 404, []string{"NOT_FOUND"}},
		{"bad scheme", "GET", "/api/v1/me", "", nil, []string{"Authorization", "Basic Ym9iOmJvYg=="}, 401, []string{"UNAUTHENTICATED"}},
		{"bad token", "GET", "/api/v1/me", "", nil, []string{"Authorization", "Bearer not.a.token"}, 401, []string{"UNAUTHENTICATED"}},
		{"docs unknown", "GET", "/api-docs/nothing", "", nil, nil, 404, []string{"NOT_FOUND"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := tp.call(c.method, c.path, c.user, c.body, c.header...)
			wantError(t, r, c.status, c.items...)
		})
	}

	big := `{"name":"x","config":{"retention.ms":"` + strings.Repeat("9", 2<<20) + `"}}`
	wantError(t, tp.call("POST", "/api/v1/scada/dev/topic", "carol", big), http.StatusRequestEntityTooLarge, "PAYLOAD_TOO_LARGE")

	bad := tp.call("GET", "/api/v1/me", "", nil, "Authorization", "Bearer not.a.token")
	if h := bad.header.Get("WWW-Authenticate"); !strings.Contains(h, `error="invalid_token"`) {
		t.Errorf("WWW-Authenticate %q", h)
	}
	echoed := tp.call("GET", "/api/v1/me", "carol", nil, "X-Request-Id", "trace-123")
	if echoed.header.Get("X-Request-Id") != "trace-123" {
		t.Errorf("request id not kept: %q", echoed.header.Get("X-Request-Id"))
	}
	forged := tp.call("GET", "/api/v1/me", "carol", nil, "X-Request-Id", "bad id\twith tab")
	if id := forged.header.Get("X-Request-Id"); id == "" || strings.Contains(id, " ") {
		t.Errorf("unsafe request id kept: %q", id)
	}
}

func TestTopicLifecycleThroughAPI(t *testing.T) {
	tp := sharedPortal(t)
	t.Parallel()
	base := "/api/v1/scada/qas"
	sfx := suffix()
	tp.removeAfter(base + "/topic/life-cycle-" + sfx)
	r := tp.call("POST", base+"/topic", "carol", map[string]any{"name": "Life.Cycle." + sfx, "partitions_count": 2,
		"config": map[string]string{"retention.ms": "3600000", "cleanup.policy": "compact"}})
	if r.status != http.StatusCreated {
		t.Fatalf("create: %d %s", r.status, r.body)
	}
	name := r.json(t)["name"].(string)
	if name != "edh-shared-scada-qas-life-cycle-"+sfx {
		t.Fatalf("name %s", name)
	}
	wantError(t, tp.call("POST", base+"/topic", "carol", map[string]any{"name": "life_cycle_" + sfx}), http.StatusConflict, "ALREADY_EXISTS")

	d := tp.call("GET", base+"/topic/life-cycle-"+sfx+"?include_defaults=true", "dave", nil).json(t)
	if fmt.Sprint(d["config"]) != "map[cleanup.policy:compact retention.ms:3600000]" {
		t.Errorf("config %v", d["config"])
	}
	if defs, _ := d["defaults"].(map[string]any); defs["segment.ms"] == nil || defs["retention.ms"] != nil {
		t.Errorf("defaults %v", d["defaults"])
	}
	plain := tp.call("GET", base+"/topic/"+name, "dave", nil).json(t)
	if _, has := plain["defaults"]; has {
		t.Error("defaults without include_defaults")
	}

	// PUT the GET response back with changes: read-only fields are ignored.
	d["partitions_count"] = 4
	d["config"] = map[string]string{"retention.ms": "7200000"}
	r = tp.call("PUT", base+"/topic/"+name, "carol", d)
	if r.status != http.StatusOK {
		t.Fatalf("PUT: %d %s", r.status, r.body)
	}
	put := r.json(t)
	if put["partitions_count"] != 4.0 || fmt.Sprint(put["config"]) != "map[retention.ms:7200000]" || len(put["partitions"].([]any)) != 4 {
		t.Errorf("after PUT %v", put)
	}
	wantError(t, tp.call("PUT", base+"/topic/"+name, "carol", map[string]any{"partitions_count": 4}), http.StatusBadRequest, "MISSING_PARAMETER:config")
	wantError(t, tp.call("PATCH", base+"/topic/"+name, "carol", map[string]any{"partitions_count": 2}), http.StatusBadRequest, "INVALID_PARAMETER:partitions_count")

	r = tp.call("PATCH", base+"/topic/"+name, "carol", `{"config":{"retention.ms":null,"max.message.bytes":"2097152"}}`)
	if r.status != http.StatusOK || fmt.Sprint(r.json(t)["config"]) != "map[max.message.bytes:2097152]" {
		t.Errorf("PATCH: %d %s", r.status, r.body)
	}

	list := tp.call("GET", base+"/topics?search=CYCLE-"+strings.ToUpper(sfx), "dave", nil).json(t)
	if items := list["items"].([]any); len(items) != 1 || items[0].(map[string]any)["partitions_count"] != 4.0 {
		t.Errorf("search: %v", list)
	}

	wantError(t, tp.call("DELETE", base+"/topic/"+name, "dave", nil), http.StatusForbidden, "INSUFFICIENT_ROLE")
	if r := tp.call("DELETE", base+"/topic/life-cycle-"+sfx, "carol", nil); r.status != http.StatusNoContent || len(r.body) != 0 {
		t.Errorf("delete: %d %s", r.status, r.body)
	}
	wantError(t, tp.call("GET", base+"/topic/"+name, "carol", nil), http.StatusNotFound, "NOT_FOUND")
	wantError(t, tp.call("DELETE", base+"/topic/"+name, "carol", nil), http.StatusNotFound, "NOT_FOUND")
}

func TestListPagingThroughAPI(t *testing.T) {
	tp := sharedPortal(t)
	t.Parallel()
	sfx := suffix()
	for i := 0; i < 7; i++ {
		tp.removeAfter(fmt.Sprintf("/api/v1/crm/qas/topic/page-%s-%d", sfx, i))
		if r := tp.call("POST", "/api/v1/crm/qas/topic", "alice", map[string]any{"name": fmt.Sprintf("page-%s-%d", sfx, i)}); r.status != 201 {
			t.Fatalf("create: %d %s", r.status, r.body)
		}
	}
	var seen []string
	path := "/api/v1/crm/qas/topics?search=page-" + sfx + "-&page_size=3"
	for pages := 0; pages < 5; pages++ {
		l := tp.call("GET", path, "alice", nil).json(t)
		for _, it := range l["items"].([]any) {
			seen = append(seen, it.(map[string]any)["identifier"].(string))
		}
		if l["total_size"] != 7.0 {
			t.Errorf("total_size %v", l["total_size"])
		}
		next := l["next_page_token"].(string)
		if next == "" {
			break
		}
		path = "/api/v1/crm/qas/topics?search=page-" + sfx + "-&page_size=3&page_token=" + next
	}
	if strings.Join(seen, ",") != strings.ReplaceAll("page-S-0,page-S-1,page-S-2,page-S-3,page-S-4,page-S-5,page-S-6", "S", sfx) {
		t.Errorf("pages gave %v", seen)
	}
	wantError(t, tp.call("GET", "/api/v1/crm/qas/topics?page_size=1001", "alice", nil), 400, "INVALID_PARAMETER:page_size")
	wantError(t, tp.call("GET", "/api/v1/crm/qas/topics?page_token=@@", "alice", nil), 400, "INVALID_PARAMETER:page_token")
}

func TestWholeClusterViewAndServicePrincipal(t *testing.T) {
	tp := sharedPortal(t)
	t.Parallel()
	all := tp.call("GET", "/api/v1/platform/dev/topics?page_size=1000", "alice", nil).json(t)
	found := map[string]map[string]any{}
	for _, it := range all["items"].([]any) {
		m := it.(map[string]any)
		found[m["name"].(string)] = m
	}
	if l := found["legacy-orders"]; l == nil || l["outside_convention"] != true {
		t.Errorf("legacy-orders in the whole-cluster view: %v", l)
	}
	if s := found["edh-shared-scada-dev-alarms"]; s == nil || s["business_unit"] != "scada" {
		t.Errorf("scada's topic in the whole-cluster view: %v", s)
	}
	if r := tp.call("GET", "/api/v1/platform/dev/topic/legacy-orders", "alice", nil); r.status != 200 {
		t.Errorf("alice gets legacy-orders: %d %s", r.status, r.body)
	}
	wantError(t, tp.call("GET", "/api/v1/scada/dev/topic/legacy-orders", "bob", nil), 404, "NOT_FOUND")
	scada := tp.call("GET", "/api/v1/scada/dev/topics", "alice", nil).json(t)
	for _, it := range scada["items"].([]any) {
		if n := it.(map[string]any)["name"].(string); !strings.HasPrefix(n, "edh-shared-scada-dev-") {
			t.Errorf("scada view shows %s", n)
		}
	}
	sales := tp.call("GET", "/api/v1/sales/dev/topics", "sam", nil).json(t)
	if items := sales["items"].([]any); len(items) != 2 || items[0].(map[string]any)["name"] != "sales-dev-leads" {
		t.Errorf("dedicated unit list %v", items)
	}

	tok := tp.serviceToken()
	sfx := suffix()
	tp.removeAfter("/api/v1/scada/dev/topic/from-ci-" + sfx)
	r := tp.callToken("POST", "/api/v1/scada/dev/topic", tok, map[string]any{"name": "from-ci-" + sfx})
	if r.status != http.StatusCreated || r.json(t)["name"] != "edh-shared-scada-dev-from-ci-"+sfx {
		t.Errorf("pipeline create: %d %s", r.status, r.body)
	}
	wantError(t, tp.callToken("POST", "/api/v1/scada/run/topic", tok, map[string]any{"name": "from-ci-" + sfx}), 403, "READ_ONLY_ENVIRONMENT")
	me := tp.callToken("GET", "/api/v1/me", tok, nil).json(t)
	if me["service"] != true || me["username"] != "scada-ci" {
		t.Errorf("pipeline me %v", me)
	}
}

func TestMetricsThroughAPI(t *testing.T) {
	tp := sharedPortal(t)
	t.Parallel()
	c := tp.call("GET", "/api/v1/scada/dev/metrics", "dave", nil).json(t)
	if c["unit_topics"].(float64) < 3 || c["topics"].(float64) <= c["unit_topics"].(float64) || c["brokers"] != 1.0 || len(c["charts"].(map[string]any)["charts"].([]any)) != 4 {
		t.Errorf("cluster metrics %v", c)
	}
	m := tp.call("GET", "/api/v1/scada/run/topic/sensor-readings/metrics", "dave", nil).json(t)
	if m["name"] != "edh-shared-scada-run-sensor-readings" || m["messages"] != 400.0 || len(m["partitions"].([]any)) != 6 || len(m["samples"].([]any)) < 1 ||
		m["charts"].(map[string]any)["range"] != "1h" {
		t.Errorf("topic metrics %v", m)
	}
	wantError(t, tp.call("GET", "/api/v1/scada/dev/topic/nope/metrics", "dave", nil), 404, "NOT_FOUND")
}
