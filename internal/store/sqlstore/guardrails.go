package sqlstore

import (
	"context"
	"time"

	"github.com/edh-platform/rms-portal/internal/store"
)

// PolicyRecords lists the policies, by id.
func (d *DB) PolicyRecords(ctx context.Context) ([]store.PolicyRecord, error) {
	ctx, cancel := d.ctx(ctx)
	defer cancel()
	rows, err := d.db.QueryContext(ctx, `SELECT id, zone, body, updated_by, updated_at FROM policies ORDER BY id`)
	if err != nil {
		return nil, Fail(err)
	}
	defer rows.Close()
	var out []store.PolicyRecord
	for rows.Next() {
		var r store.PolicyRecord
		var body string
		var at int64
		if err := rows.Scan(&r.ID, &r.Zone, &body, &r.UpdatedBy, &at); err != nil {
			return nil, Fail(err)
		}
		r.Body, r.Updated = []byte(body), fromMicros(at)
		out = append(out, r)
	}
	return out, Fail(rows.Err())
}

// PutPolicyRecord creates or replaces a policy.
func (d *DB) PutPolicyRecord(ctx context.Context, r store.PolicyRecord) error {
	_, err := d.exec(ctx, `INSERT INTO policies (id, zone, body, updated_by, updated_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET zone = excluded.zone, body = excluded.body, updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
		r.ID, r.Zone, string(r.Body), r.UpdatedBy, micros(r.Updated))
	return err
}

// DeletePolicyRecord removes a policy.
func (d *DB) DeletePolicyRecord(ctx context.Context, id string) error {
	return found(affected(d.exec(ctx, `DELETE FROM policies WHERE id = ?`, id)))
}

// BudgetRecords lists the budgets, by unit and stage.
func (d *DB) BudgetRecords(ctx context.Context) ([]store.BudgetRecord, error) {
	ctx, cancel := d.ctx(ctx)
	defer cancel()
	rows, err := d.db.QueryContext(ctx, `SELECT bu, stage, zone, limits, updated_by, updated_at FROM budgets ORDER BY bu, stage`)
	if err != nil {
		return nil, Fail(err)
	}
	defer rows.Close()
	var out []store.BudgetRecord
	for rows.Next() {
		var r store.BudgetRecord
		var limits string
		var at int64
		if err := rows.Scan(&r.BU, &r.Stage, &r.Zone, &limits, &r.UpdatedBy, &at); err != nil {
			return nil, Fail(err)
		}
		r.Limits, r.Updated = []byte(limits), fromMicros(at)
		out = append(out, r)
	}
	return out, Fail(rows.Err())
}

// PutBudgetRecord creates or replaces a budget.
func (d *DB) PutBudgetRecord(ctx context.Context, r store.BudgetRecord) error {
	_, err := d.exec(ctx, `INSERT INTO budgets (bu, stage, zone, limits, updated_by, updated_at) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (bu, stage) DO UPDATE SET zone = excluded.zone, limits = excluded.limits, updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
		r.BU, r.Stage, r.Zone, string(r.Limits), r.UpdatedBy, micros(r.Updated))
	return err
}

// DeleteBudgetRecord removes a budget.
func (d *DB) DeleteBudgetRecord(ctx context.Context, bu, stage string) error {
	return found(affected(d.exec(ctx, `DELETE FROM budgets WHERE bu = ? AND stage = ?`, bu, stage)))
}

// ReserveBudget records a write's use (again: the latest counts).
func (d *DB) ReserveBudget(ctx context.Context, r store.BudgetReservation) error {
	_, err := d.exec(ctx, `INSERT INTO budget_reservations (bu, stage, resource, use_json, at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (bu, stage, resource) DO UPDATE SET use_json = excluded.use_json, at = excluded.at`,
		r.BU, r.Stage, r.Resource, string(r.Use), micros(r.At))
	return err
}

// BudgetReservations lists a unit's reservations in a stage since since.
func (d *DB) BudgetReservations(ctx context.Context, bu, stage string, since time.Time) ([]store.BudgetReservation, error) {
	return queryAll(ctx, d, func(row interface{ Scan(...any) error }) (store.BudgetReservation, error) {
		var r store.BudgetReservation
		var use string
		var at int64
		err := row.Scan(&r.BU, &r.Stage, &r.Resource, &use, &at)
		r.Use, r.At = []byte(use), fromMicros(at)
		return r, err
	}, `SELECT bu, stage, resource, use_json, at FROM budget_reservations WHERE bu = ? AND stage = ? AND at >= ? ORDER BY at`, bu, stage, micros(since))
}

// ReleaseBudget removes a reservation, or names it anew.
func (d *DB) ReleaseBudget(ctx context.Context, bu, stage, resource, renamed string) error {
	if renamed != "" {
		_, err := d.exec(ctx, `UPDATE budget_reservations SET resource = ? WHERE bu = ? AND stage = ? AND resource = ?
			AND NOT EXISTS (SELECT 1 FROM budget_reservations b WHERE b.bu = ? AND b.stage = ? AND b.resource = ?)`,
			renamed, bu, stage, resource, bu, stage, renamed)
		return err
	}
	_, err := d.exec(ctx, `DELETE FROM budget_reservations WHERE bu = ? AND stage = ? AND resource = ?`, bu, stage, resource)
	return err
}

// DeleteBudgetReservationsBefore removes reservations older than t.
func (d *DB) DeleteBudgetReservationsBefore(ctx context.Context, t time.Time) (int, error) {
	return affected(d.exec(ctx, `DELETE FROM budget_reservations WHERE at < ?`, micros(t)))
}
