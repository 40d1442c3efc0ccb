package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/edh-platform/rms-portal/internal/store"
)

const sessionColumns = `id, subject, username, created_at, expires_at, last_seen, user_agent, ip, data`

func scanSession(row interface{ Scan(...any) error }) (store.Session, error) {
	var s store.Session
	var created, expires, seen int64
	err := row.Scan(&s.ID, &s.Subject, &s.Username, &created, &expires, &seen, &s.UserAgent, &s.IP, &s.Data)
	s.Created, s.Expires, s.LastSeen = fromMicros(created), fromMicros(expires), fromMicros(seen)
	return s, err
}

// CreateSession stores a new session.
func (d *DB) CreateSession(ctx context.Context, s store.Session) error {
	_, err := d.exec(ctx, `INSERT INTO sessions (`+sessionColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		s.ID, s.Subject, s.Username, micros(s.Created), micros(s.Expires), micros(s.LastSeen), s.UserAgent, s.IP, s.Data)
	return err
}

// Session returns a live session.
func (d *DB) Session(ctx context.Context, id string, now time.Time) (store.Session, error) {
	ctx, cancel := d.ctx(ctx)
	defer cancel()
	s, err := scanSession(d.db.QueryRowContext(ctx, d.q(`SELECT `+sessionColumns+` FROM sessions WHERE id = ? AND expires_at > ?`), id, micros(now)))
	if errors.Is(err, sql.ErrNoRows) {
		return store.Session{}, store.ErrNotFound
	}
	return s, Fail(err)
}

// UpdateSession replaces a session's data.
func (d *DB) UpdateSession(ctx context.Context, id string, data []byte, lastSeen time.Time) error {
	n, err := affected(d.exec(ctx, `UPDATE sessions SET data = ?, last_seen = ? WHERE id = ?`, data, micros(lastSeen), id))
	if err == nil && n == 0 {
		return store.ErrNotFound
	}
	return err
}

// DeleteSession ends a session.
func (d *DB) DeleteSession(ctx context.Context, id string) error {
	_, err := d.exec(ctx, `DELETE FROM sessions WHERE id = ?`, id)
	return err
}

// SessionsOf lists live sessions, newest first.
func (d *DB) SessionsOf(ctx context.Context, subject string, now time.Time) ([]store.Session, error) {
	ctx, cancel := d.ctx(ctx)
	defer cancel()
	rows, err := d.db.QueryContext(ctx, d.q(`SELECT `+sessionColumns+` FROM sessions
		WHERE (? = '' OR subject = ?) AND expires_at > ? ORDER BY created_at DESC LIMIT 1000`), subject, subject, micros(now))
	if err != nil {
		return nil, Fail(err)
	}
	defer rows.Close()
	var out []store.Session
	for rows.Next() {
		s, err := scanSession(rows)
		if err != nil {
			return nil, Fail(err)
		}
		s.Data = nil // never needed by a list, and it holds the secrets
		out = append(out, s)
	}
	return out, Fail(rows.Err())
}

// CountSessions counts live sessions.
func (d *DB) CountSessions(ctx context.Context, now time.Time) (int, error) {
	ctx, cancel := d.ctx(ctx)
	defer cancel()
	var n int
	err := d.db.QueryRowContext(ctx, d.q(`SELECT COUNT(*) FROM sessions WHERE expires_at > ?`), micros(now)).Scan(&n)
	return n, Fail(err)
}

// DeleteExpiredSessions sweeps expired sessions.
func (d *DB) DeleteExpiredSessions(ctx context.Context, now time.Time) (int, error) {
	return affected(d.exec(ctx, `DELETE FROM sessions WHERE expires_at <= ?`, micros(now)))
}
