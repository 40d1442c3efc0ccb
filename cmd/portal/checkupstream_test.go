package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckUpstreamNamesTheMissingRole: check-upstream, run against a dev
// platform whose Cloud API key lacks MetricsViewer, tries every operation
// read-only, fails, and says which operation lacks which role; against one
// whose key holds every role, every check passes. It needs no database.
func TestCheckUpstreamNamesTheMissingRole(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts two dev platforms")
	}
	for _, c := range []struct {
		name, roles string
		ok          bool
	}{
		{"a key without MetricsViewer", "AccountAdmin,CloudClusterAdmin", false},
		{"a key with every role", "", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			serveConfig := filepath.Join(dir, "serve.yaml")
			env := []string{}
			if c.roles != "" {
				env = append(env, "RMS_DEV_CLOUD_ROLES="+c.roles)
			}
			startProcess(t, "dev platform", []string{"dev", "--write-serve-config", serveConfig, "--data", filepath.Join(dir, "dev")}, env...)
			cmd := exec.Command(portalBinary(t), "check-upstream", "--config", serveConfig)
			cmd.Env = append(os.Environ(), "DATABASE_URL=")
			out, err := cmd.CombinedOutput()
			text := string(out)
			if c.ok {
				if err != nil || !strings.Contains(text, "checks passed") || strings.Contains(text, "FAIL") {
					t.Fatalf("every role held: %v\n%s", err, text)
				}
				return
			}
			if err == nil {
				t.Fatalf("check-upstream passed with a key lacking a role:\n%s", text)
			}
			var failed []string
			for _, line := range strings.Split(text, "\n") {
				if strings.HasPrefix(line, "FAIL") {
					failed = append(failed, line)
				}
			}
			if len(failed) != 1 || !strings.Contains(failed[0], "Metrics API") || !strings.Contains(failed[0], "MetricsViewer") {
				t.Errorf("want one failure, the Metrics API's, naming MetricsViewer:\n%s", text)
			}
			for _, want := range []string{"ok    identity provider", "Kafka: list consumer groups", "Cloud: list managed connectors", "Cloud: list service accounts"} {
				if !strings.Contains(text, want) {
					t.Errorf("the report lacks %q:\n%s", want, text)
				}
			}
		})
	}
}
