package main

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/edh-platform/rms-portal/internal/config"
)

// TestTheLastProbesLeftovers: what the last hostile probe found, through
// the API as callers meet it.
func TestTheLastProbesLeftovers(t *testing.T) {
	t.Parallel()
	tp := startPortal(t, func(c *config.Config) {
		// One loopback address is this test's receiver; the others are
		// internal, as in production.
		c.Webhooks.MaxPerZone, c.Webhooks.AllowedNetworks = 2, []string{"127.0.0.2/32"}
	})
	sfx := suffix()

	// A token in the JWS JSON serializations is refused, however valid
	// its signature.
	parts := strings.Split(tp.token("carol"), ".")
	general, _ := json.Marshal(map[string]any{"payload": parts[1], "signatures": []map[string]string{{"protected": parts[0], "signature": parts[2]}}})
	flattened, _ := json.Marshal(map[string]string{"payload": parts[1], "protected": parts[0], "signature": parts[2]})
	for _, tok := range []string{string(general), string(flattened), base64.RawURLEncoding.EncodeToString(flattened)} {
		r := tp.callToken("GET", "/api/v1/scada/dev/topics", tok, nil)
		wantError(t, r, http.StatusUnauthorized, "UNAUTHENTICATED")
		if r.header.Get("WWW-Authenticate") == "" {
			t.Error("a refused token without WWW-Authenticate")
		}
	}

	// Webhook receivers on internal addresses, in any notation, and Kafka
	// targets outside the zone's platform topics are refused; a zone has
	// at most webhooks.max_per_zone of them.
	for _, u := range []string{"https://169.254.169.254/latest", "https://2130706433/", "https://0x7f.1/", "https://[::ffff:10.0.0.1]/",
		"https://10.1.2.3/", "https://[fd00:ec2::254]/", "https://localhost./x", "https://0177.0.0.1/", "https://[::1]/", "kafka://mfg-shared/dev/mfg-shared-mfg-dev-events",
		"kafka://edh-shared/dev/edh-shared-scada-dev-sensor-readings", "https://hooks.example.com/\x07"} {
		wantError(t, tp.call("POST", "/api/v1/admin/webhooks", "frank", map[string]any{"landing_zone": "edh-shared", "url": u}),
			http.StatusBadRequest, "INVALID_PARAMETER:url")
	}
	for i := range 3 {
		r := tp.call("POST", "/api/v1/admin/webhooks", "frank", map[string]any{"landing_zone": "edh-shared", "url": fmt.Sprintf("http://127.0.0.2:9/%s-%d", sfx, i)})
		switch {
		case i < 2 && r.status != http.StatusCreated:
			t.Fatalf("webhook %d: %d %s", i, r.status, r.body)
		case i < 2:
			tp.removeAfter("/api/v1/admin/webhook/" + r.json(t)["id"].(string))
		default:
			wantError(t, r, http.StatusConflict, "CONFLICT")
		}
	}

	// Unit ids and free text are bounded and refuse control characters.
	wantError(t, tp.call("POST", "/api/v1/admin/business-units", "frank", map[string]any{"id": strings.Repeat("u", 40), "landing_zone": "edh-shared",
		"groups": map[string]any{"admin": []string{"g"}}}), http.StatusBadRequest, "INVALID_PARAMETER:id")
	wantError(t, tp.call("PUT", "/api/v1/admin/read-only/edh-shared/qas", "frank", map[string]any{"read_only": true, "reason": "freeze\x1b[2J"}),
		http.StatusBadRequest, "INVALID_PARAMETER:reason")
	wantError(t, tp.call("POST", "/api/v1/scada/dev/service-account", "bob", map[string]any{"name": "d-" + sfx, "type": "consumer", "description": "a\x00b"}),
		http.StatusBadRequest, "INVALID_PARAMETER:description")

	// The API keys of an account that does not exist, or that is another
	// unit's, are as unknown as the account.
	wantError(t, tp.call("GET", "/api/v1/scada/dev/service-account/sa-nosuch/api-keys", "bob", nil), http.StatusNotFound, "NOT_FOUND")
	crm := tp.call("GET", "/api/v1/crm/dev/service-accounts", "alice", nil).json(t)["items"].([]any)
	if len(crm) == 0 {
		t.Fatal("crm has no service account")
	}
	other := crm[0].(map[string]any)["id"].(string)
	wantError(t, tp.call("GET", "/api/v1/scada/dev/service-account/"+other+"/api-keys", "bob", nil), http.StatusNotFound, "NOT_FOUND")
	wantError(t, tp.call("GET", "/api/v1/scada/dev/api-keys?account="+other, "bob", nil), http.StatusNotFound, "NOT_FOUND")

	// Refusals of the machine endpoints are error records too.
	r := tp.call("GET", "/healthz/upstreams", "", nil)
	wantError(t, r, http.StatusUnauthorized, "UNAUTHENTICATED")
	if r.header.Get("WWW-Authenticate") == "" {
		t.Error("/healthz/upstreams refused without WWW-Authenticate")
	}
	wantError(t, tp.call("GET", "/static/nothing-here.js", "", nil), http.StatusNotFound, "NOT_FOUND")
	wantError(t, tp.call("GET", "/static/../go.mod", "", nil), http.StatusNotFound, "NOT_FOUND")

	// The trail's exports are never kept by a cache.
	if r := tp.call("GET", "/api/v1/admin/audit/export?format=csv", "frank", nil); r.status != 200 || r.header.Get("Cache-Control") != "no-store" {
		t.Errorf("audit export: %d, Cache-Control %q", r.status, r.header.Get("Cache-Control"))
	}

	// A write refused for its input is in the trail as a refusal, as any
	// other refusal is.
	for _, c := range []struct {
		method, path, user, action string
		body                       any
	}{
		{"POST", "/api/v1/scada/dev/topic", "carol", "topic.create", map[string]any{"name": "zero-" + sfx, "partitions_count": 0}},
		{"POST", "/api/v1/scada/dev/topic/sensor-readings/records", "carol", "topic.produce", map[string]any{"records": []map[string]any{{"value": "x", "partition": 99}}}},
		{"POST", "/api/v1/scada/dev/schema", "carol", "schema.create", map[string]any{"topic": "s-" + sfx, "subject_type": "value", "schema_type": "AVRO", "schema": "{"}},
		{"POST", "/api/v1/scada/dev/service-account", "bob", "service-account.create", map[string]any{"name": "x-" + sfx, "type": "teapot"}},
	} {
		before := refusals(t, tp, c.action)
		if r := tp.call(c.method, c.path, c.user, c.body); r.status != http.StatusBadRequest {
			t.Errorf("%s %s: %d %s", c.method, c.path, r.status, r.body)
		}
		if after := refusals(t, tp, c.action); after != before+1 {
			t.Errorf("%s %s refused for its input: %d refusals of %s in the trail, %d before", c.method, c.path, after, c.action, before)
		}
	}
}

// refusals counts the trail's refused events of an action.
func refusals(t *testing.T, tp *testPortal, action string) int {
	t.Helper()
	n := 0
	for _, outcome := range []string{"INVALID_PARAMETER", "MISSING_PARAMETER"} {
		page := tp.call("GET", "/api/v1/admin/audit?page_size=1000&action="+action+"&outcome="+outcome, "frank", nil).json(t)
		n += len(page["items"].([]any))
	}
	return n
}
