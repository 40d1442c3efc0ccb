package main

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/dev"
	"github.com/edh-platform/rms-portal/internal/dev/cloud"
)

// standIn is the Connect stand-in behind /dev/cloud for an environment.
func (tp *testPortal) standIn(t *testing.T, env string) *cloud.Connect {
	t.Helper()
	zone, stage, _ := strings.Cut(env, "/")
	envID, clusterID, _, _ := dev.IDs(zone, stage)
	k := tp.app.dev.platform.Cloud.Cluster(envID, clusterID)
	if k == nil {
		t.Fatalf("no stand-in for %s", env)
	}
	return k
}

// quickConnect makes the stand-in connectors of an environment provision
// and fail quickly.
func quickConnect(t *testing.T, tp *testPortal, env string) {
	t.Helper()
	tp.standIn(t, env).SetTiming(300*time.Millisecond, 300*time.Millisecond)
}

func (tp *testPortal) connectorState(t *testing.T, user, path string) map[string]any {
	t.Helper()
	r := tp.call("GET", path, user, nil)
	if r.status != 200 {
		t.Fatalf("GET %s: %d %s", path, r.status, r.body)
	}
	return r.json(t)
}

func (tp *testPortal) waitState(t *testing.T, user, path, want string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		c := tp.connectorState(t, user, path)
		if c["state"] == want {
			return c
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s stayed %v, want %s", path, c["state"], want)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestConnectorJourney: create a connector in scada/dev, see it provision
// then run, pause and resume it, read its configuration with secrets
// masked, and update it: Confluent Cloud never reveals a stored secret, so
// an update must send the secrets again, and one that does not is refused
// with the settings named.
func TestConnectorJourney(t *testing.T) {
	t.Parallel()
	tp := startPortal(t, nil)
	quickConnect(t, tp, "edh-shared/dev")
	base := "/api/v1/scada/dev"
	body := map[string]any{"name": "Orders Feed", "config": map[string]string{
		"connector.class": "DatagenSource", "kafka.topic": "orders_feed", "output.data.format": "JSON", "quickstart": "ORDERS",
		"kafka.api.key": "KEY123", "kafka.api.secret": "TOP-SECRET", "tasks.max": "2"}}
	r := tp.call("POST", base+"/connector", "carol", body)
	if r.status != http.StatusCreated {
		t.Fatalf("create: %d %s", r.status, r.body)
	}
	c := r.json(t)
	path := r.header.Get("Location")
	if c["name"] != "edh-shared-scada-dev-orders-feed-connector" || c["state"] != "PROVISIONING" || path != base+"/connector/edh-shared-scada-dev-orders-feed-connector" {
		t.Fatalf("created %v at %s", c, path)
	}
	if strings.Contains(string(r.body), "TOP-SECRET") || strings.Contains(string(r.body), "KEY123") {
		t.Error("the create response leaks a secret")
	}
	wantError(t, tp.call("POST", base+"/connector", "carol", body), http.StatusConflict, "ALREADY_EXISTS")

	c = tp.waitState(t, "carol", path, "RUNNING")
	if tasks := c["tasks"].([]any); len(tasks) != 2 {
		t.Errorf("tasks %v", tasks)
	}
	if _, has := c["config"]; has {
		t.Error("config without show_config")
	}
	for _, action := range []string{"pause", "resume"} {
		r := tp.call("POST", path+"/"+action, "carol", nil)
		if r.status != http.StatusAccepted {
			t.Fatalf("%s: %d %s", action, r.status, r.body)
		}
	}
	tp.call("POST", path+"/pause", "carol", nil)
	tp.waitState(t, "dave", path, "PAUSED")
	tp.call("POST", path+"/resume", "carol", nil)
	tp.waitState(t, "dave", path, "RUNNING")

	shown := tp.call("GET", path+"?show_config=true", "dave", nil)
	cfg := shown.json(t)["config"].(map[string]any)
	if cfg["kafka.api.secret"] != "********" || cfg["kafka.api.key"] != "********" || cfg["kafka.topic"] != "edh-shared-scada-dev-orders-feed" {
		t.Errorf("config %v", cfg)
	}
	if strings.Contains(string(shown.body), "TOP-SECRET") {
		t.Error("the configuration leaks the secret")
	}

	// Send the GET back with a change: the masked secrets cannot be kept.
	full := shown.json(t)
	full["config"].(map[string]any)["quickstart"] = "USERS"
	wantError(t, tp.call("PUT", path, "carol", full), http.StatusBadRequest,
		"INVALID_PARAMETER:config.kafka.api.key", "INVALID_PARAMETER:config.kafka.api.secret")
	full["config"].(map[string]any)["kafka.api.key"] = "KEY456"
	full["config"].(map[string]any)["kafka.api.secret"] = "NEW-SECRET"
	if r := tp.call("PUT", path, "carol", full); r.status != 200 || strings.Contains(string(r.body), "NEW-SECRET") {
		t.Fatalf("update: %d %s", r.status, r.body)
	}
	stored, _ := tp.standIn(t, "edh-shared/dev").StoredConfig("edh-shared-scada-dev-orders-feed-connector")
	if stored["kafka.api.secret"] != "NEW-SECRET" || stored["quickstart"] != "USERS" {
		t.Errorf("stored %v", stored)
	}

	wantError(t, tp.call("POST", path+"/pause", "dave", nil), http.StatusForbidden, "INSUFFICIENT_ROLE")
	wantError(t, tp.call("POST", "/api/v1/scada/run/connector", "carol", body), http.StatusForbidden, "READ_ONLY_ENVIRONMENT")
	bad := tp.call("POST", base+"/connector", "carol", map[string]any{"name": "half", "config": map[string]string{"connector.class": "DatagenSource", "kafka.topic": "x"}})
	wantError(t, bad, http.StatusBadRequest, "INVALID_PARAMETER:config.kafka.api.key", "INVALID_PARAMETER:config.kafka.api.secret",
		"INVALID_PARAMETER:config.output.data.format", "INVALID_PARAMETER:config.quickstart")
	unknown := tp.call("POST", base+"/connector", "carol", map[string]any{"name": "x", "config": map[string]string{"connector.class": "FtpSource"}})
	wantError(t, unknown, http.StatusBadRequest, "INVALID_PARAMETER:config.connector.class")

	tp.waitState(t, "dave", path, "RUNNING") // a changed connector provisions again
	list := tp.call("GET", base+"/connectors", "dave", nil).json(t)
	var states []string
	for _, it := range list["items"].([]any) {
		m := it.(map[string]any)
		states = append(states, fmt.Sprint(m["identifier"], "=", m["state"]))
	}
	if strings.Join(states, " ") != "orders-feed=RUNNING pump-datagen=RUNNING" {
		t.Errorf("list states %v", states)
	}
	if r := tp.call("DELETE", path, "carol", nil); r.status != http.StatusNoContent {
		t.Errorf("delete: %d", r.status)
	}
	wantError(t, tp.call("GET", path, "carol", nil), http.StatusNotFound, "NOT_FOUND")
}

// TestConnectorRestart: the seeded crm webhook fails a task; restarting
// only the failed tasks brings it back to RUNNING.
func TestConnectorRestart(t *testing.T) {
	t.Parallel()
	tp := startPortal(t, nil)
	tp.standIn(t, "edh-shared/dev").SetTiming(0, 0)
	path := "/api/v1/crm/dev/connector/orders-webhook"
	c := tp.waitState(t, "alice", path, "DEGRADED")
	if task := c["tasks"].([]any)[0].(map[string]any); task["state"] != "FAILED" || task["trace"] == "" {
		t.Errorf("failed task %v", task)
	}
	wantError(t, tp.call("POST", path+"/restart?only_failed=true", "carol", nil), http.StatusForbidden, "INSUFFICIENT_ROLE")
	if r := tp.call("POST", path+"/restart?only_failed=true", "alice", nil); r.status != http.StatusAccepted {
		t.Fatalf("restart: %d %s", r.status, r.body)
	}
	tp.waitState(t, "alice", path, "RUNNING")
}
