package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"time"
)

// TakeTokens takes n tokens from the shared bucket name, which refills at
// perSecond up to burst, when it holds n and keep more (at most burst in
// all: a take larger than the bucket waits for it full and leaves it in
// debt), or says how long until it will; owed takes them whatever the
// bucket holds, into debt that later takers wait out. The take is one
// conditional UPDATE, so replicas taking at once never both take the last
// tokens; a replica whose clock is behind refills nothing.
func (d *DB) TakeTokens(ctx context.Context, name string, n, keep int, owed bool, perSecond float64, burst int, now time.Time) (time.Duration, error) {
	if perSecond <= 0 {
		return 0, nil
	}
	take := float64(max(n, 1))
	want := float64(min(max(n, 1)+max(keep, 0), max(burst, 1)))
	perMicro := perSecond / 1e6
	at := micros(now)
	if _, err := d.exec(ctx, `INSERT INTO rate_buckets (name, tokens, updated_at) VALUES (?, CAST(? AS DOUBLE PRECISION), ?)
		ON CONFLICT (name) DO NOTHING`, name, float64(burst), at); err != nil {
		return 0, err
	}
	// refilled is what the bucket holds at now.
	const refilled = `CASE WHEN tokens + (CASE WHEN CAST(? AS BIGINT) > updated_at THEN CAST(? AS BIGINT) - updated_at ELSE 0 END) * CAST(? AS DOUBLE PRECISION) > CAST(? AS DOUBLE PRECISION)
		THEN CAST(? AS DOUBLE PRECISION)
		ELSE tokens + (CASE WHEN CAST(? AS BIGINT) > updated_at THEN CAST(? AS BIGINT) - updated_at ELSE 0 END) * CAST(? AS DOUBLE PRECISION) END`
	args := []any{at, at, perMicro, float64(burst), float64(burst), at, at, perMicro}
	update := append(append(append(append(slices.Clone(args), take, at, at), name), args...), want, owedFlag(owed))
	taken, err := affected(d.exec(ctx, `UPDATE rate_buckets SET tokens = `+refilled+` - CAST(? AS DOUBLE PRECISION),
		updated_at = CASE WHEN CAST(? AS BIGINT) > updated_at THEN CAST(? AS BIGINT) ELSE updated_at END
		WHERE name = ? AND (`+refilled+` >= CAST(? AS DOUBLE PRECISION) OR CAST(? AS INTEGER) = 1)`, update...))
	if err != nil || taken == 1 {
		return 0, err
	}
	qctx, cancel := d.ctx(ctx)
	defer cancel()
	var left float64
	err = d.db.QueryRowContext(qctx, d.q(`SELECT `+refilled+` FROM rate_buckets WHERE name = ?`), append(args, name)...).Scan(&left)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, Fail(err)
	}
	wait := time.Duration((want - left) / perSecond * float64(time.Second))
	return max(wait, time.Millisecond), nil
}

func owedFlag(owed bool) int {
	if owed {
		return 1
	}
	return 0
}
