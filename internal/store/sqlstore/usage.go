package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/store"
)

// Usage tables hold hours and days as Unix seconds (UTC).
const daySeconds = 86400

func unix(t time.Time) int64 { return t.UTC().Unix() }

func fromUnix(n int64) time.Time { return time.Unix(n, 0).UTC() }

// PutUsageHours saves hours of usage and rolls their days up, in one
// transaction: the topics' hours, the units' hours, the topics' days and
// the units' days of the days touched; the hours' gaps go.
func (d *DB) PutUsageHours(ctx context.Context, zone, stage string, hours []time.Time, rows []store.UsageHour) error {
	if len(hours) == 0 {
		return nil
	}
	lo, hi := unix(slices.MinFunc(hours, time.Time.Compare)), unix(slices.MaxFunc(hours, time.Time.Compare))
	dayLo, dayHi := lo-lo%daySeconds, hi-hi%daySeconds+daySeconds
	return d.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		exec := func(q string, args ...any) error {
			_, err := tx.ExecContext(ctx, d.q(q), args...)
			return err
		}
		// Many rows a statement: a month of a stage is tens of thousands
		// of rows, and a statement each costs more than the rows.
		for chunk := range slices.Chunk(hours, hoursPerDelete) {
			in := placeholders(len(chunk))
			args := []any{zone, stage}
			for _, h := range chunk {
				args = append(args, unix(h))
			}
			if err := exec(`DELETE FROM usage_hours WHERE zone = ? AND stage = ? AND hour IN (`+in+`)`, args...); err != nil {
				return err
			}
			if err := exec(`DELETE FROM usage_gaps WHERE zone = ? AND stage = ? AND hour IN (`+in+`)`, args...); err != nil {
				return err
			}
		}
		for chunk := range slices.Chunk(rows, rowsPerInsert) {
			values := strings.Repeat("(?, ?, ?, ?, ?, ?, ?, ?, ?), ", len(chunk))
			args := make([]any, 0, 9*len(chunk))
			for _, r := range chunk {
				args = append(args, zone, stage, r.Topic, unix(r.Hour), r.BU, r.RetainedBytes, r.BytesIn, r.BytesOut, r.Partitions)
			}
			if err := exec(`INSERT INTO usage_hours (zone, stage, topic, hour, bu, retained, bytes_in, bytes_out, partitions)
			VALUES `+strings.TrimSuffix(values, ", "), args...); err != nil {
				return err
			}
		}
		if err := exec(`DELETE FROM usage_unit_hours WHERE zone = ? AND stage = ? AND hour >= ? AND hour <= ?`, zone, stage, lo, hi); err != nil {
			return err
		}
		if err := exec(`INSERT INTO usage_unit_hours (zone, stage, bu, hour, retained, bytes_in, bytes_out, partitions)
			SELECT zone, stage, bu, hour, SUM(retained), SUM(bytes_in), SUM(bytes_out), SUM(partitions) FROM usage_hours
			WHERE zone = ? AND stage = ? AND hour >= ? AND hour <= ? GROUP BY zone, stage, bu, hour`, zone, stage, lo, hi); err != nil {
			return err
		}
		if err := exec(`DELETE FROM usage_days WHERE zone = ? AND stage = ? AND day >= ? AND day < ?`, zone, stage, dayLo, dayHi); err != nil {
			return err
		}
		if err := exec(`INSERT INTO usage_days (zone, stage, topic, day, bu, retained, bytes_in, bytes_out, partitions, hours)
			SELECT zone, stage, topic, hour - hour % 86400, MAX(bu), AVG(retained), SUM(bytes_in), SUM(bytes_out), AVG(partitions), COUNT(*)
			FROM usage_hours WHERE zone = ? AND stage = ? AND hour >= ? AND hour < ? GROUP BY zone, stage, topic, hour - hour % 86400`,
			zone, stage, dayLo, dayHi); err != nil {
			return err
		}
		if err := exec(`DELETE FROM usage_unit_days WHERE zone = ? AND stage = ? AND day >= ? AND day < ?`, zone, stage, dayLo, dayHi); err != nil {
			return err
		}
		return exec(`INSERT INTO usage_unit_days (zone, stage, bu, day, retained, bytes_in, bytes_out, partitions, hours, topics)
			SELECT zone, stage, bu, day, SUM(retained), SUM(bytes_in), SUM(bytes_out), SUM(partitions), MAX(hours), COUNT(*)
			FROM usage_days WHERE zone = ? AND stage = ? AND day >= ? AND day < ? GROUP BY zone, stage, bu, day`, zone, stage, dayLo, dayHi)
	})
}

// How many hours a delete names and rows an insert writes: well inside
// SQLite's and PostgreSQL's limits on a statement's parameters.
const (
	hoursPerDelete = 500
	rowsPerInsert  = 200
)

// placeholders is n parameters, comma-separated.
func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

// UsageMark is the last hour collected of a stage.
func (d *DB) UsageMark(ctx context.Context, zone, stage string) (time.Time, error) {
	ctx, cancel := d.ctx(ctx)
	defer cancel()
	var h int64
	err := d.db.QueryRowContext(ctx, d.q(`SELECT hour FROM usage_marks WHERE zone = ? AND stage = ?`), zone, stage).Scan(&h)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, Fail(err)
	}
	return fromUnix(h), nil
}

// SetUsageMark moves a stage's mark.
func (d *DB) SetUsageMark(ctx context.Context, zone, stage string, hour time.Time) error {
	_, err := d.exec(ctx, `INSERT INTO usage_marks (zone, stage, hour) VALUES (?, ?, ?)
		ON CONFLICT (zone, stage) DO UPDATE SET hour = excluded.hour`, zone, stage, unix(hour))
	return err
}

