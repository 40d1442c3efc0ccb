package main

import (
	"bytes"
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
	providerOnce sync.Once
	providerDir  string
	providerErr  error
)

// providerPlugin builds terraform-provider-portal once per run and
// returns the directory that holds it (dev_overrides name a directory).
func providerPlugin(t testing.TB) string {
	t.Helper()
	providerOnce.Do(func() {
		providerDir, providerErr = os.MkdirTemp("", "rms-portal-provider-")
		if providerErr != nil {
			return
		}
		out, err := exec.Command("go", "build", "-o", filepath.Join(providerDir, "terraform-provider-portal"), "../terraform-provider-portal").CombinedOutput()
		if err != nil {
			providerErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if providerErr != nil {
		t.Fatal(providerErr)
	}
	return providerDir
}

// tfWork is a Terraform working directory whose provider is the built
// plugin, run by the CLI as a user would run it.
type tfWork struct {
	t   testing.TB
	cli string
	dir string
	env []string
}

// newTFWork writes main.tf and a CLI configuration that points Terraform
// at the built provider; token signs the provider in.
func newTFWork(t testing.TB, cli, url, token, mainTF string) *tfWork {
	t.Helper()
	dir := t.TempDir()
	rc := filepath.Join(dir, "cli.tfrc")
	plugin := providerPlugin(t)
	if err := os.WriteFile(rc, []byte(fmt.Sprintf("provider_installation {\n  dev_overrides {\n    %q = %q\n  }\n  direct {}\n}\n",
		"edh-platform/portal", plugin)), 0o600); err != nil {
		t.Fatal(err)
	}
	head := "terraform {\n  required_providers {\n    portal = { source = \"edh-platform/portal\" }\n  }\n}\n"
	if strings.Contains(mainTF, "required_providers") {
		head = ""
	}
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(head+mainTF), 0o600); err != nil {
		t.Fatal(err)
	}
	return &tfWork{t: t, cli: cli, dir: dir, env: append(os.Environ(), "TF_CLI_CONFIG_FILE="+rc, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1",
		"PORTAL_URL="+url, "PORTAL_TOKEN="+token, "PORTAL_BU=scada", "PORTAL_STAGE=dev")}
}

// run runs the CLI and returns its output and exit code.
func (w *tfWork) run(args ...string) (string, int) {
	w.t.Helper()
	cmd := exec.Command(w.cli, append(args, "-no-color")...)
	cmd.Dir, cmd.Env = w.dir, w.env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return out.String(), exit.ExitCode()
	case err != nil:
		w.t.Fatal(err)
	}
	return out.String(), 0
}

// must runs the CLI and fails the test unless it exits with code.
func (w *tfWork) must(code int, args ...string) string {
	w.t.Helper()
	out, got := w.run(args...)
	if got != code {
		w.t.Fatalf("terraform %s: exit %d, want %d\n%s", strings.Join(args, " "), got, code, out)
	}
	return out
}

// TestTerraformAppliesWhatItPlanned drives the built plugin with the CLI
// as a pipeline does (plan -out, then apply of the saved plan): a change
// made in the portal between the two is a diagnostic and nothing is
// written; planned again, the apply makes the change; destroy leaves
// nothing.
func TestTerraformAppliesWhatItPlanned(t *testing.T) {
	t.Parallel()
	tf := startTerraformPortal(t)
	sfx := suffix()
	topic := "/api/v1/scada/dev/topic/tf-saved-" + sfx
	config := func(retention string) string {
		return fmt.Sprintf("provider \"portal\" {}\nresource \"portal_topic\" \"t\" {\n  name = \"tf-saved-%s\"\n  partitions = 2\n  config = { \"retention.ms\" = %q }\n}\n", sfx, retention)
	}
	w := newTFWork(t, tf.cli, tf.url, tf.token("bob"), config("86400000"))
	w.must(0, "apply", "-auto-approve")
	t.Cleanup(func() {
		w.run("destroy", "-auto-approve")
		tf.call("DELETE", topic, "frank", nil)
	})
	if err := os.WriteFile(filepath.Join(w.dir, "main.tf"), []byte("terraform {\n  required_providers {\n    portal = { source = \"edh-platform/portal\" }\n  }\n}\n"+config("172800000")), 0o600); err != nil {
		t.Fatal(err)
	}
	w.must(2, "plan", "-out", "saved.plan", "-detailed-exitcode")
	// Someone changes the topic in the portal after the plan.
	tf.upstream("PATCH", topic, map[string]any{"config": map[string]any{"retention.ms": "3600000"}}, http.StatusOK)
	out := w.must(1, "apply", "saved.plan")
	if !said("The topic changed in the portal since this plan", "config.retention.ms 86400000 in the plan, 3600000 now", "nothing was written").MatchString(out) {
		t.Errorf("the stale apply's diagnostic:\n%s", out)
	}
	if got := tf.upstream("GET", topic, nil, http.StatusOK)["config"].(map[string]any)["retention.ms"]; got != "3600000" {
		t.Errorf("the stale apply wrote retention.ms %v", got)
	}
	// Planned again, the change is shown from what the portal holds, and
	// applied.
	if out := w.must(2, "plan", "-detailed-exitcode"); !strings.Contains(out, `"retention.ms" = "3600000" -> "172800000"`) {
		t.Errorf("the new plan:\n%s", out)
	}
	w.must(0, "apply", "-auto-approve")
	if got := tf.upstream("GET", topic, nil, http.StatusOK)["config"].(map[string]any)["retention.ms"]; got != "172800000" {
		t.Errorf("the apply left retention.ms %v", got)
	}
	w.must(0, "destroy", "-auto-approve")
	if r := tf.call("GET", topic, "frank", nil); r.status != http.StatusNotFound {
		t.Errorf("destroy left the topic: %d", r.status)
	}
}

// TestTerraformExample runs examples/terraform as its README says, with
// the CLI and the built plugin against the portal binary: apply, a plan
// that changes nothing, the grant approved and read active, destroy.
func TestTerraformExample(t *testing.T) {
	t.Parallel()
	tf := startTerraformPortal(t)
	example, err := os.ReadFile("../../examples/terraform/main.tf")
	if err != nil {
		t.Fatal(err)
	}
	w := newTFWork(t, tf.cli, tf.url, "", string(example))
	vars := []string{"-var", "portal_url=" + tf.url}
	t.Cleanup(func() { w.run(append([]string{"destroy", "-auto-approve"}, vars...)...) })
	out := w.must(0, append([]string{"apply", "-auto-approve"}, vars...)...)
	if !strings.Contains(out, `topic = "edh-shared-scada-dev-example-orders"`) || !said(`"scada" = "admin"`).MatchString(out) || !strings.Contains(out, ": requested") {
		t.Fatalf("the example's apply:\n%s", out)
	}
	w.must(0, append([]string{"plan", "-detailed-exitcode"}, vars...)...)
	for _, g := range tf.upstream("GET", "/api/v1/crm/dev/grants?side=given&state=requested", nil, http.StatusOK)["items"].([]any) {
		if g := g.(map[string]any); strings.Contains(g["reason"].(string), "Terraform example") {
			tf.upstream("POST", "/api/v1/crm/dev/grant/"+g["id"].(string)+"/approve", map[string]string{"comment": "ok"}, http.StatusOK)
		}
	}
	if out := w.must(0, append([]string{"apply", "-auto-approve", "-refresh-only"}, vars...)...); !strings.Contains(out, ": active") {
		t.Errorf("the approved grant:\n%s", out)
	}
	w.must(0, append([]string{"destroy", "-auto-approve"}, vars...)...)
	for _, p := range []string{"/api/v1/scada/dev/topic/example-orders", "/api/v1/scada/dev/connector/example-orders-gen"} {
		if r := tf.call("GET", p, "frank", nil); r.status != http.StatusNotFound {
			t.Errorf("destroy left %s: %d", p, r.status)
		}
	}
}

// BenchmarkTerraformPlan500Topics: terraform plan (refresh included) of
// a unit's 500 topics, through the built plugin and the CLI against the
// dev portal binary, and the portal requests one plan makes. The topics
// are imported once (import blocks) before the timer starts.
func BenchmarkTerraformPlan500Topics(b *testing.B) {
	cli := ""
	for _, p := range []string{os.Getenv("TF_ACC_TERRAFORM_PATH"), filepath.Join("..", "..", "build", "tools", "terraform")} {
		if abs, err := filepath.Abs(p); p != "" && err == nil {
			if _, err := os.Stat(abs); err == nil {
				cli = abs
				break
			}
		}
	}
	if cli == "" {
		b.Fatal("no terraform CLI: make terraform, or set TF_ACC_TERRAFORM_PATH")
	}
	dev := startProcess(b, "dev portal with 500 topics", []string{"dev", "--data", filepath.Join(b.TempDir(), "dev"), "--bulk-topics", "500"})
	tp := &testPortal{t: b, url: dev.url, tokens: &tokenCache{m: map[string]cachedToken{}}}
	// The bulk topics were made on the cluster behind the portal's back:
	// its list learns them at its next refresh.
	for deadline := time.Now().Add(60 * time.Second); ; {
		r := tp.call("GET", "/api/v1/scada/dev/topics?search=load-&page_size=1", "carol", nil)
		if n, _ := r.json(b)["total_size"].(float64); n == 500 {
			break
		}
		if time.Now().After(deadline) {
			b.Fatalf("the portal never listed the 500 topics: %s", r.body)
		}
		time.Sleep(200 * time.Millisecond)
	}
	var cfg strings.Builder
	cfg.WriteString("provider \"portal\" {}\n")
	for i := range 500 {
		fmt.Fprintf(&cfg, "resource \"portal_topic\" \"load_%05d\" {\n  name = \"load-%05d\"\n}\nimport {\n  to = portal_topic.load_%05d\n  id = \"scada/dev/load-%05d\"\n}\n", i, i, i, i)
	}
	w := newTFWork(b, cli, dev.url, tp.token("carol"), cfg.String())
	start := time.Now()
	if out := w.must(0, "apply", "-auto-approve"); !strings.Contains(out, "500 imported") {
		b.Fatalf("the import:\n%.2000s", out)
	}
	b.Logf("importing 500 topics: %s", time.Since(start).Round(time.Millisecond))
	requests := func() int { return strings.Count(dev.log.String(), "msg=request ") }
	b.ResetTimer()
	var asked int
	for range b.N {
		before := requests()
		w.must(0, "plan", "-detailed-exitcode")
		asked += requests() - before
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/plan")
	b.ReportMetric(float64(asked)/float64(b.N), "requests/plan")
	if per := asked / b.N; per > 20 {
		b.Errorf("a plan of 500 topics made %d requests: the refresh reads items, not lists", per)
	}
}
