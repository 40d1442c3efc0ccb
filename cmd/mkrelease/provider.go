package main

import (
	"archive/zip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// providerManifest says which Terraform plugin protocol the provider
// speaks, as a provider registry reads it.
const providerManifest = `{
  "version": 1,
  "metadata": {
    "protocol_versions": ["6.0"]
  }
}
`

// packProvider lays the provider's binaries out as a provider registry
// publishes a release and as a Terraform or OpenTofu filesystem mirror
// holds one: under dir, terraform-provider-portal_X.Y.Z_OS_ARCH.zip per
// platform (its binary terraform-provider-portal_vX.Y.Z inside), the
// manifest and SHA256SUMS of the zips and the manifest; under
// mirror/HOST/NAMESPACE/portal/ the same zips, the packed mirror layout.
// bins maps OS_ARCH to a built binary.
func packProvider(dir, mirror, version string, bins map[string]string) error {
	v := strings.TrimPrefix(version, "v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.MkdirAll(mirror, 0o755); err != nil {
		return err
	}
	name := "terraform-provider-portal_" + v
	sums := map[string]string{}
	targets := make([]string, 0, len(bins))
	for t := range bins {
		targets = append(targets, t)
	}
	sort.Strings(targets)
	for _, target := range targets {
		zipName := name + "_" + target + ".zip"
		exe := "terraform-provider-portal_v" + v
		if strings.HasPrefix(target, "windows_") {
			exe += ".exe"
		}
		if err := zipOne(filepath.Join(dir, zipName), bins[target], exe); err != nil {
			return fmt.Errorf("%s: %w", target, err)
		}
		sum, err := sha256File(filepath.Join(dir, zipName))
		if err != nil {
			return err
		}
		sums[zipName] = sum
		if err := copyFile(filepath.Join(dir, zipName), filepath.Join(mirror, zipName)); err != nil {
			return err
		}
	}
	manifest := name + "_manifest.json"
	if err := os.WriteFile(filepath.Join(dir, manifest), []byte(providerManifest), 0o644); err != nil {
		return err
	}
	sum, err := sha256File(filepath.Join(dir, manifest))
	if err != nil {
		return err
	}
	sums[manifest] = sum
	files := make([]string, 0, len(sums))
	for f := range sums {
		files = append(files, f)
	}
	sort.Strings(files)
	var b strings.Builder
	for _, f := range files {
		fmt.Fprintf(&b, "%s  %s\n", sums[f], f)
	}
	return os.WriteFile(filepath.Join(dir, name+"_SHA256SUMS"), []byte(b.String()), 0o644)
}

// zipOne writes a zip holding one executable under name. The time is
// fixed, so that the same binary makes the same zip.
func zipOne(out, bin, name string) error {
	src, err := os.Open(bin)
	if err != nil {
		return err
	}
	defer src.Close()
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	zw := zip.NewWriter(f)
	h := &zip.FileHeader{Name: name, Method: zip.Deflate, Modified: time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)}
	h.SetMode(0o755)
	w, err := zw.CreateHeader(h)
	if err == nil {
		_, err = io.Copy(w, src)
	}
	if cerr := zw.Close(); err == nil {
		err = cerr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func sha256File(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o644)
}
