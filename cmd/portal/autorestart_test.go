package main

import (
	"crypto/rand"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/config"
)

// TestAutoRestartJourney: carol declares a connector whose task fails
// after every restart (dev.failure: task-always) with autoRestart in its
// document; the plan shows the switch, the apply sets it; the portal
// restarts it on its backoff (here 1 s, doubling) and gives up after two
// restarts, visibly: the API's auto_restart, its restarts, the page and
// an event; her restart by hand starts again; export declares the switch.
func TestAutoRestartJourney(t *testing.T) {
	t.Parallel()
	tp := startPortal(t, func(c *config.Config) {
		c.ConnectorAutoRestart = config.ConnectorAutoRestart{FirstAfter: time.Second, MaxBackoff: 4 * time.Second, Every: 200 * time.Millisecond}
	})
	tp.standIn(t, "edh-shared/dev").SetTiming(100*time.Millisecond, 300*time.Millisecond)
	base := "/api/v1/scada/dev"
	name := "flaky-" + strings.ToLower(rand.Text()[:6])
	full := "edh-shared-scada-dev-" + name + "-connector"
	doc := map[string]any{"items": []any{map[string]any{"apiVersion": "portal/v1", "kind": "Connector", "metadata": map[string]any{"name": name},
		"spec": map[string]any{"class": "DatagenSource", "config": map[string]string{"kafka.topic": "sensor-readings", "output.data.format": "JSON",
			"quickstart": "ORDERS", "dev.failure": "task-always", "kafka.auth.mode": "SERVICE_ACCOUNT", "kafka.service.account.id": "sa-x"},
			"autoRestart": map[string]any{"enabled": true, "maxRestarts": 2}}}}}
	plan := tp.call("POST", base+"/plan", "carol", doc)
	if plan.status != http.StatusOK || !strings.Contains(string(plan.body), `"autoRestart"`) || !strings.Contains(string(plan.body), "on, at most 2 restarts") {
		t.Fatalf("plan: %d %s", plan.status, plan.body)
	}
	fp, _ := plan.json(t)["fingerprint"].(string)
	if r := tp.call("POST", base+"/apply", "carol", doc, "If-Match", `"`+fp+`"`); r.status != http.StatusOK || !strings.Contains(string(r.body), `"applied":1`) {
		t.Fatalf("apply: %d %s", r.status, r.body)
	}
	t.Cleanup(func() { tp.call("DELETE", base+"/connector/"+full, "carol", nil) })

	// It fails, is restarted twice (1 s, then 2 s after), then given up.
	deadline := time.Now().Add(30 * time.Second)
	var ar map[string]any
	for {
		ar = tp.connectorState(t, "carol", base+"/connector/"+full)["auto_restart"].(map[string]any)
		if ar["given_up"] == true || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if ar["enabled"] != true || ar["given_up"] != true || ar["attempts"] != 2.0 || ar["max_restarts"] != 2.0 || ar["next_restart_at"] != nil {
		t.Fatalf("auto_restart after 30 s: %v", ar)
	}
	hist := tp.call("GET", base+"/connector/"+full+"/restarts", "dave", nil)
	got := items(t, hist)
	if len(got) != 3 || got[0]["action"] != "connector.give-up" || !strings.Contains(got[2]["detail"].(string), "attempt 1 (of 2): task 0: org.apache.kafka.connect.errors.RetriableException") {
		t.Errorf("restarts: %s", hist.body)
	}
	first, _ := time.Parse(time.RFC3339, got[2]["at"].(string))
	second, _ := time.Parse(time.RFC3339, got[1]["at"].(string))
	if gap := second.Sub(first); gap < time.Second {
		t.Errorf("the second restart came %v after the first, before its doubled wait", gap)
	}
	web := tp.webClient(t)
	web.signIn("carol")
	page := web.get("/scada/dev/connector/" + full)
	if !strings.Contains(page.body, `id="restart-history"`) || !strings.Contains(page.body, "Given up") || !strings.Contains(page.body, `id="auto-restart-enabled"`) {
		t.Errorf("the connector page:\n%s", page.body)
	}
	trail := string(tp.call("GET", base+"/audit?actor=portal&resource="+full, "bob", nil).body)
	if !strings.Contains(trail, `"action":"connector.give-up"`) || strings.Count(trail, `"action":"connector.auto-restart"`) != 2 {
		t.Errorf("the trail of the portal's restarts: %s", trail)
	}

	// Her restart starts again; the page's form turns it off.
	if r := tp.call("POST", base+"/connector/"+full+"/restart", "carol", nil); r.status != http.StatusAccepted {
		t.Fatalf("restart: %d %s", r.status, r.body)
	}
	if ar := tp.connectorState(t, "carol", base+"/connector/"+full)["auto_restart"].(map[string]any); ar["given_up"] != false || ar["attempts"] != 0.0 {
		t.Errorf("after her restart: %v", ar)
	}
	if export := string(tp.call("POST", base+"/export", "carol", nil).body); !strings.Contains(export, `"maxRestarts": 2`) {
		t.Errorf("the export does not declare the switch: %s", export)
	}
	form := web.post("/scada/dev/connector/"+full+"/auto-restart", map[string][]string{"max_restarts": {"0"}})
	if form.status != http.StatusOK || !strings.Contains(form.body, "Auto-restart is off.") {
		t.Errorf("the form: %d %.500s", form.status, form.body)
	}
	if ar := tp.connectorState(t, "carol", base+"/connector/"+full)["auto_restart"].(map[string]any); ar["enabled"] != false {
		t.Errorf("after the form: %v", ar)
	}
}
