package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	ctlOnce sync.Once
	ctlPath string
	ctlErr  error
)

// portalctlBinary builds the command-line client once per test run.
func portalctlBinary(t *testing.T) string {
	t.Helper()
	ctlOnce.Do(func() {
		dir, err := os.MkdirTemp("", "portalctl-bin-")
		if err != nil {
			ctlErr = err
			return
		}
		ctlPath = filepath.Join(dir, "portalctl")
		if out, err := exec.Command("go", "build", "-o", ctlPath, "../portalctl").CombinedOutput(); err != nil {
			ctlErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if ctlErr != nil {
		t.Fatal(ctlErr)
	}
	return ctlPath
}

// ctl runs portalctl with env and returns its exit code and output.
type ctl struct {
	t   *testing.T
	bin string
	env []string
}

func (c ctl) run(args ...string) (int, string) {
	c.t.Helper()
	cmd := exec.Command(c.bin, args...)
	cmd.Env = append(os.Environ(), c.env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return exit.ExitCode(), out.String()
	case err != nil:
		c.t.Fatal(err)
	}
	return 0, out.String()
}

// TestPortalctlJourney: the pipeline client scada-ci plans the GitOps
// example in scada/dev, applies it, plans it again (unchanged, exit 0),
// edits a retention (exactly that diff, exit 2), is refused in run, and
// promotes dev to qas; a person signs in with PKCE through the loopback.
func TestPortalctlJourney(t *testing.T) {
	t.Parallel()
	tp := startPortal(t, nil)
	dir := t.TempDir()
	doc := filepath.Join(dir, "scada-dev.yaml")
	copyFile(t, "../../examples/gitops/scada-dev.yaml", doc)
	copyFile(t, "../../examples/gitops/schemas/order.avsc", filepath.Join(dir, "schemas", "order.avsc"))
	c := ctl{t: t, bin: portalctlBinary(t), env: []string{"PORTALCTL_SERVER=" + tp.url, "PORTALCTL_BU=scada",
		"PORTALCTL_CLIENT_ID=scada-ci", "PORTALCTL_CLIENT_SECRET=scada-ci-secret", "PORTALCTL_CONFIG_DIR=" + filepath.Join(dir, "config")}}

	code, out := c.run("plan", "-s", "dev", "-f", dir) // a directory: its .yaml files
	if code != 0 || !strings.Contains(out, "4 to create, 0 to update, 0 to delete, 0 unchanged, 0 refused") ||
		!strings.Contains(out, "+ topic edh-shared-scada-dev-gitops-orders") {
		t.Fatalf("plan: exit %d\n%s", code, out)
	}
	if code, out = c.run("apply", "-s", "dev", "-f", doc, "--yes"); code != 0 || !strings.Contains(out, "4 applied, 0 failed, 0 skipped") {
		t.Fatalf("apply: exit %d\n%s", code, out)
	}
	if code, out = c.run("plan", "-s", "dev", "-f", doc, "--detailed-exitcode"); code != 0 || !strings.Contains(out, "4 unchanged") {
		t.Errorf("second plan: exit %d\n%s", code, out)
	}

	edited, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(doc, bytes.Replace(edited, []byte(`"604800000"`), []byte(`"86400000"`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out = c.run("plan", "-s", "dev", "-f", doc, "--detailed-exitcode")
	if code != 2 || !strings.Contains(out, "config.retention.ms: 604800000 -> 86400000") || !strings.Contains(out, "0 to create, 1 to update") ||
		strings.Count(out, " -> ") != 1 {
		t.Errorf("edited plan: exit %d\n%s", code, out)
	}

	code, out = c.run("plan", "-s", "run", "-f", doc)
	if code != 1 || strings.Count(out, "READ_ONLY_ENVIRONMENT") != 4 || !strings.Contains(out, "4 refused") {
		t.Errorf("plan in run: exit %d\n%s", code, out)
	}
	// What run needs instead: a change request, reviewed by an Admin.
	if code, out = c.run("request", "-s", "run", "-f", doc, "--reason", "promote the order pipeline"); code != 0 ||
		!strings.Contains(out, "4 to create") || !strings.Contains(out, "is open: an Admin of scada reviews it") {
		t.Errorf("request in run: exit %d\n%s", code, out)
	}
	if code, out = c.run("request", "-s", "run", "-f", doc); code == 0 || !strings.Contains(out, "--reason") {
		t.Errorf("a request without a reason: exit %d\n%s", code, out)
	}
	// The promotion includes dev's demo data: the pipeline may not create
	// its account and pool (skipped, with why), and no variable holds the
	// demo connector's secrets, so the plan has a refusal (exit 1) beside
	// the creates.
	code, out = c.run("promote", "--from", "dev", "--to", "qas", "--plan-only", "--detailed-exitcode")
	if code != 1 || !strings.Contains(out, "Warning: $SCADA_PUMP_DATAGEN_KAFKA_API_SECRET is not set") || !strings.Contains(out, "+ topic edh-shared-scada-qas-gitops-orders") || !strings.Contains(out, "+ connector edh-shared-scada-qas-gitops-orders-datagen-connector") ||
		!strings.Contains(out, "/ service-account sa-edh-shared-scada-qas-usr-demo-app-producer (skipped create: not yours to change)") || !strings.Contains(out, "INSUFFICIENT_ROLE") {
		t.Errorf("promotion plan: exit %d\n%s", code, out)
	}
	// Without the connector, the rest applies; the account and pool stay
	// skipped and say so.
	code, out = c.run("promote", "--from", "dev", "--to", "qas", "--kind", "Topic,Schema,ServiceAccount,IdentityPool", "--yes")
	if code != 0 || !strings.Contains(out, "2 skipped as not yours to change") || strings.Contains(out, "connector") || !strings.Contains(out, "0 failed") {
		t.Errorf("promotion without connectors: exit %d\n%s", code, out)
	}
	if code, out = c.run("get", "topics", "-s", "qas"); code != 0 || !strings.Contains(out, "edh-shared-scada-qas-gitops-orders") {
		t.Errorf("the promoted topics: exit %d\n%s", code, out)
	}
	if code, out = c.run("plan", "-s", "qas", "-f", doc, "--kind", "nonsense"); code != 1 || !strings.Contains(out, `--kind "nonsense"`) {
		t.Errorf("an unknown kind: exit %d\n%s", code, out)
	}
	if code, out = c.run("get", "topics", "-s", "dev"); code != 0 || !strings.Contains(out, "edh-shared-scada-dev-gitops-shipments  2") {
		t.Errorf("get topics: exit %d\n%s", code, out)
	}
	if code, out = c.run("get", "topic", "nope", "-s", "dev"); code != 1 || !strings.Contains(out, "Error: 404") || !strings.Contains(out, "NOT_FOUND") {
		t.Errorf("get a missing topic: exit %d\n%s", code, out)
	}

	resp, err := http.Get(tp.url + "/api-docs/schemas/topic.json")
	if err != nil || resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/schema+json" {
		t.Errorf("JSON Schema: %v %v", resp, err)
	}
	if resp != nil {
		resp.Body.Close()
	}

	// A person signs in: Authorization Code with PKCE through a loopback
	// redirect; login_hint picks the dev provider's user.
	person := ctl{t: t, bin: c.bin, env: []string{"PORTALCTL_SERVER=" + tp.url, "PORTALCTL_BU=scada", "PORTALCTL_CLIENT_ID=", "PORTALCTL_CLIENT_SECRET=",
		"PORTALCTL_CONFIG_DIR=" + filepath.Join(dir, "person")}}
	if code, out = person.run("get", "topics", "-s", "dev"); code != 1 || !strings.Contains(out, "not signed in") {
		t.Errorf("before login: exit %d\n%s", code, out)
	}
	signInAs(t, person, "carol")
	info, err := os.Stat(filepath.Join(dir, "person", "credentials.json"))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("credentials file: %v %v", info, err)
	}
	if code, out = person.run("get", "topics", "-s", "dev", "-o", "json"); code != 0 || !strings.Contains(out, "edh-shared-scada-dev-gitops-orders") {
		t.Errorf("carol's get after login: exit %d\n%s", code, out)
	}

	// An expired access token is renewed with the refresh token, and the
	// renewed one is kept.
	credPath := filepath.Join(dir, "person", "credentials.json")
	var creds map[string]map[string]any
	raw, err := os.ReadFile(credPath)
	if err != nil || json.Unmarshal(raw, &creds) != nil {
		t.Fatalf("credentials: %v %s", err, raw)
	}
	tok := creds[tp.url]["token"].(map[string]any)
	if tok["refresh_token"] == nil || tok["refresh_token"] == "" {
		t.Fatalf("no refresh token kept: %v", tok)
	}
	old := tok["access_token"]
	tok["expiry"] = time.Now().Add(-time.Hour).Format(time.RFC3339)
	raw, _ = json.Marshal(creds)
	if err := os.WriteFile(credPath, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	if code, out = person.run("get", "topics", "-s", "dev"); code != 0 {
		t.Errorf("get with an expired token: exit %d\n%s", code, out)
	}
	raw, _ = os.ReadFile(credPath)
	_ = json.Unmarshal(raw, &creds)
	if creds[tp.url]["token"].(map[string]any)["access_token"] == old {
		t.Error("the renewed token was not kept")
	}
	if code, out = person.run("apply", "-s", "run", "-f", doc, "--yes"); code != 1 || !strings.Contains(out, "READ_ONLY_ENVIRONMENT") {
		t.Errorf("carol applies in run: exit %d\n%s", code, out)
	}
}

// signInAs signs a person in with portalctl login: Authorization Code
// with PKCE through its loopback redirect, login_hint picking the dev
// provider's user.
func signInAs(t *testing.T, c ctl, user string) {
	t.Helper()
	login := exec.Command(c.bin, "login", "--no-browser", "--login-hint", user)
	login.Env = append(os.Environ(), c.env...)
	stderr, err := login.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := login.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = login.Process.Kill() })
	lines := bufio.NewScanner(stderr)
	var authURL string
	for lines.Scan() {
		if strings.HasPrefix(lines.Text(), "http") {
			authURL = lines.Text()
			break
		}
	}
	if !strings.Contains(authURL, "code_challenge_method=S256") {
		t.Fatalf("sign-in address %q", authURL)
	}
	cb, err := (&http.Client{Timeout: 30 * time.Second}).Get(authURL) // follows the provider's redirects to the loopback
	if err != nil {
		t.Fatal(err)
	}
	cb.Body.Close()
	go func() {
		for lines.Scan() {
		}
	}()
	if err := login.Wait(); err != nil {
		t.Fatalf("login: %v", err)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestPortalctlAPIKeys: bob, signed in, creates a key for the seeded
// account and reads its secret once on the standard output, creates
// another into a file only he may read, lists the unit's keys, and
// rotates one into an env file; the pipeline (a Developer) is refused
// with the error record.
func TestPortalctlAPIKeys(t *testing.T) {
	t.Parallel()
	tp := startPortal(t, nil)
	dir := t.TempDir()
	bob := ctl{t: t, bin: portalctlBinary(t), env: []string{"PORTALCTL_SERVER=" + tp.url, "PORTALCTL_BU=scada", "PORTALCTL_STAGE=qas",
		"PORTALCTL_CLIENT_ID=", "PORTALCTL_CLIENT_SECRET=", "PORTALCTL_CONFIG_DIR=" + filepath.Join(dir, "bob")}}
	signInAs(t, bob, "bob")
	r := tp.call("POST", "/api/v1/scada/qas/service-account", "bob", map[string]string{"name": "ctl", "type": "consumer"})
	if r.status != http.StatusCreated {
		t.Fatalf("account: %d %s", r.status, r.body)
	}
	account := r.json(t)["id"].(string)

	code, out := bob.run("create", "api-key", account, "--description", "from the terminal", "--expires", "7d")
	if code != 0 || !strings.Contains(out, "Secret: ") || !strings.Contains(out, "only time the secret is shown") || !strings.Contains(out, "sasl.jaas.config=") ||
		!strings.Contains(out, "Not usable yet") {
		t.Fatalf("create api-key: exit %d\n%s", code, out)
	}
	first := strings.Fields(out)[2]

	secretFile := filepath.Join(dir, "app.properties")
	if err := os.WriteFile(secretFile, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out = bob.run("create", "api-key", account, "--resource", "schema-registry", "--output-file", secretFile)
	if code != 0 || strings.Contains(out, "Secret:") || !strings.Contains(out, "mode 0600") {
		t.Fatalf("create api-key into a file: exit %d\n%s", code, out)
	}
	info, err := os.Stat(secretFile)
	content, _ := os.ReadFile(secretFile)
	if err != nil || info.Mode().Perm() != 0o600 || !strings.Contains(string(content), "basic.auth.user.info=") {
		t.Errorf("the secret file: %v %v\n%s", info, err, content)
	}

	code, out = bob.run("get", "api-keys")
	if code != 0 || !strings.Contains(out, first) || !strings.Contains(out, "sa-edh-shared-scada-qas-usr-ctl-consumer") ||
		!strings.Contains(out, "schema-registry") || strings.Contains(out, "Secret") || !strings.Contains(out, "STATE") {
		t.Errorf("get api-keys: exit %d\n%s", code, out)
	}
	envFile := filepath.Join(dir, "rotated.env")
	code, out = bob.run("rotate", "api-key", first, "--overlap", "1h", "--output-file", envFile)
	content, _ = os.ReadFile(envFile)
	if code != 0 || !strings.Contains(string(content), "KAFKA_SASL_PASSWORD=") {
		t.Errorf("rotate api-key: exit %d\n%s\n%s", code, out, content)
	}
	code, out = bob.run("get", "api-key", first, "-o", "json")
	if code != 0 || !strings.Contains(out, `"replaced_by"`) {
		t.Errorf("get the rotated key: exit %d\n%s", code, out)
	}
	code, out = bob.run("create", "api-key", account, "--expires", "yesterday")
	if code != 1 || !strings.Contains(out, "--expires") {
		t.Errorf("a bad expiry: exit %d\n%s", code, out)
	}

	// A document may declare that an account has a key: the plan says so,
	// and the apply writes the secret for its caller only.
	doc := filepath.Join(dir, "keyed.yaml")
	if err := os.WriteFile(doc, []byte("apiVersion: portal/v1\nkind: ServiceAccount\nmetadata: {name: declared}\nspec:\n  type: consumer\n  apiKeys: [{resource: kafka}]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out = bob.run("plan", "-f", doc)
	if code != 0 || !strings.Contains(out, "apiKeys.kafka: create key: the secret will be shown once at apply") {
		t.Errorf("plan a declared key: exit %d\n%s", code, out)
	}
	creds := filepath.Join(dir, "creds")
	code, out = bob.run("apply", "-f", doc, "--yes", "--credentials-dir", creds)
	files, _ := filepath.Glob(filepath.Join(creds, "*.properties"))
	if code != 0 || len(files) != 1 || strings.Contains(out, "Secret:") {
		t.Fatalf("apply a declared key: exit %d %v\n%s", code, files, out)
	}
	if info, err := os.Stat(files[0]); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("the key's file: %v %v", info, err)
	}
	if code, out = bob.run("plan", "-f", doc); code != 0 || !strings.Contains(out, "1 unchanged") {
		t.Errorf("plan again: exit %d\n%s", code, out)
	}

	pipeline := ctl{t: t, bin: bob.bin, env: []string{"PORTALCTL_SERVER=" + tp.url, "PORTALCTL_BU=scada", "PORTALCTL_STAGE=qas",
		"PORTALCTL_CLIENT_ID=scada-ci", "PORTALCTL_CLIENT_SECRET=scada-ci-secret", "PORTALCTL_CONFIG_DIR=" + filepath.Join(dir, "ci")}}
	code, out = pipeline.run("create", "api-key", account)
	if code != 1 || !strings.Contains(out, "Error: 403") || !strings.Contains(out, "INSUFFICIENT_ROLE") {
		t.Errorf("a developer creates a key: exit %d\n%s", code, out)
	}
}
