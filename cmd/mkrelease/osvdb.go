package main

import (
	"archive/zip"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// osvDatabase writes osv-scanner's offline databases under out: Go's
// (Go/all.zip: one OSV JSON file per vulnerability) from a directory of
// OSV files, such as golang.org/x/vulndb's data/osv as the module proxy
// serves it, since osv.dev itself cannot be reached from the build
// machines; and empty ones for the other ecosystems the SBOM names
// (Debian's CA bundle, the C libraries), which osv-scanner otherwise
// fails on. Those are not scanned: the release's documents say so.
func osvDatabase(dir, out string) error {
	for _, eco := range []string{"Debian", "OSS-Fuzz"} {
		if err := writeZip(nil, filepath.Join(out, eco, "all.zip")); err != nil {
			return err
		}
	}
	if dir == "" {
		return errors.New("osvdb needs --vulns, the directory of OSV files")
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("no OSV files in %s", dir)
	}
	return writeZip(files, filepath.Join(out, "Go", "all.zip"))
}

// writeZip writes files, by their base names, into a new zip at out.
func writeZip(files []string, out string) error {
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	zw := zip.NewWriter(f)
	for _, path := range files {
		body, err := os.ReadFile(path)
		if err != nil {
			f.Close()
			return err
		}
		w, err := zw.Create(filepath.Base(path))
		if err == nil {
			_, err = w.Write(body)
		}
		if err != nil {
			f.Close()
			return err
		}
	}
	if err := zw.Close(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
