package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/store"
)

const grantColumns = `id, zone, stage, owner, grantee, principal, principal_name, pattern, prefixed, access, state, requester, requester_subject, reason, ` +
	`created_at, decided_by, decided_at, comment, bindings, event_id, duration_s, expires_at, classification, approvals, renews, warned`

func scanGrant(row interface{ Scan(...any) error }) (store.GrantRecord, error) {
	var g store.GrantRecord
	var bindings string
	var approvals string
	var created, decided, duration, expires int64
	err := row.Scan(&g.ID, &g.Zone, &g.Stage, &g.Owner, &g.Grantee, &g.Principal, &g.PrincipalName, &g.Pattern, &g.Prefixed, &g.Access, &g.State,
		&g.Requester, &g.RequesterSubject, &g.Reason, &created, &g.DecidedBy, &decided, &g.Comment, &bindings, &g.Event,
		&duration, &expires, &g.Classification, &approvals, &g.Renews, &g.Warned)
	if bindings != "" {
		g.Bindings = strings.Split(bindings, ",")
	}
	if approvals != "" {
		g.Approvals = strings.Split(approvals, ",")
	}
	g.Created, g.Decided, g.Expires = fromMicros(created), fromMicros(decided), fromMicros(expires)
	g.Duration = time.Duration(duration) * time.Second
	return g, err
}

// CreateGrantRecord stores a new grant.
func (d *DB) CreateGrantRecord(ctx context.Context, g store.GrantRecord) error {
	_, err := d.exec(ctx, `INSERT INTO grants (`+grantColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		g.ID, g.Zone, g.Stage, g.Owner, g.Grantee, g.Principal, g.PrincipalName, g.Pattern, g.Prefixed, g.Access, g.State,
		g.Requester, g.RequesterSubject, g.Reason, micros(g.Created), g.DecidedBy, micros(g.Decided), g.Comment, strings.Join(g.Bindings, ","), g.Event,
		int64(g.Duration/time.Second), micros(g.Expires), g.Classification, strings.Join(g.Approvals, ","), g.Renews, g.Warned)
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
	n, err := affected(d.exec(ctx, `UPDATE grants SET state = ?, decided_by = ?, decided_at = ?, comment = ?, bindings = ?, event_id = ?, `+
		`expires_at = ?, approvals = ?, warned = ? WHERE id = ? AND state = ?`,
		g.State, g.DecidedBy, micros(g.Decided), g.Comment, strings.Join(g.Bindings, ","), g.Event, micros(g.Expires), strings.Join(g.Approvals, ","), g.Warned,
		g.ID, from))
	return n == 1, err
}

// DeleteGrant forgets a grant still in a state, once.
func (d *DB) DeleteGrant(ctx context.Context, id, from string) (bool, error) {
	n, err := affected(d.exec(ctx, `DELETE FROM grants WHERE id = ? AND state = ?`, id, from))
	return n == 1, err
}

// ExpiringGrants lists the active grants that expire by before.
func (d *DB) ExpiringGrants(ctx context.Context, before time.Time, limit int) ([]store.GrantRecord, error) {
	return queryAll(ctx, d, scanGrant, `SELECT `+grantColumns+` FROM grants WHERE state = 'active' AND expires_at > 0 AND expires_at <= ? `+
		`ORDER BY expires_at, id LIMIT ?`, micros(before), limit)
}

// ZoneGrants lists the active and approving grants of a zone in a stage.
func (d *DB) ZoneGrants(ctx context.Context, zone, stage string, limit int) ([]store.GrantRecord, error) {
	return queryAll(ctx, d, scanGrant, `SELECT `+grantColumns+` FROM grants WHERE zone = ? AND stage = ? AND state IN ('active', 'approving') `+
		`ORDER BY pattern, id LIMIT ?`, zone, stage, limit)
}

// GrantsNaming lists the open grants on a topic or for a principal.
func (d *DB) GrantsNaming(ctx context.Context, zone, stage, topic, principal string, limit int) ([]store.GrantRecord, error) {
	return queryAll(ctx, d, scanGrant, `SELECT `+grantColumns+` FROM grants WHERE zone = ? AND stage = ? `+
		`AND state IN ('requested', 'approving', 'active', 'revoking', 'ending') `+
		`AND ((pattern = ? AND ? <> '' AND NOT prefixed) OR (principal = ? AND ? <> '')) ORDER BY created_at, id LIMIT ?`,
		zone, stage, topic, topic, principal, principal, limit)
}

// MarkGrantWarned records an active grant's expiry warning, once.
func (d *DB) MarkGrantWarned(ctx context.Context, id string) (bool, error) {
	n, err := affected(d.exec(ctx, `UPDATE grants SET warned = ? WHERE id = ? AND state = 'active' AND NOT warned`, true, id))
	return n == 1, err
}

// ExtendGrant moves an active grant's expiry.
func (d *DB) ExtendGrant(ctx context.Context, id string, expires time.Time) (bool, error) {
	n, err := affected(d.exec(ctx, `UPDATE grants SET expires_at = ?, warned = ? WHERE id = ? AND state = 'active'`, micros(expires), false, id))
	return n == 1, err
}
