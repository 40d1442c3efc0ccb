package sqlstore

import (
	"context"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/store"
)

// AcquireLease takes or renews a lease, in the locks table (a lease is a
// lock row that lapses).
func (d *DB) AcquireLease(ctx context.Context, name, holder string, until, now time.Time) (bool, error) {
	n, err := affected(d.exec(ctx, `INSERT INTO locks (key, holder, until) VALUES (?, ?, ?)
		ON CONFLICT (key) DO UPDATE SET holder = excluded.holder, until = excluded.until
		WHERE locks.until < ? OR locks.holder = excluded.holder
		OR EXISTS (SELECT 1 FROM replicas r WHERE r.id = locks.holder AND (r.stopped_at > 0 OR r.stale_at < ?))`,
		"lease:"+name, holder, micros(until), micros(now), micros(now)))
	return n == 1, err
}

const keyColumns = `id, owner, resource, zone, bu, stage, created_by, created_at, expires_at, replaced_by, adopted, state, ready_at, probe`

func scanKey(row interface{ Scan(...any) error }) (store.KeyRecord, error) {
	var k store.KeyRecord
	var created, expires, ready int64
	err := row.Scan(&k.ID, &k.Owner, &k.Resource, &k.Zone, &k.BU, &k.Stage, &k.CreatedBy, &created, &expires, &k.ReplacedBy, &k.Adopted,
		&k.State, &ready, &k.Probe)
	k.Created, k.Expires, k.ReadyAt = fromMicros(created), fromMicros(expires), fromMicros(ready)
	return k, err
}

func keyValues(k store.KeyRecord) []any {
	return []any{k.ID, k.Owner, k.Resource, k.Zone, k.BU, k.Stage, k.CreatedBy, micros(k.Created), micros(k.Expires), k.ReplacedBy, k.Adopted,
		k.State, micros(k.ReadyAt), k.Probe}
}

