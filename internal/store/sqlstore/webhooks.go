package sqlstore

import (
	"context"

	"github.com/edh-platform/rms-portal/internal/store"
)

// WebhookRecords lists the webhooks, by id.
func (d *DB) WebhookRecords(ctx context.Context) ([]store.WebhookRecord, error) {
	ctx, cancel := d.ctx(ctx)
	defer cancel()
	rows, err := d.db.QueryContext(ctx, `SELECT id, zone, bu, url, secret, created_by, created_at, last_event FROM webhooks ORDER BY id`)
	if err != nil {
		return nil, Fail(err)
	}
	defer rows.Close()
	var out []store.WebhookRecord
	for rows.Next() {
		var r store.WebhookRecord
		var at int64
		if err := rows.Scan(&r.ID, &r.Zone, &r.BU, &r.URL, &r.Secret, &r.CreatedBy, &at, &r.Cursor); err != nil {
			return nil, Fail(err)
		}
		r.Created = fromMicros(at)
		out = append(out, r)
	}
	return out, Fail(rows.Err())
}

// CreateWebhookRecord stores a webhook; ErrExists when the id is taken.
func (d *DB) CreateWebhookRecord(ctx context.Context, r store.WebhookRecord) error {
	n, err := affected(d.exec(ctx, `INSERT INTO webhooks (id, zone, bu, url, secret, created_by, created_at, last_event) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO NOTHING`, r.ID, r.Zone, r.BU, r.URL, r.Secret, r.CreatedBy, micros(r.Created), r.Cursor))
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
// are keyed by webhook and event) and loses nothing.
func (d *DB) QueueDeliveries(ctx context.Context, webhookID string, ds []store.Delivery, cursor int64) error {
	ctx, cancel := d.ctx(ctx)
	defer cancel()
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return Fail(err)
	}
	defer func() { _ = tx.Rollback() }()
	for _, x := range ds {
		if _, err := tx.ExecContext(ctx, d.q(`INSERT INTO webhook_deliveries (webhook_id, event_id, event_at, state, attempts, next_at, body)
			VALUES (?, ?, ?, ?, 0, ?, ?) ON CONFLICT (webhook_id, event_id) DO NOTHING`),
			webhookID, x.EventID, micros(x.EventAt), store.DeliveryPending, micros(x.Next), string(x.Body)); err != nil {
			return Fail(err)
		}
	}
	if _, err := tx.ExecContext(ctx, d.q(`UPDATE webhooks SET last_event = ? WHERE id = ? AND last_event < ?`), cursor, webhookID, cursor); err != nil {
		return Fail(err)
	}
	return Fail(tx.Commit())
}

const deliveryColumns = `webhook_id, event_id, event_at, state, attempts, next_at, last_status, last_error, done_at, body`

// scanDelivery reads one delivery row (deliveryColumns).
func scanDelivery(row interface{ Scan(...any) error }) (store.Delivery, error) {
	var x store.Delivery
	var at, next, done int64
	var body string
	if err := row.Scan(&x.WebhookID, &x.EventID, &at, &x.State, &x.Attempts, &next, &x.LastStatus, &x.LastError, &done, &body); err != nil {
		return x, err
	}
	x.EventAt, x.Next, x.Done, x.Body = fromMicros(at), fromMicros(next), fromMicros(done), []byte(body)
	return x, nil
}

// PendingDeliveries lists pending deliveries, oldest event first.
func (d *DB) PendingDeliveries(ctx context.Context, limit int) ([]store.Delivery, error) {
	return queryAll(ctx, d, scanDelivery, `SELECT `+deliveryColumns+` FROM webhook_deliveries WHERE state = ? ORDER BY event_id LIMIT ?`,
		store.DeliveryPending, limit)
}

// SaveDelivery records an attempt's outcome.
func (d *DB) SaveDelivery(ctx context.Context, x store.Delivery) error {
	_, err := d.exec(ctx, `UPDATE webhook_deliveries SET state = ?, attempts = ?, next_at = ?, last_status = ?, last_error = ?, done_at = ?
		WHERE webhook_id = ? AND event_id = ?`, x.State, x.Attempts, micros(x.Next), x.LastStatus, x.LastError, micros(x.Done), x.WebhookID, x.EventID)
	return err
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
