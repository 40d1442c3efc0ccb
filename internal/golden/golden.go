// Package golden holds generated files to what generates them, for
// tests: a test compares a committed file with what it would write, and
// with -update (make docs) writes it instead.
package golden

import (
	"bytes"
	"flag"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the generated files the tests hold (make docs)")

// Updating tells whether this run rewrites the files instead of
// checking them.
func Updating() bool { return *update }

// File fails t when the file at path differs from want, saying what it
// is made from; with -update it writes want there instead.
func File(t testing.TB, path string, want []byte, from string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if have, err := os.ReadFile(path); err != nil || !bytes.Equal(have, want) {
		t.Errorf("%s differs from %s: run make docs and commit it", path, from)
	}
}
