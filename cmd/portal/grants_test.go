package main

import (
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestGrantJourney is the check for access across units, through
// the binary, its CLI and its pages: crm's Admin (alice, a Super Admin of
// the zone) asks scada for read on a scada topic for a crm account with
// portalctl; bad input changes nothing; dave and alice herself cannot
// approve; bob approves with portalctl and the role bindings exist
// upstream; the topic page says crm reads it, scada's export declares the
// grant; revoking from crm's side removes the bindings.
func TestGrantJourney(t *testing.T) {
	tp := sharedPortal(t)
	sfx := suffix()
	topic := "ledger-" + sfx
	full := "edh-shared-scada-run-" + topic
	if r := tp.call("POST", "/api/v1/scada/run/topic", "bob", map[string]any{"name": topic}); r.status != http.StatusCreated {
		t.Fatalf("bob's topic: %d %s", r.status, r.body)
	}
	defer tp.call("DELETE", "/api/v1/scada/run/topic/"+topic, "bob", nil)
	r := tp.call("POST", "/api/v1/crm/run/service-account", "alice", map[string]any{"name": "reports-" + sfx, "type": "metrics"})
	if r.status != http.StatusCreated {
		t.Fatalf("crm's account: %d %s", r.status, r.body)
	}
	acct := r.json(t)["id"].(string)
	defer tp.call("DELETE", "/api/v1/crm/run/service-account/"+acct, "alice", nil)
	bindings := func() string {
		t.Helper()
		r := tp.call("GET", "/api/v1/crm/run/service-account/"+acct, "alice", nil)
		if r.status != http.StatusOK {
			t.Fatalf("the account: %d %s", r.status, r.body)
		}
		return string(r.body)
	}
	before := bindings()

	// Bad input: clear errors, nothing asked.
	ask := map[string]any{"owner": "plant", "topic": topic, "access": "read", "principal": acct, "reason": "reports"}
	wantError(t, tp.call("POST", "/api/v1/crm/run/grants", "alice", ask), http.StatusBadRequest, "INVALID_PARAMETER:owner")
	ask["owner"], ask["topic"] = "scada", "mfg-shared-plant-run-parts"
	wantError(t, tp.call("POST", "/api/v1/crm/run/grants", "alice", ask), http.StatusBadRequest, "INVALID_PARAMETER:topic")
	wantError(t, tp.call("POST", "/api/v1/crm/run/grants", "carol", ask), http.StatusForbidden, "INSUFFICIENT_ROLE")
	if r := tp.call("GET", "/api/v1/crm/run/grants", "alice", nil); r.status != http.StatusOK || strings.Contains(string(r.body), acct) {
		t.Fatalf("a refused request was kept: %s", r.body)
	}

	// alice asks with portalctl, signed in as a person.
	dir := t.TempDir()
	person := func(user string) ctl {
		return ctl{t: t, bin: portalctlBinary(t), env: []string{"PORTALCTL_SERVER=" + tp.url, "PORTALCTL_STAGE=run", "PORTALCTL_CLIENT_ID=",
			"PORTALCTL_CLIENT_SECRET=", "PORTALCTL_CONFIG_DIR=" + filepath.Join(dir, user)}}
	}
	aliceCtl, bobCtl := person("alice"), person("bob")
	signInAs(t, aliceCtl, "alice")
	signInAs(t, bobCtl, "bob")
	code, out := aliceCtl.run("grant", "request", "--bu", "crm", "--owner", "scada", "--topic", topic, "--access", "read", "--principal", acct,
		"--reason", "monthly reports")
	id := regexp.MustCompile(`gr-[a-z0-9_-]+`).FindString(out)
	if code != 0 || id == "" || !strings.Contains(out, "requested") {
		t.Fatalf("portalctl grant request: exit %d\n%s", code, out)
	}
	if r := tp.call("GET", "/api/v1/scada/run/grants?side=given&state=requested", "dave", nil); !strings.Contains(string(r.body), id) {
		t.Errorf("scada does not list the request: %s", r.body)
	}
	wantError(t, tp.call("POST", "/api/v1/scada/run/grant/"+id+"/approve", "dave", nil), http.StatusForbidden, "INSUFFICIENT_ROLE")
	wantError(t, tp.call("POST", "/api/v1/scada/run/grant/"+id+"/approve", "alice", nil), http.StatusForbidden, "INSUFFICIENT_ROLE")
	if got := bindings(); got != before {
		t.Fatalf("refused approvals made bindings: %s", got)
	}
	web := tp.webClient(t)
	web.signIn("bob")
	if home := web.get("/"); !strings.Contains(home.body, id) {
		t.Errorf("bob's home does not show the request waiting for him")
	}
	if code, out := bobCtl.run("grant", "approve", id, "--bu", "scada", "--comment", "fine"); code != 0 || !strings.Contains(out, "active") {
		t.Fatalf("portalctl grant approve: exit %d\n%s", code, out)
	}
	got := bindings()
	for _, want := range []string{`"role":"DeveloperRead","resource":"topic","pattern":"` + full + `"`, `"role":"DeveloperRead","resource":"group","pattern":"edh-shared-crm-run-*"`} {
		if !strings.Contains(got, want) {
			t.Errorf("after the approval the account lacks %s: %s", want, got)
		}
	}
	// Who else reads the topic: on its page, and in scada's export.
	dweb := tp.webClient(t)
	dweb.signIn("dave")
	if page := dweb.get("/scada/run/topic/" + full); !strings.Contains(page.body, `id="topic-grants"`) || !strings.Contains(page.body, "reports-"+sfx) {
		t.Errorf("the topic page does not say crm reads it: %.400s", page.body)
	}
	if r := tp.call("POST", "/api/v1/scada/run/export", "dave", nil); !strings.Contains(string(r.body), `"kind": "Grant"`) || !strings.Contains(string(r.body), `"businessUnit": "crm"`) {
		t.Errorf("scada's export does not declare the grant: %s", r.body)
	}
	if trail := tp.call("GET", "/api/v1/scada/run/audit?action=grant.approve", "bob", nil); !strings.Contains(string(trail.body), id) || !strings.Contains(string(trail.body), `"outcome":"ok"`) {
		t.Errorf("the approval's audit event: %s", trail.body)
	}
	if code, out := aliceCtl.run("grant", "list", "--bu", "crm", "--side", "received"); code != 0 || !strings.Contains(out, id) || !strings.Contains(out, "active") {
		t.Errorf("portalctl grant list: exit %d\n%s", code, out)
	}
	// crm gives it up: the bindings go.
	if code, out := aliceCtl.run("grant", "revoke", id, "--bu", "crm"); code != 0 || !strings.Contains(out, "revoked") {
		t.Fatalf("portalctl grant revoke: exit %d\n%s", code, out)
	}
	if got := bindings(); got != before {
		t.Errorf("after revoking: %s\nwant %s", got, before)
	}
	if code, out := aliceCtl.run("grant", "revoke", id, "--bu", "crm"); code != 1 || !strings.Contains(out, "CONFLICT") {
		t.Errorf("revoking twice: exit %d\n%s", code, out)
	}
}

// TestChangeRequestsFromTheCLI: carol files a change request with
// portalctl, bob lists it, sees its diff and approves it with portalctl;
// carol withdraws a second one.
func TestChangeRequestsFromTheCLI(t *testing.T) {
	tp := sharedPortal(t)
	sfx := suffix()
	name := "cli-" + sfx
	if r := tp.call("POST", "/api/v1/scada/run/topic", "bob", map[string]any{"name": name, "partitions_count": 2}); r.status != http.StatusCreated {
		t.Fatalf("bob's topic: %d %s", r.status, r.body)
	}
	defer tp.call("DELETE", "/api/v1/scada/run/topic/"+name, "bob", nil)
	dir := t.TempDir()
	doc := filepath.Join(dir, "doc.yaml")
	write := func(partitions string) {
		y := "apiVersion: portal/v1\nkind: Topic\nmetadata: {name: " + name + "}\nspec: {partitions: " + partitions + "}\n"
		if err := os.WriteFile(doc, []byte(y), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	person := func(user string) ctl {
		c := ctl{t: t, bin: portalctlBinary(t), env: []string{"PORTALCTL_SERVER=" + tp.url, "PORTALCTL_BU=scada", "PORTALCTL_STAGE=run", "PORTALCTL_CLIENT_ID=",
			"PORTALCTL_CLIENT_SECRET=", "PORTALCTL_CONFIG_DIR=" + filepath.Join(dir, user)}}
		signInAs(t, c, user)
		return c
	}
	carol, bob := person("carol"), person("bob")
	write("4")
	code, out := carol.run("request", "-f", doc, "--reason", "more consumers")
	id := regexp.MustCompile(`cr-[a-z0-9_-]+`).FindString(out)
	if code != 0 || id == "" {
		t.Fatalf("portalctl request: exit %d\n%s", code, out)
	}
	if code, out := bob.run("request", "list", "--state", "open"); code != 0 || !strings.Contains(out, id) || !strings.Contains(out, "more consumers") {
		t.Errorf("portalctl request list: exit %d\n%s", code, out)
	}
	if code, out := bob.run("request", "show", id); code != 0 || !strings.Contains(out, "partitions") || !strings.Contains(out, "4") {
		t.Errorf("portalctl request show: exit %d\n%s", code, out)
	}
	if code, out := carol.run("request", "approve", id); code != 1 || !strings.Contains(out, "INSUFFICIENT_ROLE") {
		t.Errorf("carol approves her own: exit %d\n%s", code, out)
	}
	if code, out := bob.run("request", "approve", id, "--comment", "ok"); code != 0 || !strings.Contains(out, "applied") {
		t.Fatalf("portalctl request approve: exit %d\n%s", code, out)
	}
	if got := tp.call("GET", "/api/v1/scada/run/topic/"+name, "carol", nil).json(t)["partitions_count"]; got != float64(4) {
		t.Errorf("after the approval the topic has %v partitions", got)
	}
	write("6")
	_, out = carol.run("request", "-f", doc, "--reason", "even more")
	second := regexp.MustCompile(`cr-[a-z0-9_-]+`).FindString(out)
	if code, out := carol.run("request", "withdraw", second); code != 0 || !strings.Contains(out, "withdrawn") {
		t.Errorf("portalctl request withdraw: exit %d\n%s", code, out)
	}
}
