package sqlstore

import (
	"context"
	"database/sql"
	"time"

	"github.com/edh-platform/rms-portal/internal/store"
)

// WebhookRecords lists the webhooks, by id.
func (d *DB) WebhookRecords(ctx context.Context) ([]store.WebhookRecord, error) {
	ctx, cancel := d.ctx(ctx)
	defer cancel()
	rows, err := d.db.QueryContext(ctx, `SELECT id, zone, bu, url, secret, created_by, created_at, cursor_txid, cursor_seq, stage, format, alerts_only
		FROM webhooks ORDER BY id`)
	if err != nil {
		return nil, Fail(err)
	}
	defer rows.Close()
	var out []store.WebhookRecord
	for rows.Next() {
		var r store.WebhookRecord
		var at int64
		if err := rows.Scan(&r.ID, &r.Zone, &r.BU, &r.URL, &r.Secret, &r.CreatedBy, &at, &r.Cursor.TxID, &r.Cursor.Seq, &r.Stage, &r.Format, &r.AlertsOnly); err != nil {
			return nil, Fail(err)
		}
		r.Created = fromMicros(at)
		out = append(out, r)
	}
	return out, Fail(rows.Err())
}

// CreateWebhookRecord stores a webhook; ErrExists when the id is taken.
func (d *DB) CreateWebhookRecord(ctx context.Context, r store.WebhookRecord) error {
	n, err := affected(d.exec(ctx, `INSERT INTO webhooks (id, zone, bu, url, secret, created_by, created_at, cursor_txid, cursor_seq, stage, format, alerts_only)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`, r.ID, r.Zone, r.BU, r.URL, r.Secret, r.CreatedBy, micros(r.Created),
		r.Cursor.TxID, r.Cursor.Seq, r.Stage, r.Format, r.AlertsOnly))
	if err != nil {
		return err
	}
	if n == 0 {
		return store.ErrExists
	}
	return nil
}

// ResealWebhookSecret replaces a webhook's secret while it is still old.
func (d *DB) ResealWebhookSecret(ctx context.Context, id, old, sealed string) error {
	_, err := d.exec(ctx, `UPDATE webhooks SET secret = ? WHERE id = ? AND secret = ?`, sealed, id, old)
	return err
}

// DeleteWebhookRecord removes a webhook and its deliveries.
func (d *DB) DeleteWebhookRecord(ctx context.Context, id string) error {
	if _, err := d.exec(ctx, `DELETE FROM webhook_deliveries WHERE webhook_id = ?`, id); err != nil {
		return err
	}
	return found(affected(d.exec(ctx, `DELETE FROM webhooks WHERE id = ?`, id)))
}

// QueueDeliveries adds pending deliveries and moves the cursor, in one
// transaction: a crash between the two queues nothing twice (the rows
// are keyed by webhook and event) and loses nothing. An event queued
// again with another body (published as unknown, now settled) is
// delivered again, as it is now.
func (d *DB) QueueDeliveries(ctx context.Context, webhookID string, ds []store.Delivery, cursor store.OutboxPos) error {
	return d.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		for _, x := range ds {
			if _, err := tx.ExecContext(ctx, d.q(`INSERT INTO webhook_deliveries (webhook_id, event_id, event_at, state, attempts, next_at, body, subject)
				VALUES (?, ?, ?, ?, 0, ?, ?, ?) ON CONFLICT (webhook_id, event_id) DO UPDATE
				SET body = excluded.body, subject = excluded.subject, state = excluded.state, attempts = 0, next_at = excluded.next_at,
					done_at = 0, claimed_by = '', claimed_until = 0
				WHERE webhook_deliveries.body <> excluded.body`),
				webhookID, x.EventID, micros(x.EventAt), store.DeliveryPending, micros(x.Next), string(x.Body), x.Subject); err != nil {
				return err
			}
		}
		_, err := tx.ExecContext(ctx, d.q(`UPDATE webhooks SET cursor_txid = ?, cursor_seq = ? WHERE id = ? AND (cursor_txid < ? OR cursor_txid = ? AND cursor_seq < ?)`),
			cursor.TxID, cursor.Seq, webhookID, cursor.TxID, cursor.TxID, cursor.Seq)
		return err
	})
}

