package service

import (
	"context"
	"errors"
	"time"

	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/store"
)

// SessionStore is what the caller service reads and ends of sessions.
type SessionStore interface {
	Session(ctx context.Context, id string, now time.Time) (store.Session, error)
	SessionsOf(ctx context.Context, subject string, now time.Time) ([]store.Session, error)
	DeleteSession(ctx context.Context, id string) error
}

// Sessions lists the caller's own live sessions, newest first.
func (m *Me) Sessions(ctx context.Context) ([]portal.SessionInfo, error) {
	p := portal.PrincipalFrom(ctx)
	if p == nil {
		return nil, portal.New(portal.Unauthenticated, "sign-in required")
	}
	all, err := m.sessions.SessionsOf(ctx, p.Subject, m.guard.Now())
	if err != nil {
		return nil, err
	}
	out := make([]portal.SessionInfo, 0, len(all))
	for _, s := range all {
		out = append(out, portal.SessionInfo{ID: s.ID, Subject: s.Subject, Username: s.Username, UserAgent: s.UserAgent, IP: s.IP,
			Created: s.Created, LastSeen: s.LastSeen, Expires: s.Expires})
	}
	return out, nil
}

// EndSession signs out one of the caller's own sessions, on every replica
// at once. Another person's session is as unknown as one that ended.
func (m *Me) EndSession(ctx context.Context, id string) error {
	p := portal.PrincipalFrom(ctx)
	if p == nil {
		return portal.New(portal.Unauthenticated, "sign-in required")
	}
	notFound := portal.New(portal.NotFound, "session not found (it ended or expired)")
	s, err := m.sessions.Session(ctx, id, m.guard.Now())
	switch {
	case errors.Is(err, store.ErrNotFound):
		return notFound
	case err != nil:
		return err
	case s.Subject != p.Subject:
		return notFound
	}
	return m.guard.WriteEvent(ctx, trail.AuditEvent{Actor: p.Actor(), Groups: p.Groups, Service: p.Service,
		Action: portal.ActSessionEnd, Resource: "own session (" + s.UserAgent + ")"},
		gate.Change{Do: func(ctx context.Context) error { return m.sessions.DeleteSession(ctx, id) }})
}
