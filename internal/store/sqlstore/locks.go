package sqlstore

import (
	"context"
	"database/sql/driver"
	"hash/fnv"
	"time"
)

// lockLease is how long a lock row on SQLite outlives a holder that died
// without releasing it.
const lockLease = 2 * time.Minute

// TryLock takes the lock named key for holder when it is free. On
// PostgreSQL it is a session advisory lock, held by a connection of its
// own until unlock (and released by the server if the process dies); on
// SQLite, a row in locks that lapses after lockLease.
func (d *DB) TryLock(ctx context.Context, key, holder string) (unlock func(), ok bool, err error) {
	if d.dialect == Postgres {
		return d.tryAdvisory(ctx, key)
	}
	now := time.Now()
	n, err := affected(d.exec(ctx, `INSERT INTO locks (key, holder, until) VALUES (?, ?, ?)
		ON CONFLICT (key) DO UPDATE SET holder = excluded.holder, until = excluded.until WHERE locks.until < ?`,
		key, holder, micros(now.Add(lockLease)), micros(now)))
	if err != nil || n == 0 {
		return nil, false, err
	}
	return func() {
		uctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_, _ = d.exec(uctx, `DELETE FROM locks WHERE key = ? AND holder = ?`, key, holder)
	}, true, nil
}

// tryAdvisory takes a session advisory lock on a connection it keeps.
func (d *DB) tryAdvisory(ctx context.Context, key string) (func(), bool, error) {
	h := fnv.New64a()
	_, _ = h.Write([]byte("rms-portal lock\x00" + key))
	id := int64(h.Sum64())
	ctx, cancel := d.ctx(ctx)
	defer cancel()
	conn, err := d.db.Conn(ctx)
	if err != nil {
		return nil, false, Fail(err)
	}
	var ok bool
	if err := conn.QueryRowContext(ctx, `SELECT pg_try_advisory_lock($1)`, id).Scan(&ok); err != nil || !ok {
		_ = conn.Close()
		return nil, false, Fail(err)
	}
	return func() {
		uctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		var released bool
		if err := conn.QueryRowContext(uctx, `SELECT pg_advisory_unlock($1)`, id).Scan(&released); err != nil || !released {
			// A connection that may still hold the lock must not go back
			// to the pool: closing it releases the lock on the server.
			_ = conn.Raw(func(any) error { return driver.ErrBadConn })
		}
		_ = conn.Close()
	}, true, nil
}