const deliveryColumns = `webhook_id, event_id, event_at, state, attempts, next_at, last_status, last_error, done_at, body, subject, claimed_by, claimed_until`

// scanDelivery reads one delivery row (deliveryColumns).
func scanDelivery(row interface{ Scan(...any) error }) (store.Delivery, error) {
	var x store.Delivery
	var at, next, done, claimed int64
	var body string
	if err := row.Scan(&x.WebhookID, &x.EventID, &at, &x.State, &x.Attempts, &next, &x.LastStatus, &x.LastError, &done, &body,
		&x.Subject, &x.ClaimedBy, &claimed); err != nil {
		return x, err
	}
	x.EventAt, x.Next, x.Done, x.Body, x.ClaimedUntil = fromMicros(at), fromMicros(next), fromMicros(done), []byte(body), fromMicros(claimed)
	return x, nil
}

// PendingDeliveries lists pending deliveries, oldest event first.
func (d *DB) PendingDeliveries(ctx context.Context, limit int) ([]store.Delivery, error) {
	return queryAll(ctx, d, scanDelivery, `SELECT `+deliveryColumns+` FROM webhook_deliveries WHERE state = ? ORDER BY event_id LIMIT ?`,
		store.DeliveryPending, limit)
}

// ClaimDelivery gives holder a pending delivery's next attempt.
func (d *DB) ClaimDelivery(ctx context.Context, webhookID string, eventID int64, holder string, until, now time.Time) (bool, error) {
	n, err := affected(d.exec(ctx, `UPDATE webhook_deliveries SET claimed_by = ?, claimed_until = ?
		WHERE webhook_id = ? AND event_id = ? AND state = ? AND (claimed_until < ? OR claimed_by = ?)`,
		holder, micros(until), webhookID, eventID, store.DeliveryPending, micros(now), holder))
	return n == 1, err
}

// SaveDelivery records an attempt's outcome while holder holds it.
func (d *DB) SaveDelivery(ctx context.Context, x store.Delivery, holder string) (bool, error) {
	n, err := affected(d.exec(ctx, `UPDATE webhook_deliveries SET state = ?, attempts = ?, next_at = ?, last_status = ?, last_error = ?, done_at = ?,
		claimed_by = '', claimed_until = 0
		WHERE webhook_id = ? AND event_id = ? AND claimed_by = ?`, x.State, x.Attempts, micros(x.Next), x.LastStatus, x.LastError, micros(x.Done),
		x.WebhookID, x.EventID, holder))
	return n == 1, err
}

// Deliveries lists a webhook's deliveries, newest event first.
func (d *DB) Deliveries(ctx context.Context, webhookID string, limit int) ([]store.Delivery, error) {
	return queryAll(ctx, d, scanDelivery, `SELECT `+deliveryColumns+` FROM webhook_deliveries WHERE webhook_id = ? ORDER BY event_id DESC LIMIT ?`, webhookID, limit)
}

// DeliveryCounts counts every webhook's deliveries by state, in one query.
func (d *DB) DeliveryCounts(ctx context.Context) (map[string]map[string]int, error) {
	ctx, cancel := d.ctx(ctx)
	defer cancel()
	rows, err := d.db.QueryContext(ctx, `SELECT webhook_id, state, COUNT(*) FROM webhook_deliveries GROUP BY webhook_id, state`)
	if err != nil {
		return nil, Fail(err)
	}
	defer rows.Close()
	out := map[string]map[string]int{}
	for rows.Next() {
		var id, state string
		var n int
		if err := rows.Scan(&id, &state, &n); err != nil {
			return nil, Fail(err)
		}
		if out[id] == nil {
			out[id] = map[string]int{}
		}
		out[id][state] = n
	}
	return out, Fail(rows.Err())
}
