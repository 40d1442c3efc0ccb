package storetest

import (
	"context"
	"fmt"
	"testing"
	"time"

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
	e := store.AuditEvent{Actor: "carol", ActorRole: "developer", Groups: []string{"sg-scada-developers"}, SourceIP: "10.0.0.1",
		UserAgent: "curl/8", RequestID: "0123456789abcdef01234567", BU: "scada", Stage: "dev", Action: "topic.config",
		Resource: "edh-shared-scada-dev-orders", Outcome: "ok", Changes: []store.Change{{Field: "config.retention.ms", Before: "1", After: "2"}}}
	for b.Loop() {
		if _, err := s.AppendAudit(ctx, e); err != nil {
			b.Fatal(err)
		}
	}
}
