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

// BenchmarkAuditPaging pages through a million events (storetest).
func BenchmarkAuditPaging(b *testing.B) {
	s := openBench(b)
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	start := time.Now()
	_, err := s.SQL().Exec(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i < ?)
		INSERT INTO audit_events (at, actor, actor_role, groups, service, source_ip, user_agent, request_id, bu, stage, action,
			resource, outcome, detail, changes, landing_zone)
		SELECT ? + i*1000000, 'user-' || (i % 1000), 'developer', '[]', 0, '10.0.0.1', 'curl', 'req', 'unit-' || (i % 50),
			CASE i % 3 WHEN 0 THEN 'dev' WHEN 1 THEN 'qas' ELSE 'run' END, 'topic.create', 'res-' || i,
			CASE WHEN i % 100 = 0 THEN 'READ_ONLY_ENVIRONMENT' ELSE 'ok' END, '', '[]',
			CASE WHEN i % 50 < 40 THEN 'edh-shared' ELSE 'sales' END FROM n`, storetest.Million, base.UnixMicro())
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("a million events inserted in %v", time.Since(start))
	storetest.BenchAuditPaging(b, s, base)
}
