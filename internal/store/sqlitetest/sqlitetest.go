// Package sqlitetest gives tests an empty SQLite database at the latest
// schema without migrating each one: the migrations run once per test
// process, and every test gets a copy of the result in a directory of its
// own. Under the race detector the migrations are most of what a test's
// store costs (about 0.6 s each), and a package's tests open hundreds.
package sqlitetest

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/store/sqlite"
)

// migrated holds the files of a migrated empty database (the database
// and, if its last connection left one, its write-ahead log), made once
// per test process and kept in memory, so nothing is left on disk.
var migrated = sync.OnceValues(migrate)

// File writes a copy of the migrated empty database into dir (a new
// temporary directory of t's when ""), and returns the database's path.
// Opening it runs the migrations, which find nothing left to do.
func File(t testing.TB, dir string) string {
	t.Helper()
	files, err := migrated()
	if err != nil {
		t.Fatalf("a migrated SQLite database for tests: %v", err)
	}
	if dir == "" {
		dir = t.TempDir()
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "portal.db")
}

// migrate migrates an empty database in a temporary directory and reads
// its files back.
func migrate() (map[string][]byte, error) {
	dir, err := os.MkdirTemp("", "rms-portal-sqlitetest-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	st, _, err := sqlite.Open(context.Background(), filepath.Join(dir, "portal.db"), time.Minute, slog.New(slog.DiscardHandler))
	if err != nil {
		return nil, err
	}
	if err := st.Close(); err != nil {
		return nil, fmt.Errorf("closing the migrated database: %w", err)
	}
	files := map[string][]byte{}
	// The shared-memory index is rebuilt from the log; it is not copied.
	for _, name := range []string{"portal.db", "portal.db-wal"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		switch {
		case os.IsNotExist(err) && name != "portal.db":
			continue
		case err != nil:
			return nil, err
		}
		files[name] = b
	}
	return files, nil
}
