package sqlstore

import (
	"context"
	"database/sql"
	"errors"

	"github.com/edh-platform/rms-portal/internal/store"

	"github.com/edh-platform/rms-portal/internal/portal"
)

const autoRestartColumns = `zone, stage, connector, bu, max_restarts, attempts, failing_since, last_at, given_up, set_by, set_at`

func scanAutoRestart(row interface{ Scan(...any) error }) (store.AutoRestart, error) {
	var a store.AutoRestart
	var since, last, set int64
	err := row.Scan(&a.Zone, &a.Stage, &a.Connector, &a.BU, &a.MaxRestarts, &a.Attempts, &since, &last, &a.GivenUp, &a.SetBy, &set)
	a.FailingSince, a.LastAt, a.SetAt = fromMicros(since), fromMicros(last), fromMicros(set)
	return a, err
}

// SetAutoRestart turns a connector's auto-restart on, its backoff from
// the start.
func (d *DB) SetAutoRestart(ctx context.Context, a store.AutoRestart) error {
	_, err := d.exec(ctx, `INSERT INTO connector_auto_restart (`+autoRestartColumns+`) VALUES (?, ?, ?, ?, ?, 0, 0, 0, FALSE, ?, ?)
		ON CONFLICT (zone, stage, connector) DO UPDATE SET bu = excluded.bu, max_restarts = excluded.max_restarts, attempts = 0, failing_since = 0,
		last_at = 0, given_up = FALSE, set_by = excluded.set_by, set_at = excluded.set_at`,
		a.Zone, a.Stage, a.Connector, a.BU, a.MaxRestarts, a.SetBy, micros(a.SetAt))
	return err
}

// AutoRestartOf returns one connector's auto-restart.
func (d *DB) AutoRestartOf(ctx context.Context, zone, stage, connector string) (store.AutoRestart, error) {
	ctx, cancel := d.ctx(ctx)
	defer cancel()
	a, err := scanAutoRestart(d.db.QueryRowContext(ctx, d.q(`SELECT `+autoRestartColumns+` FROM connector_auto_restart
		WHERE zone = ? AND stage = ? AND connector = ?`), zone, stage, connector))
	if errors.Is(err, sql.ErrNoRows) {
		return a, store.ErrNotFound
	}
	return a, Fail(err)
}

// AutoRestartsIn lists a stage's auto-restarts.
func (d *DB) AutoRestartsIn(ctx context.Context, zone, stage string) ([]store.AutoRestart, error) {
	return queryAll(ctx, d, scanAutoRestart, `SELECT `+autoRestartColumns+` FROM connector_auto_restart WHERE zone = ? AND stage = ? ORDER BY connector`,
		zone, stage)
}

// AutoRestartStages lists the stages that have auto-restarts.
func (d *DB) AutoRestartStages(ctx context.Context) ([]portal.ZoneStage, error) {
	return queryAll(ctx, d, func(row interface{ Scan(...any) error }) (portal.ZoneStage, error) {
		var zs portal.ZoneStage
		err := row.Scan(&zs.Zone, &zs.Stage)
		return zs, err
	}, `SELECT DISTINCT zone, stage FROM connector_auto_restart ORDER BY zone, stage`)
}

// UpdateAutoRestart saves where a backoff stands.
func (d *DB) UpdateAutoRestart(ctx context.Context, a store.AutoRestart) (bool, error) {
	n, err := affected(d.exec(ctx, `UPDATE connector_auto_restart SET attempts = ?, failing_since = ?, last_at = ?, given_up = ?
		WHERE zone = ? AND stage = ? AND connector = ?`, a.Attempts, micros(a.FailingSince), micros(a.LastAt), a.GivenUp, a.Zone, a.Stage, a.Connector))
	return n == 1, err
}

// DeleteAutoRestart turns a connector's auto-restart off.
func (d *DB) DeleteAutoRestart(ctx context.Context, zone, stage, connector string) error {
	_, err := d.exec(ctx, `DELETE FROM connector_auto_restart WHERE zone = ? AND stage = ? AND connector = ?`, zone, stage, connector)
	return err
}
