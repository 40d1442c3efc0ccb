package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/servicetest"
	"github.com/edh-platform/rms-portal/internal/store/pgtest"
	"github.com/edh-platform/rms-portal/internal/store/postgres"
	"github.com/edh-platform/rms-portal/internal/store/storetest"
)

func openBench(b *testing.B) *postgres.Store {
	s, _, err := postgres.Open(context.Background(), pgtest.Database(b), 5*time.Second, servicetest.Discard())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

func BenchmarkSessionLookup(b *testing.B) { storetest.BenchSessionLookup(b, openBench(b)) }
func BenchmarkAuditWrite(b *testing.B)    { storetest.BenchAuditWrite(b, openBench(b)) }

// BenchmarkMigrateEmpty measures migrating an empty database to the latest
// schema, advisory lock included.
func BenchmarkMigrateEmpty(b *testing.B) {
	for b.Loop() {
		b.StopTimer()
		url := pgtest.Database(b)
		b.StartTimer()
		s, _, err := postgres.Open(context.Background(), url, 5*time.Second, servicetest.Discard())
		if err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
}
