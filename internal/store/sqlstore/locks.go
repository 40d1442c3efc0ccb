package sqlstore

import (
	"context"
	"database/sql/driver"
	"hash/fnv"
	"strings"
	"time"
)

// lockLease is how long a lock row on SQLite outlives a holder that died
// without releasing it.
const lockLease = 2 * time.Minute

// TryLock takes the locks named keys for holder when every one is free,
// all or none. On PostgreSQL they are session advisory locks, held by one
// connection of their own until unlock (and released by the server if the
// process dies); on SQLite, rows in locks that lapse after lockLease,
// inserted in one transaction.
func (d *DB) TryLock(ctx context.Context, keys []string, holder string) (unlock func(), ok bool, err error) {
	if len(keys) == 0 {
		return func() {}, true, nil
	}
	if d.dialect == Postgres {
		return d.tryAdvisory(ctx, keys)
	}
	ctx, cancel := d.ctx(ctx)
	defer cancel()
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, false, Fail(err)
	}
	defer func() { _ = tx.Rollback() }()
	now := time.Now()
	for _, key := range keys {
		n, err := affected(tx.ExecContext(ctx, d.q(`INSERT INTO locks (key, holder, until) VALUES (?, ?, ?)
			ON CONFLICT (key) DO UPDATE SET holder = excluded.holder, until = excluded.until WHERE locks.until < ?`),
			key, holder, micros(now.Add(lockLease)), micros(now)))
		if err != nil || n == 0 {
			return nil, false, Fail(err)
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, false, Fail(err)
	}
	return func() {
		uctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		for start := 0; start < len(keys); start += 500 {
			chunk := keys[start:min(start+500, len(keys))]
			args := []any{holder}
			for _, k := range chunk {
				args = append(args, k)
			}
			_, _ = d.exec(uctx, `DELETE FROM locks WHERE holder = ? AND key IN (?`+strings.Repeat(", ?", len(chunk)-1)+`)`, args...)
		}
	}, true, nil
}

// tryAdvisory takes session advisory locks on a connection it keeps, in
// one round trip, and gives back those it got when it did not get all.
func (d *DB) tryAdvisory(ctx context.Context, keys []string) (func(), bool, error) {
	ids := make([]int64, len(keys))
	for i, key := range keys {
		h := fnv.New64a()
		_, _ = h.Write([]byte("rms-portal lock\x00" + key))
		ids[i] = int64(h.Sum64())
	}
	ctx, cancel := d.ctx(ctx)
	defer cancel()
	conn, err := d.db.Conn(ctx)
	if err != nil {
		return nil, false, Fail(err)
	}
	// release gives locks back; a connection that may still hold one must
	// not go back to the pool: closing it releases them on the server.
	release := func(ctx context.Context, ids []int64) {
		var failed bool
		rows, err := conn.QueryContext(ctx, `SELECT pg_advisory_unlock(k) FROM unnest($1::bigint[]) AS t(k)`, ids)
		if err == nil {
			for rows.Next() {
				var released bool
				if rows.Scan(&released) != nil || !released {
					failed = true
				}
			}
			err = rows.Close()
		}
		if err != nil || failed {
			_ = conn.Raw(func(any) error { return driver.ErrBadConn })
		}
		_ = conn.Close()
	}
	rows, err := conn.QueryContext(ctx, `SELECT k, pg_try_advisory_lock(k) FROM unnest($1::bigint[]) AS t(k)`, ids)
	if err != nil {
		_ = conn.Close()
		return nil, false, Fail(err)
	}
	var taken []int64
	for rows.Next() {
		var id int64
		var ok bool
		if err := rows.Scan(&id, &ok); err == nil && ok {
			taken = append(taken, id)
		}
	}
	err = rows.Close()
	if err != nil || len(taken) < len(ids) {
		if len(taken) > 0 {
			release(ctx, taken)
		} else {
			_ = conn.Close()
		}
		return nil, false, Fail(err)
	}
	return func() {
		uctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		release(uctx, ids)
	}, true, nil
}