// SaveKey stores or replaces a key's record. A key's readiness is kept
// once settled: a record saved from an older copy (a rotation ending the
// key it replaces) never takes a settled key back to provisioning.
func (d *DB) SaveKey(ctx context.Context, k store.KeyRecord) error {
	_, err := d.exec(ctx, `INSERT INTO api_keys (`+keyColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET owner = excluded.owner, resource = excluded.resource, zone = excluded.zone, bu = excluded.bu,
		stage = excluded.stage, created_by = excluded.created_by, created_at = excluded.created_at, expires_at = excluded.expires_at,
		replaced_by = excluded.replaced_by, adopted = excluded.adopted,
		state = CASE WHEN api_keys.state = 'provisioning' OR api_keys.state = '' THEN excluded.state ELSE api_keys.state END,
		ready_at = CASE WHEN api_keys.state = 'provisioning' OR api_keys.state = '' THEN excluded.ready_at ELSE api_keys.ready_at END,
		probe = CASE WHEN api_keys.state = 'provisioning' OR api_keys.state = '' THEN excluded.probe ELSE '' END`,
		keyValues(k)...)
	return err
}

// ProvisioningKeys lists the keys still provisioning, oldest first.
func (d *DB) ProvisioningKeys(ctx context.Context, limit int) ([]store.KeyRecord, error) {
	return queryAll(ctx, d, scanKey, `SELECT `+keyColumns+` FROM api_keys WHERE state = ? ORDER BY created_at, id LIMIT ?`, store.KeyProvisioning, limit)
}

// SettleKey ends a key's provisioning and wipes its sealed secret.
func (d *DB) SettleKey(ctx context.Context, id, state string, at time.Time) (bool, error) {
	n, err := affected(d.exec(ctx, `UPDATE api_keys SET state = ?, ready_at = ?, probe = '' WHERE id = ? AND state = ?`,
		state, micros(at), id, store.KeyProvisioning))
	return n == 1, err
}

// Keys returns the records of the keys named, in batches.
func (d *DB) Keys(ctx context.Context, ids []string) (map[string]store.KeyRecord, error) {
	out := map[string]store.KeyRecord{}
	for start := 0; start < len(ids); start += 500 {
		batch := ids[start:min(start+500, len(ids))]
		args := make([]any, len(batch))
		for i, id := range batch {
			args[i] = id
		}
		if err := d.queryKeys(ctx, `SELECT `+keyColumns+` FROM api_keys WHERE id IN (`+strings.Repeat("?, ", len(batch)-1)+`?)`, args, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// StageKeys lists the records of one zone's stage.
func (d *DB) StageKeys(ctx context.Context, zone, stage string) ([]store.KeyRecord, error) {
	out := map[string]store.KeyRecord{}
	if err := d.queryKeys(ctx, `SELECT `+keyColumns+` FROM api_keys WHERE zone = ? AND stage = ?`, []any{zone, stage}, out); err != nil {
		return nil, err
	}
	return slices.SortedFunc(maps.Values(out), func(a, b store.KeyRecord) int { return strings.Compare(a.ID, b.ID) }), nil
}

// ExpiredKeys lists keys whose expiry has passed.
func (d *DB) ExpiredKeys(ctx context.Context, t time.Time, limit int) ([]store.KeyRecord, error) {
	out := map[string]store.KeyRecord{}
	if err := d.queryKeys(ctx, `SELECT `+keyColumns+` FROM api_keys WHERE expires_at > 0 AND expires_at < ? ORDER BY expires_at LIMIT ?`,
		[]any{micros(t), limit}, out); err != nil {
		return nil, err
	}
	return slices.SortedFunc(maps.Values(out), func(a, b store.KeyRecord) int { return a.Expires.Compare(b.Expires) }), nil
}

// CountExpiringKeys counts keys expiring before t, by zone, unit and
// stage.
func (d *DB) CountExpiringKeys(ctx context.Context, t time.Time) ([]store.KeyCount, error) {
	ctx, cancel := d.ctx(ctx)
	defer cancel()
	rows, err := d.db.QueryContext(ctx, d.q(`SELECT zone, bu, stage, COUNT(*) FROM api_keys WHERE expires_at > 0 AND expires_at < ?
		GROUP BY zone, bu, stage ORDER BY zone, bu, stage`), micros(t))
	if err != nil {
		return nil, Fail(err)
	}
	defer rows.Close()
	var out []store.KeyCount
	for rows.Next() {
		var c store.KeyCount
		if err := rows.Scan(&c.Zone, &c.BU, &c.Stage, &c.N); err != nil {
			return nil, Fail(err)
		}
		out = append(out, c)
	}
	return out, Fail(rows.Err())
}

// DeleteKeys forgets keys.
func (d *DB) DeleteKeys(ctx context.Context, ids []string) error {
	for _, id := range ids {
		if _, err := d.exec(ctx, `DELETE FROM api_keys WHERE id = ?`, id); err != nil {
			return err
		}
	}
	return nil
}

func (d *DB) queryKeys(ctx context.Context, query string, args []any, out map[string]store.KeyRecord) error {
	ctx, cancel := d.ctx(ctx)
	defer cancel()
	rows, err := d.db.QueryContext(ctx, d.q(query), args...)
	if err != nil {
		return Fail(err)
	}
	defer rows.Close()
	for rows.Next() {
		k, err := scanKey(rows)
		if err != nil {
			return Fail(err)
		}
		out[k.ID] = k
	}
	return Fail(rows.Err())
}

// MarkRotation records that a rotation of a key began, once.
func (d *DB) MarkRotation(ctx context.Context, k store.KeyRecord, marker string) (bool, error) {
	k.ReplacedBy = ""
	if _, err := d.exec(ctx, `INSERT INTO api_keys (`+keyColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
		keyValues(k)...); err != nil {
		return false, err
	}
	n, err := affected(d.exec(ctx, `UPDATE api_keys SET replaced_by = ? WHERE id = ? AND replaced_by = ''`, marker, k.ID))
	return n == 1, err
}

// ClearRotation ends a rotation that made no key.
func (d *DB) ClearRotation(ctx context.Context, id, marker string) error {
	_, err := d.exec(ctx, `UPDATE api_keys SET replaced_by = '' WHERE id = ? AND replaced_by = ?`, id, marker)
	return err
}

// RotatingKeys lists the keys whose rotation began before before.
func (d *DB) RotatingKeys(ctx context.Context, before time.Time) ([]store.KeyRecord, error) {
	rows, err := queryAll(ctx, d, scanKey, `SELECT `+keyColumns+` FROM api_keys WHERE replaced_by LIKE ? ORDER BY id`, store.RotatingPrefix+"%")
	if err != nil {
		return nil, err
	}
	var out []store.KeyRecord
	for _, k := range rows {
		at, err := time.Parse(time.RFC3339Nano, strings.TrimPrefix(k.ReplacedBy, store.RotatingPrefix))
		if err == nil && at.Before(before) {
			out = append(out, k)
		}
	}
	return out, nil
}
