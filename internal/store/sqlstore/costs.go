package sqlstore

import (
	"context"
	"database/sql"
	"time"

	"github.com/edh-platform/rms-portal/internal/store"
)

// PutCostDays replaces the cost lines of days, in one transaction, so a
// day refreshed by the Billing API never shows half its lines.
func (d *DB) PutCostDays(ctx context.Context, days []time.Time, lines []store.CostRecord) error {
	if len(days) == 0 {
		return nil
	}
	return d.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		for _, day := range days {
			if _, err := tx.ExecContext(ctx, d.q(`DELETE FROM cost_lines WHERE day = ?`), unix(day)); err != nil {
				return err
			}
		}
		ins, err := tx.PrepareContext(ctx, d.q(`INSERT INTO cost_lines (day, id, product, line_type, resource_id, resource_name, environment,
			unit, quantity, price, original, discount, amount, description) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (day, id) DO NOTHING`))
		if err != nil {
			return err
		}
		defer ins.Close()
		for _, l := range lines {
			if _, err := ins.ExecContext(ctx, unix(l.Day), l.ID, l.Product, l.LineType, l.ResourceID, l.ResourceName, l.EnvironmentID,
				l.Unit, l.Quantity, l.Price, l.Original, l.Discount, l.Amount, l.Description); err != nil {
				return err
			}
		}
		return nil
	})
}

// CostLines lists the lines of [from, to), by day and line type.
func (d *DB) CostLines(ctx context.Context, from, to time.Time) ([]store.CostRecord, error) {
	return queryAll(ctx, d, func(row interface{ Scan(...any) error }) (store.CostRecord, error) {
		var l store.CostRecord
		var day int64
		err := row.Scan(&day, &l.ID, &l.Product, &l.LineType, &l.ResourceID, &l.ResourceName, &l.EnvironmentID,
			&l.Unit, &l.Quantity, &l.Price, &l.Original, &l.Discount, &l.Amount, &l.Description)
		l.Day = fromUnix(day)
		return l, err
	}, `SELECT day, id, product, line_type, resource_id, resource_name, environment, unit, quantity, price, original, discount, amount, description
		FROM cost_lines WHERE day >= ? AND day < ? ORDER BY day, line_type, resource_id, id`, unix(from), unix(to))
}

// CostDays lists the days of [from, to) that have lines.
func (d *DB) CostDays(ctx context.Context, from, to time.Time) ([]time.Time, error) {
	return queryAll(ctx, d, func(row interface{ Scan(...any) error }) (time.Time, error) {
		var day int64
		err := row.Scan(&day)
		return fromUnix(day), err
	}, `SELECT DISTINCT day FROM cost_lines WHERE day >= ? AND day < ? ORDER BY day`, unix(from), unix(to))
}

// PutCostShares replaces the shares of a day.
func (d *DB) PutCostShares(ctx context.Context, day time.Time, shares []store.CostShare) error {
	return d.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, d.q(`DELETE FROM cost_shares WHERE day = ?`), unix(day)); err != nil {
			return err
		}
		ins, err := tx.PrepareContext(ctx, d.q(`INSERT INTO cost_shares (zone, stage, bu, day, line_type, resource_id, resource_name, rule,
			line_amount, unit_use, total_use, amount) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (zone, stage, bu, day, line_type, resource_id) DO UPDATE SET amount = cost_shares.amount + excluded.amount,
			line_amount = cost_shares.line_amount + excluded.line_amount, unit_use = cost_shares.unit_use + excluded.unit_use,
			total_use = cost_shares.total_use + excluded.total_use`))
		if err != nil {
			return err
		}
		defer ins.Close()
		for _, s := range shares {
			if _, err := ins.ExecContext(ctx, s.Zone, s.Stage, s.BU, unix(day), s.LineType, s.ResourceID, s.ResourceName, s.Rule,
				s.LineAmount, s.UnitUse, s.TotalUse, s.Amount); err != nil {
				return err
			}
		}
		return nil
	})
}

// CostShares lists shares of [from, to).
func (d *DB) CostShares(ctx context.Context, zone, stage, bu string, from, to time.Time) ([]store.CostShare, error) {
	return queryAll(ctx, d, func(row interface{ Scan(...any) error }) (store.CostShare, error) {
		var s store.CostShare
		var day int64
		err := row.Scan(&s.Zone, &s.Stage, &s.BU, &day, &s.LineType, &s.ResourceID, &s.ResourceName, &s.Rule,
			&s.LineAmount, &s.UnitUse, &s.TotalUse, &s.Amount)
		s.Day = fromUnix(day)
		return s, err
	}, `SELECT zone, stage, bu, day, line_type, resource_id, resource_name, rule, line_amount, unit_use, total_use, amount FROM cost_shares
		WHERE (? = '' OR zone = ?) AND (? = '' OR stage = ?) AND (? = '*' OR bu = ?) AND day >= ? AND day < ?
		ORDER BY day, zone, stage, bu, line_type, resource_id`, zone, zone, stage, stage, bu, bu, unix(from), unix(to))
}

// PutTopicCosts replaces a stage's topics' costs of a month.
func (d *DB) PutTopicCosts(ctx context.Context, zone, stage string, month time.Time, costs []store.TopicCost) error {
	return d.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, d.q(`DELETE FROM topic_costs WHERE zone = ? AND stage = ? AND month = ?`), zone, stage, unix(month)); err != nil {
			return err
		}
		ins, err := tx.PrepareContext(ctx, d.q(`INSERT INTO topic_costs (zone, stage, month, topic, bu, amount, storage, network, partitions, base)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`))
		if err != nil {
			return err
		}
		defer ins.Close()
		for _, c := range costs {
			if _, err := ins.ExecContext(ctx, zone, stage, unix(month), c.Topic, c.BU, c.Amount, c.Storage, c.Network, c.Partitions, c.Base); err != nil {
				return err
			}
		}
		return nil
	})
}

// TopicCosts lists a unit's topics' costs of a month, the costliest first.
func (d *DB) TopicCosts(ctx context.Context, zone, stage, bu string, month time.Time, limit int) ([]store.TopicCost, error) {
	return queryAll(ctx, d, func(row interface{ Scan(...any) error }) (store.TopicCost, error) {
		var c store.TopicCost
		var m int64
		err := row.Scan(&c.Zone, &c.Stage, &m, &c.Topic, &c.BU, &c.Amount, &c.Storage, &c.Network, &c.Partitions, &c.Base)
		c.Month = fromUnix(m)
		return c, err
	}, `SELECT zone, stage, month, topic, bu, amount, storage, network, partitions, base FROM topic_costs
		WHERE zone = ? AND stage = ? AND bu = ? AND month = ? ORDER BY amount DESC, topic LIMIT ?`, zone, stage, bu, unix(month), limit)
}
