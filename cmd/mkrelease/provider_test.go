package main

import (
	"archive/zip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProviderPackedAsRegistriesAndMirrorsTakeIt: a zip per platform
// holding terraform-provider-portal_vX.Y.Z (.exe on Windows), the
// manifest of protocol 6, SHA256SUMS of both, and the mirror's copies.
func TestProviderPackedAsRegistriesAndMirrorsTakeIt(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	if err := os.WriteFile(bin, []byte("#!/bin/true\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	out, mirror := filepath.Join(dir, "out"), filepath.Join(dir, "mirror", "registry.terraform.io", "edh-platform", "portal")
	if err := packProvider(out, mirror, "v1.4.0", map[string]string{"linux_amd64": bin, "windows_arm64": bin}); err != nil {
		t.Fatal(err)
	}
	sums, err := os.ReadFile(filepath.Join(out, "terraform-provider-portal_1.4.0_SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(sums)), "\n")
	if len(lines) != 3 || !strings.HasSuffix(lines[0], "  terraform-provider-portal_1.4.0_linux_amd64.zip") ||
		!strings.HasSuffix(lines[1], "  terraform-provider-portal_1.4.0_manifest.json") || !strings.HasSuffix(lines[2], "  terraform-provider-portal_1.4.0_windows_arm64.zip") {
		t.Errorf("SHA256SUMS:\n%s", sums)
	}
	for _, l := range lines {
		sum, file, _ := strings.Cut(l, "  ")
		if got, err := sha256File(filepath.Join(out, file)); err != nil || got != sum {
			t.Errorf("%s: %s, the file's is %s (%v)", file, sum, got, err)
		}
	}
	if m, _ := os.ReadFile(filepath.Join(out, "terraform-provider-portal_1.4.0_manifest.json")); !strings.Contains(string(m), `"protocol_versions": ["6.0"]`) {
		t.Errorf("manifest: %s", m)
	}
	for target, exe := range map[string]string{"linux_amd64": "terraform-provider-portal_v1.4.0", "windows_arm64": "terraform-provider-portal_v1.4.0.exe"} {
		z, err := zip.OpenReader(filepath.Join(mirror, "terraform-provider-portal_1.4.0_"+target+".zip"))
		if err != nil {
			t.Fatal(err)
		}
		if len(z.File) != 1 || z.File[0].Name != exe || z.File[0].Mode()&0o100 == 0 {
			t.Errorf("%s holds %v", target, z.File)
		}
		z.Close()
	}
}
