package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"github.com/edh-platform/rms-portal/internal/store"
)

const grantColumns = `id, zone, stage, owner, grantee, principal, principal_name, pattern, prefixed, access, state, requester, requester_subject, reason, ` +
	`created_at, decided_by, decided_at, comment, bindings, event_id`

func scanGrant(row interface{ Scan(...any) error }) (store.GrantRecord, error) {
	var g store.GrantRecord
	var bindings string
	var created, decided int64
	err := row.Scan(&g.ID, &g.Zone, &g.Stage, &g.Owner, &g.Grantee, &g.Principal, &g.PrincipalName, &g.Pattern, &g.Prefixed, &g.Access, &g.State,
		&g.Requester, &g.RequesterSubject, &g.Reason, &created, &g.DecidedBy, &decided, &g.Comment, &bindings, &g.Event)
	if bindings != "" {
		g.Bindings = strings.Split(bindings, ",")
	}
	g.Created, g.Decided = fromMicros(created), fromMicros(decided)
	return g, err
}

// CreateGrantRecord stores a new grant.
func (d *DB) CreateGrantRecord(ctx context.Context, g store.GrantRecord) error {
	_, err := d.exec(ctx, `INSERT INTO grants (`+grantColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		g.ID, g.Zone, g.Stage, g.Owner, g.Grantee, g.Principal, g.PrincipalName, g.Pattern, g.Prefixed, g.Access, g.State,
		g.Requester, g.RequesterSubject, g.Reason, micros(g.Created), g.DecidedBy, micros(g.Decided), g.Comment, strings.Join(g.Bindings, ","), g.Event)
	return err
}

// GrantRecord returns one grant.
func (d *DB) GrantRecord(ctx context.Context, id string) (store.GrantRecord, error) {
	ctx, cancel := d.ctx(ctx)
	defer cancel()
	g, err := scanGrant(d.db.QueryRowContext(ctx, d.q(`SELECT `+grantColumns+` FROM grants WHERE id = ?`), id))
	if errors.Is(err, sql.ErrNoRows) {
		return g, store.ErrNotFound
	}
	return g, Fail(err)
}

// GrantRecords lists the grants a unit gave or received in a stage,
// newest first.
func (d *DB) GrantRecords(ctx context.Context, unit, stage string, limit int) ([]store.GrantRecord, error) {
	return queryAll(ctx, d, scanGrant, `SELECT `+grantColumns+` FROM grants WHERE (owner = ? OR grantee = ?) AND stage = ? ORDER BY created_at DESC, id LIMIT ?`,
		unit, unit, stage, limit)
}

// GrantsInState lists every grant in a state, oldest first.
func (d *DB) GrantsInState(ctx context.Context, state string, limit int) ([]store.GrantRecord, error) {
	return queryAll(ctx, d, scanGrant, `SELECT `+grantColumns+` FROM grants WHERE state = ? ORDER BY created_at, id LIMIT ?`, state, limit)
}

// UpdateGrant moves a grant on from a state, once.
func (d *DB) UpdateGrant(ctx context.Context, g store.GrantRecord, from string) (bool, error) {
	n, err := affected(d.exec(ctx, `UPDATE grants SET state = ?, decided_by = ?, decided_at = ?, comment = ?, bindings = ?, event_id = ? WHERE id = ? AND state = ?`,
		g.State, g.DecidedBy, micros(g.Decided), g.Comment, strings.Join(g.Bindings, ","), g.Event, g.ID, from))
	return n == 1, err
}

// DeleteGrant forgets a grant still in a state, once.
func (d *DB) DeleteGrant(ctx context.Context, id, from string) (bool, error) {
	n, err := affected(d.exec(ctx, `DELETE FROM grants WHERE id = ? AND state = ?`, id, from))
	return n == 1, err
}
