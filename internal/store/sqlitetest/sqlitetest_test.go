package sqlitetest_test

import (
	"context"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/store/sqlite"
	"github.com/edh-platform/rms-portal/internal/store/sqlitetest"
)

// TestCopiesAreMigratedAndApart: a copy opens at the latest schema (its
// migrations find nothing to do, as a database migrated from nothing
// reads), and what one test writes is not in another's copy.
func TestCopiesAreMigratedAndApart(t *testing.T) {
	ctx := context.Background()
	log := slog.New(slog.DiscardHandler)
	fresh, _, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "fresh.db"), time.Minute, log)
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	var want int
	if err := fresh.SQL().QueryRowContext(ctx, `SELECT MAX(version_id) FROM goose_db_version`).Scan(&want); err != nil {
		t.Fatal(err)
	}

	open := func() *sqlite.Store {
		t.Helper()
		st, _, err := sqlite.Open(ctx, sqlitetest.File(t, ""), time.Minute, log)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	}
	a, b := open(), open()
	var got, rows int
	if err := a.SQL().QueryRowContext(ctx, `SELECT MAX(version_id), COUNT(*) FROM goose_db_version`).Scan(&got, &rows); err != nil {
		t.Fatal(err)
	}
	var freshRows int
	_ = fresh.SQL().QueryRowContext(ctx, `SELECT COUNT(*) FROM goose_db_version`).Scan(&freshRows)
	if got != want || rows != freshRows {
		t.Fatalf("a copy is at version %d with %d migrations recorded, want %d with %d", got, rows, want, freshRows)
	}
	if _, err := a.SQL().ExecContext(ctx, `CREATE TABLE only_in_a (x INTEGER)`); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := b.SQL().QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_master WHERE name = 'only_in_a'`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("another copy sees the first one's table (%d, %v)", n, err)
	}
}
