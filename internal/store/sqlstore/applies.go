package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/edh-platform/rms-portal/internal/store"
)

const applyColumns = `id, bu, stage, actor, document, plan, state, event_id, started_at, finished_at, result`

func scanApply(row interface{ Scan(...any) error }) (store.ApplyRecord, error) {
	var a store.ApplyRecord
	var doc, plan, result string
	var started, finished int64
	err := row.Scan(&a.ID, &a.BU, &a.Stage, &a.Actor, &doc, &plan, &a.State, &a.Event, &started, &finished, &result)
	a.Document, a.Plan, a.Result = []byte(doc), []byte(plan), []byte(result)
	a.Started, a.Finished = fromMicros(started), fromMicros(finished)
	return a, err
}

// CreateApply stores a new journal.
func (d *DB) CreateApply(ctx context.Context, a store.ApplyRecord) error {
	_, err := d.exec(ctx, `INSERT INTO apply_journal (`+applyColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		a.ID, a.BU, a.Stage, a.Actor, string(a.Document), string(a.Plan), a.State, a.Event, micros(a.Started), micros(a.Finished), string(a.Result))
	return err
}

// FinishApply records an applying journal's outcome, once.
func (d *DB) FinishApply(ctx context.Context, a store.ApplyRecord) (bool, error) {
	n, err := affected(d.exec(ctx, `UPDATE apply_journal SET state = ?, finished_at = ?, result = ? WHERE id = ? AND state = 'applying'`,
		a.State, micros(a.Finished), string(a.Result), a.ID))
	return n == 1, err
}

// AppliesInState lists the journals in a state, oldest first.
func (d *DB) AppliesInState(ctx context.Context, state string, limit int) ([]store.ApplyRecord, error) {
	return queryAll(ctx, d, scanApply, `SELECT `+applyColumns+` FROM apply_journal WHERE state = ? ORDER BY started_at, id LIMIT ?`, state, limit)
}

// ApplyRecord returns one journal.
func (d *DB) ApplyRecord(ctx context.Context, id string) (store.ApplyRecord, error) {
	ctx, cancel := d.ctx(ctx)
	defer cancel()
	a, err := scanApply(d.db.QueryRowContext(ctx, d.q(`SELECT `+applyColumns+` FROM apply_journal WHERE id = ?`), id))
	if errors.Is(err, sql.ErrNoRows) {
		return a, store.ErrNotFound
	}
	return a, Fail(err)
}

// ForgetApplies removes the journals finished before before.
func (d *DB) ForgetApplies(ctx context.Context, before time.Time) (int, error) {
	n, err := affected(d.exec(ctx, `DELETE FROM apply_journal WHERE state <> 'applying' AND finished_at < ?`, micros(before)))
	return int(n), err
}
