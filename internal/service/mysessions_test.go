package service_test

import (
	"context"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/servicetest"
	"github.com/edh-platform/rms-portal/internal/store"
)

// TestPeopleSeeAndEndTheirOwnSessions: a person lists only their own
// sessions and ends one of them (audited); another's session is not
// found and stays.
func TestPeopleSeeAndEndTheirOwnSessions(t *testing.T) {
	w := servicetest.New(t)
	ctx := context.Background()
	now := time.Now()
	for _, s := range []store.Session{
		{ID: "bob-1", Subject: "u", Username: "u", Created: now, Expires: now.Add(time.Hour), LastSeen: now, UserAgent: "firefox", Data: []byte("x")},
		{ID: "bob-2", Subject: "u", Username: "u", Created: now, Expires: now.Add(time.Hour), LastSeen: now, UserAgent: "curl", Data: []byte("x")},
		{ID: "carol-1", Subject: "carol", Username: "carol", Created: now, Expires: now.Add(time.Hour), LastSeen: now, Data: []byte("x")},
	} {
		if err := w.Store.CreateSession(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	me := w.AsGroups("sg-scada-admins")
	list, err := w.Me.Sessions(me)
	if err != nil || len(list) != 2 {
		t.Fatalf("own sessions: %+v %v", list, err)
	}
	if err := w.Me.EndSession(me, "carol-1"); !portal.Is(err, portal.NotFound) {
		t.Errorf("ending another's session: %v", err)
	}
	if err := w.Me.EndSession(me, "bob-2"); err != nil {
		t.Fatal(err)
	}
	if list, _ := w.Me.Sessions(me); len(list) != 1 || list[0].ID != "bob-1" {
		t.Errorf("after ending one: %+v", list)
	}
	if _, err := w.Store.Session(ctx, "carol-1", now); err != nil {
		t.Errorf("carol's session: %v", err)
	}
	if ev := w.AuditEvents(t); len(ev) == 0 || ev[0].Action != portal.ActSessionEnd || ev[0].Outcome != "ok" || ev[0].Actor != "u" {
		t.Errorf("audit %+v", ev)
	}
	if _, err := w.Me.Sessions(context.Background()); !portal.Is(err, portal.Unauthenticated) {
		t.Errorf("without a principal: %v", err)
	}
}
