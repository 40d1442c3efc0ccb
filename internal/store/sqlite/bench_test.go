package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/servicetest"
	"github.com/edh-platform/rms-portal/internal/store/sqlite"
	"github.com/edh-platform/rms-portal/internal/store/storetest"
)

func openBench(b *testing.B) *sqlite.Store {
	s, _, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "portal.db"), 5*time.Second, servicetest.Discard())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

func BenchmarkSessionLookup(b *testing.B) { storetest.BenchSessionLookup(b, openBench(b)) }
func BenchmarkAuditWrite(b *testing.B)    { storetest.BenchAuditWrite(b, openBench(b)) }

// BenchmarkMigrateEmpty measures opening an empty database and migrating
// it to the latest schema.
func BenchmarkMigrateEmpty(b *testing.B) {
	for b.Loop() {
		s, _, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "portal.db"), 5*time.Second, servicetest.Discard())
		if err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
}
