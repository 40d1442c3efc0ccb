package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"
)

// SecretDigests returns a connector's secret digests by setting.
func (d *DB) SecretDigests(ctx context.Context, zone, stage, connector string) (map[string]string, error) {
	ctx, cancel := d.ctx(ctx)
	defer cancel()
	var raw string
	err := d.db.QueryRowContext(ctx, d.q(`SELECT digests FROM connector_secret_digests WHERE zone = ? AND stage = ? AND connector = ?`),
		zone, stage, connector).Scan(&raw)
	out := map[string]string{}
	if errors.Is(err, sql.ErrNoRows) {
		return out, nil
	}
	if err != nil {
		return nil, Fail(err)
	}
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		return nil, err
	}
	return out, nil
}

// SetSecretDigests replaces a connector's secret digests; none removes
// them.
func (d *DB) SetSecretDigests(ctx context.Context, zone, stage, connector string, digests map[string]string) error {
	if len(digests) == 0 {
		_, err := d.exec(ctx, `DELETE FROM connector_secret_digests WHERE zone = ? AND stage = ? AND connector = ?`, zone, stage, connector)
		return err
	}
	raw, err := json.Marshal(digests)
	if err != nil {
		return err
	}
	_, err = d.exec(ctx, `INSERT INTO connector_secret_digests (zone, stage, connector, digests, set_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (zone, stage, connector) DO UPDATE SET digests = excluded.digests, set_at = excluded.set_at`,
		zone, stage, connector, string(raw), micros(time.Now()))
	return err
}
