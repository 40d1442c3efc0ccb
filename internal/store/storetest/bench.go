package storetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/store"
)

// BenchSessionLookup measures reading one live session among 10,000.
func BenchSessionLookup(b *testing.B, s store.Store) {
	ctx := context.Background()
	now := time.Now()
	data := make([]byte, 2048) // a sealed session with tokens is about this big
	for i := range 10_000 {
		if err := s.CreateSession(ctx, store.Session{ID: fmt.Sprintf("s%05d", i), Subject: "u", Username: "u", Created: now,
			Expires: now.Add(time.Hour), LastSeen: now, Data: data}); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, err := s.Session(ctx, fmt.Sprintf("s%05d", i%10_000), now); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchAuditWrite measures appending one audit event.
func BenchAuditWrite(b *testing.B, s store.Store) {
	ctx := context.Background()
	e := trail.AuditEvent{Actor: "carol", ActorRole: "developer", Groups: []string{"sg-scada-developers"}, SourceIP: "10.0.0.1",
		UserAgent: "curl/8", RequestID: "0123456789abcdef01234567", BU: "scada", Stage: "dev", Action: portal.ActTopicConfig,
		Resource: "edh-shared-scada-dev-orders", Outcome: "ok", Changes: []trail.Change{{Field: "config.retention.ms", Before: "1", After: "2"}}}
	for b.Loop() {
		if _, err := s.AppendAudit(ctx, e); err != nil {
			b.Fatal(err)
		}
	}
}

// AuditBench is an adapter with a million events to page through.
type AuditBench interface {
	store.Store
	ExplainAudit(ctx context.Context, f store.AuditFilter) (string, error)
}

// Million is how many events BenchAuditPaging reads among.
const Million = 1_000_000

// BenchAuditPaging measures reading one page of 100 events among a
// million (fill inserts them: at base + i seconds, 1,000 actors, 50 units
// over three stages, 1% refusals, 80% in edh-shared) with the filters the
// admin area offers, and logs each query's plan.
func BenchAuditPaging(b *testing.B, s AuditBench, base time.Time) {
	ctx := context.Background()
	mid, err := s.ListAudit(ctx, store.AuditFilter{Since: base.Add(Million / 2 * time.Second), Limit: 1})
	if err != nil || len(mid) != 1 {
		b.Fatalf("the million events are not there: %v %v", mid, err)
	}
	for _, c := range []struct {
		name string
		f    store.AuditFilter
	}{
		{"newest", store.AuditFilter{}},
		{"deep page", store.AuditFilter{After: &store.AuditCursor{At: mid[0].Time, ID: mid[0].ID}}},
		{"actor", store.AuditFilter{Actor: "user-7"}},
		{"unit and stage", store.AuditFilter{BU: "unit-3", Stage: "qas"}},
		{"landing zone", store.AuditFilter{LandingZone: "sales"}},
		{"refusals", store.AuditFilter{Outcome: "READ_ONLY_ENVIRONMENT"}},
		{"refusals in a zone", store.AuditFilter{Zones: []string{"edh-shared"}, Outcome: "READ_ONLY_ENVIRONMENT"}},
		{"one day", store.AuditFilter{Since: base.Add(100 * time.Hour), Until: base.Add(124 * time.Hour)}},
		{"resource", store.AuditFilter{Resource: "res-123456"}},
	} {
		c.f.Limit = 100
		plan, err := s.ExplainAudit(ctx, c.f)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			b.Logf("plan:\n%s", plan)
			for b.Loop() {
				events, err := s.ListAudit(ctx, c.f)
				if err != nil || len(events) == 0 {
					b.Fatalf("%d events, %v", len(events), err)
				}
			}
		})
	}
}
