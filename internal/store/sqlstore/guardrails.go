package sqlstore

import (
	"context"

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
