package main

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/config"
)

// TestAlertJourney: in scada/dev a Developer saves a lag rule for a group
// of her own and adds a Slack channel and an Alertmanager channel; the
// group falls behind on a kfake topic and the receivers get the fired
// alert (well within a minute of the threshold), then the resolved one
// after it catches up; the alerts page and portalctl show it.
func TestAlertJourney(t *testing.T) {
	t.Parallel()
	tp := startPortal(t, func(c *config.Config) { c.Alerts.Every = 300 * time.Millisecond })
	var mu sync.Mutex
	got := map[string][]string{}
	receiver := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		got[r.URL.Path] = append(got[r.URL.Path], string(body))
		mu.Unlock()
	}))
	defer receiver.Close()
	base := "/api/v1/scada/dev"
	sfx := strings.ToLower(rand.Text()[:6])
	topic, group := "alerting-"+sfx, "edh-shared-scada-dev-alerting-"+sfx
	full := "edh-shared-scada-dev-" + topic
	if r := tp.call("POST", base+"/topic", "carol", map[string]any{"name": topic, "partitions_count": 1}); r.status != http.StatusCreated {
		t.Fatalf("topic: %d %s", r.status, r.body)
	}
	tp.removeAfter(base + "/topic/" + full)
	rule := "lag-" + sfx
	if r := tp.call("PUT", base+"/alert-rule/"+rule, "carol", map[string]any{"kind": "lag_time", "target": "alerting-" + sfx, "threshold": 2,
		"for_seconds": 1}); r.status != http.StatusOK {
		t.Fatalf("rule: %d %s", r.status, r.body)
	}
	t.Cleanup(func() { tp.call("DELETE", base+"/alert-rule/"+rule, "carol", nil) })
	for _, ch := range []map[string]string{{"format": "slack", "url": receiver.URL + "/slack"}, {"format": "alertmanager", "url": receiver.URL + "/am"}} {
		r := tp.call("POST", base+"/alert-channel", "carol", ch)
		if r.status != http.StatusCreated {
			t.Fatalf("channel: %d %s", r.status, r.body)
		}
		id, _ := r.json(t)["id"].(string)
		t.Cleanup(func() { tp.call("DELETE", base+"/alert-channel/"+id, "carol", nil) })
	}
	if r := tp.call("POST", base+"/alert-channel", "carol", map[string]string{"format": "slack", "url": "https://169.254.169.254/latest"}); r.status != http.StatusBadRequest {
		t.Errorf("a channel to the metadata address: %d %s", r.status, r.body)
	}

	cl := tp.app.dev.platform.Clusters["edh-shared/dev"]
	ctx := context.Background()
	if err := cl.Commit(ctx, group, full, map[int32]int64{0: 0}); err != nil {
		t.Fatal(err)
	}
	waitFor := func(what string, d time.Duration, ok func() bool) {
		t.Helper()
		deadline := time.Now().Add(d)
		for !ok() {
			if time.Now().After(deadline) {
				mu.Lock()
				defer mu.Unlock()
				t.Fatalf("%s: not within %v; received %v", what, d, got)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	received := func(path, text string) func() bool {
		return func() bool {
			mu.Lock()
			defer mu.Unlock()
			return strings.Contains(strings.Join(got[path], "\n"), text)
		}
	}
	if err := cl.Produce(ctx, full, 20); err != nil {
		t.Fatal(err)
	}
	behind := time.Now()
	waitFor("the fired alert", 30*time.Second, received("/slack", "FIRING scada/dev: "+rule))
	if took := time.Since(behind); took > time.Minute {
		t.Errorf("fired %v after the group fell behind", took)
	}
	waitFor("the fired alert in Alertmanager", 10*time.Second, received("/am", `"alertname":"`+rule+`"`))

	page := tp.call("GET", base+"/alerts", "dave", nil)
	if !strings.Contains(string(page.body), `"state":"firing"`) || !strings.Contains(string(page.body), group) {
		t.Errorf("alerts: %s", page.body)
	}
	web := tp.webClient(t)
	web.signIn("dave")
	if home := web.get("/"); !strings.Contains(home.body, `id="firing-alerts"`) || !strings.Contains(home.body, rule) {
		t.Errorf("the home page does not show the firing alert")
	}
	if p := web.get("/scada/dev/alerts"); !strings.Contains(p.body, `data-alert="firing"`) || !strings.Contains(p.body, `data-rule="`+rule+`"`) {
		t.Errorf("the alerts page:\n%.2000s", p.body)
	}
	dir := t.TempDir()
	c := ctl{t: t, bin: portalctlBinary(t), env: []string{"PORTALCTL_SERVER=" + tp.url, "PORTALCTL_BU=scada", "PORTALCTL_STAGE=dev",
		"PORTALCTL_CLIENT_ID=", "PORTALCTL_CLIENT_SECRET=", "PORTALCTL_CONFIG_DIR=" + filepath.Join(dir, "carol")}}
	signInAs(t, c, "carol")
	if code, out := c.run("get", "alerts"); code != 0 || !strings.Contains(out, rule) || !strings.Contains(out, "firing") {
		t.Errorf("portalctl get alerts: %d\n%s", code, out)
	}

	// It catches up: resolved.
	if err := cl.Commit(ctx, group, full, map[int32]int64{0: 20}); err != nil {
		t.Fatal(err)
	}
	waitFor("the resolved alert", 30*time.Second, received("/slack", "RESOLVED scada/dev: "+rule))
	waitFor("the resolved alert in Alertmanager", 10*time.Second, func() bool {
		mu.Lock()
		defer mu.Unlock()
		for _, b := range got["/am"] {
			var alerts []map[string]any
			if json.Unmarshal([]byte(b), &alerts) == nil && len(alerts) == 1 && alerts[0]["endsAt"] != nil {
				return true
			}
		}
		return false
	})
	mu.Lock()
	fired := strings.Count(strings.Join(got["/slack"], "\n"), "FIRING")
	mu.Unlock()
	if fired != 1 {
		t.Errorf("told %d times that it fired", fired)
	}
}

// TestAlertsPageForms: the alerts page's forms without JavaScript: a bad
// threshold is said on the page and saves nothing; a rule saved and
// silenced shows so; a CloudEvents channel's secret is shown on the page
// the form leads to, once (a reload or Back finds none); a channel is
// removed.
func TestAlertsPageForms(t *testing.T) {
	tp := sharedPortal(t)
	sfx := strings.ToLower(rand.Text()[:6])
	rule := "growth-" + sfx
	t.Cleanup(func() { tp.call("DELETE", "/api/v1/scada/qas/alert-rule/"+rule, "carol", nil) })
	web := tp.webClient(t)
	web.signIn("carol")
	web.get("/scada/qas/alerts")
	bad := web.post("/scada/qas/alerts/rules", map[string][]string{"name": {rule}, "kind": {"topic_growth"}, "threshold": {"-3"}, "for_seconds": {"60"},
		"enabled": {"true"}})
	if bad.status != http.StatusUnprocessableEntity || !strings.Contains(bad.body, `id="form-error"`) || !strings.Contains(bad.body, "threshold") {
		t.Errorf("a bad threshold: %d %.600s", bad.status, bad.body)
	}
	if strings.Contains(string(tp.call("GET", "/api/v1/scada/qas/alert-rules", "carol", nil).body), rule) {
		t.Fatal("the refused rule was saved")
	}
	saved := web.post("/scada/qas/alerts/rules", map[string][]string{"name": {rule}, "kind": {"topic_growth"}, "threshold": {"50"}, "for_seconds": {"60"},
		"enabled": {"true"}})
	if saved.status != http.StatusOK || !strings.Contains(saved.body, `data-rule="`+rule+`"`) {
		t.Fatalf("saved: %d %.600s", saved.status, saved.body)
	}
	silenced := web.post("/scada/qas/alerts/rule/"+rule+"/silence", map[string][]string{"hours": {"2"}, "reason": {"load test tonight"}})
	if !strings.Contains(silenced.body, "load test tonight") || !strings.Contains(silenced.body, "data-end-silence") || strings.Contains(silenced.body, "0 h: end") {
		t.Errorf("silenced: %d %.600s", silenced.status, silenced.body)
	}
	if ended := web.post("/scada/qas/alerts/rule/"+rule+"/silence", map[string][]string{"hours": {"0"}}); strings.Contains(ended.body, "load test tonight") ||
		strings.Contains(ended.body, "data-end-silence") {
		t.Errorf("ending the silence: %d %.600s", ended.status, ended.body)
	}
	// Dev mode takes a receiver on this host, over http.
	made := web.post("/scada/qas/alerts/channels", map[string][]string{"format": {"cloudevents"}, "url": {tp.url + "/receiver-" + sfx}})
	secret := regexp.MustCompile(`whsec_[A-Za-z0-9+/=]+`).FindString(made.body)
	if made.status != http.StatusOK || secret == "" || !strings.Contains(made.url, "?created=") {
		t.Fatalf("channel: %d %s %.600s", made.status, made.url, made.body)
	}
	if again := web.get(strings.TrimPrefix(made.url, tp.url)); strings.Contains(again.body, secret) || strings.Contains(again.body, `id="channel-secret"`) {
		t.Error("the channel's secret is shown again")
	}
	id := regexp.MustCompile(`data-channel="([^"]+)"`).FindStringSubmatch(made.body)
	if id == nil {
		t.Fatalf("no channel listed: %.600s", made.body)
	}
	t.Cleanup(func() { tp.call("DELETE", "/api/v1/scada/qas/alert-channel/"+id[1], "carol", nil) })
	if gone := web.post("/scada/qas/alerts/channel/"+id[1]+"/delete", map[string][]string{}); strings.Contains(gone.body, `data-channel="`+id[1]+`"`) {
		t.Errorf("the channel is still listed after its removal")
	}
}
