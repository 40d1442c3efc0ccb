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

// BenchmarkAuditPaging pages through a million events (storetest).
func BenchmarkAuditPaging(b *testing.B) {
	s := openBench(b)
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	start := time.Now()
	_, err := s.SQL().Exec(`INSERT INTO audit_events (at, actor, actor_role, groups, service, source_ip, user_agent, request_id, bu,
			stage, action, resource, outcome, detail, changes, landing_zone)
		SELECT $2 + i*1000000, 'user-' || (i % 1000), 'developer', '[]', false, '10.0.0.1', 'curl', 'req', 'unit-' || (i % 50),
			CASE i % 3 WHEN 0 THEN 'dev' WHEN 1 THEN 'qas' ELSE 'run' END, 'topic.create', 'res-' || i,
			CASE WHEN i % 100 = 0 THEN 'READ_ONLY_ENVIRONMENT' ELSE 'ok' END, '', '[]',
			CASE WHEN i % 50 < 40 THEN 'edh-shared' ELSE 'sales' END FROM generate_series(1, $1::bigint) AS i`, storetest.Million, base.UnixMicro())
	if err != nil {
		b.Fatal(err)
	}
	if _, err := s.SQL().Exec(`ANALYZE audit_events`); err != nil {
		b.Fatal(err)
	}
	b.Logf("a million events inserted in %v", time.Since(start))
	storetest.BenchAuditPaging(b, s, base)
}
