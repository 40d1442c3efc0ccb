package postgres_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/servicetest"
	"github.com/edh-platform/rms-portal/internal/store"
	"github.com/edh-platform/rms-portal/internal/store/pgtest"
	"github.com/edh-platform/rms-portal/internal/store/postgres"
	"github.com/edh-platform/rms-portal/internal/store/storetest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

func open(t *testing.T) store.Store {
	s, _, err := postgres.Open(context.Background(), pgtest.Database(t), 5*time.Second, servicetest.Discard())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestContract(t *testing.T) { storetest.Run(t, open) }

// TestOutboxSkipsNoLateCommit: an event whose transaction began first
// but commits last (the gap that lost webhook events) is not skipped:
// while it is uncommitted, the outbox shows nothing after it, and once
// committed both come, the late one first.
func TestOutboxSkipsNoLateCommit(t *testing.T) {
	ctx := context.Background()
	s, _, err := postgres.Open(ctx, pgtest.Database(t), 5*time.Second, servicetest.Discard())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	start, err := s.OutboxEnd(ctx)
	if err != nil {
		t.Fatal(err)
	}
	late, err := s.SQL().BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = late.Rollback() }()
	var lateID int64
	if err := late.QueryRowContext(ctx, `INSERT INTO audit_events (at, actor, actor_role, groups, service, source_ip, user_agent, request_id, bu, stage,
		action, resource, outcome, detail, changes, landing_zone) VALUES (1, 'a', '', '[]', false, '', '', '', 'scada', 'dev', 'topic.create', 'late', 'ok', '', '[]', 'edh-shared')
		RETURNING id`).Scan(&lateID); err != nil {
		t.Fatal(err)
	}
	if _, err := late.ExecContext(ctx, `INSERT INTO event_outbox (event_id) VALUES ($1)`, lateID); err != nil {
		t.Fatal(err)
	}
	early, err := s.AppendAudit(ctx, trail.AuditEvent{Time: time.Now(), Actor: "b", LandingZone: "edh-shared", Action: portal.ActTopicCreate, Resource: "early", Outcome: "ok"})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := s.OutboxAfter(ctx, start, 10); err != nil || len(got) != 0 {
		t.Fatalf("while an earlier transaction runs, the outbox shows %+v (%v): a reader would move past the late event", got, err)
	}
	if err := late.Commit(); err != nil {
		t.Fatal(err)
	}
	got, err := s.OutboxAfter(ctx, start, 10)
	if err != nil || len(got) != 2 || got[0].Event.ID != lateID || got[1].Event.ID != early {
		t.Fatalf("after the commit: %+v %v", got, err)
	}
}