// AddUsageGaps records hours that could not be read.
func (d *DB) AddUsageGaps(ctx context.Context, gaps []store.UsageGap) error {
	if len(gaps) == 0 {
		return nil
	}
	return d.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		for _, g := range gaps {
			if _, err := tx.ExecContext(ctx, d.q(`INSERT INTO usage_gaps (zone, stage, hour, reason, tries) VALUES (?, ?, ?, ?, 1)
				ON CONFLICT (zone, stage, hour) DO UPDATE SET reason = excluded.reason, tries = usage_gaps.tries + 1`),
				g.Zone, g.Stage, unix(g.Hour), g.Reason); err != nil {
				return err
			}
		}
		return nil
	})
}

// UsageGaps lists gaps of [from, to).
func (d *DB) UsageGaps(ctx context.Context, zone, stage string, from, to time.Time) ([]store.UsageGap, error) {
	return queryAll(ctx, d, func(row interface{ Scan(...any) error }) (store.UsageGap, error) {
		var g store.UsageGap
		var h int64
		err := row.Scan(&g.Zone, &g.Stage, &h, &g.Reason, &g.Tries)
		g.Hour = fromUnix(h)
		return g, err
	}, `SELECT zone, stage, hour, reason, tries FROM usage_gaps WHERE (? = '' OR zone = ?) AND (? = '' OR stage = ?) AND hour >= ? AND hour < ?
		ORDER BY zone, stage, hour`, zone, zone, stage, stage, unix(from), unix(to))
}

func scanHour(row interface{ Scan(...any) error }) (store.UsageHour, error) {
	var u store.UsageHour
	var h int64
	err := row.Scan(&u.Zone, &u.Stage, &u.Topic, &u.BU, &h, &u.RetainedBytes, &u.BytesIn, &u.BytesOut, &u.Partitions)
	u.Hour = fromUnix(h)
	return u, err
}

func scanDay(row interface{ Scan(...any) error }) (store.UsageDay, error) {
	var u store.UsageDay
	var day int64
	err := row.Scan(&u.Zone, &u.Stage, &u.Topic, &u.BU, &day, &u.RetainedBytes, &u.BytesIn, &u.BytesOut, &u.Partitions, &u.Hours, &u.Topics)
	u.Day = fromUnix(day)
	return u, err
}

// UnitUsageHours lists units' hours.
func (d *DB) UnitUsageHours(ctx context.Context, zone, stage, bu string, from, to time.Time) ([]store.UsageHour, error) {
	return queryAll(ctx, d, scanHour, `SELECT zone, stage, '', bu, hour, retained, bytes_in, bytes_out, partitions FROM usage_unit_hours
		WHERE zone = ? AND stage = ? AND (? = '*' OR bu = ?) AND hour >= ? AND hour < ? ORDER BY hour, bu`,
		zone, stage, bu, bu, unix(from), unix(to))
}

// UnitUsageDays lists units' days.
func (d *DB) UnitUsageDays(ctx context.Context, zone, stage, bu string, from, to time.Time) ([]store.UsageDay, error) {
	return queryAll(ctx, d, scanDay, `SELECT zone, stage, '', bu, day, retained, bytes_in, bytes_out, partitions, hours, topics FROM usage_unit_days
		WHERE zone = ? AND stage = ? AND (? = '*' OR bu = ?) AND day >= ? AND day < ? ORDER BY day, bu`,
		zone, stage, bu, bu, unix(from), unix(to))
}

// TopicUsageDays lists a unit's topics' days.
func (d *DB) TopicUsageDays(ctx context.Context, zone, stage, bu string, from, to time.Time) ([]store.UsageDay, error) {
	return queryAll(ctx, d, scanDay, `SELECT zone, stage, topic, bu, day, retained, bytes_in, bytes_out, partitions, hours, 1 FROM usage_days
		WHERE zone = ? AND stage = ? AND (? = '*' OR bu = ?) AND day >= ? AND day < ? ORDER BY day, topic`,
		zone, stage, bu, bu, unix(from), unix(to))
}

// TopicUsageHours lists a unit's topics' hours.
func (d *DB) TopicUsageHours(ctx context.Context, zone, stage, bu string, from, to time.Time) ([]store.UsageHour, error) {
	return queryAll(ctx, d, scanHour, `SELECT zone, stage, topic, bu, hour, retained, bytes_in, bytes_out, partitions FROM usage_hours
		WHERE zone = ? AND stage = ? AND (? = '*' OR bu = ?) AND hour >= ? AND hour < ? ORDER BY hour, topic`,
		zone, stage, bu, bu, unix(from), unix(to))
}

// DeleteUsageBefore drops hours and days past their retention, and the
// costs of those days.
func (d *DB) DeleteUsageBefore(ctx context.Context, hours, days time.Time) (int, error) {
	total := 0
	for _, q := range []struct {
		sql string
		at  time.Time
	}{
		{`DELETE FROM usage_hours WHERE hour < ?`, hours},
		{`DELETE FROM usage_unit_hours WHERE hour < ?`, hours},
		{`DELETE FROM usage_gaps WHERE hour < ?`, days},
		{`DELETE FROM usage_days WHERE day < ?`, days},
		{`DELETE FROM usage_unit_days WHERE day < ?`, days},
		{`DELETE FROM cost_lines WHERE day < ?`, days},
		{`DELETE FROM cost_shares WHERE day < ?`, days},
		{`DELETE FROM topic_costs WHERE month < ?`, days.AddDate(0, -1, 0)},
	} {
		n, err := affected(d.exec(ctx, q.sql, unix(q.at)))
		if err != nil {
			return total, err
		}
		total += n
	}
	return total, nil
}
