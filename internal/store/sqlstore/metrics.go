package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/edh-platform/rms-portal/internal/store"
)

// MetricResult returns a stored Metrics API answer.
func (d *DB) MetricResult(ctx context.Context, key string) ([]byte, time.Time, error) {
	ctx, cancel := d.ctx(ctx)
	defer cancel()
	var body string
	var at int64
	err := d.db.QueryRowContext(ctx, d.q(`SELECT body, fetched_at FROM metric_results WHERE key = ?`), key).Scan(&body, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, time.Time{}, store.ErrNotFound
	}
	if err != nil {
		return nil, time.Time{}, Fail(err)
	}
	return []byte(body), fromMicros(at), nil
}

// PutMetricResult stores (or replaces) an answer.
func (d *DB) PutMetricResult(ctx context.Context, key string, body []byte, at time.Time) error {
	_, err := d.exec(ctx, `INSERT INTO metric_results (key, body, fetched_at) VALUES (?, ?, ?)
		ON CONFLICT (key) DO UPDATE SET body = excluded.body, fetched_at = excluded.fetched_at`, key, string(body), micros(at))
	return err
}

// DeleteMetricResultsBefore removes answers fetched before t.
func (d *DB) DeleteMetricResultsBefore(ctx context.Context, t time.Time) (int, error) {
	return affected(d.exec(ctx, `DELETE FROM metric_results WHERE fetched_at < ?`, micros(t)))
}
