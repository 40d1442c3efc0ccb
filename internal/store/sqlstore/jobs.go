package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/edh-platform/rms-portal/internal/store"
)

const jobColumns = `id, kind, bu, stage, owner, principal, items, state, error, replica, created_at, heartbeat_at, finished_at`

func scanJob(row interface{ Scan(...any) error }) (store.Job, error) {
	var j store.Job
	var created, beat, finished int64
	err := row.Scan(&j.ID, &j.Kind, &j.BU, &j.Stage, &j.Owner, &j.Principal, &j.Items, &j.State, &j.Error, &j.Replica,
		&created, &beat, &finished)
	j.Created, j.Heartbeat, j.Finished = fromMicros(created), fromMicros(beat), fromMicros(finished)
	return j, err
}

// CreateJob stores a new job.
func (d *DB) CreateJob(ctx context.Context, j store.Job) error {
	_, err := d.exec(ctx, `INSERT INTO jobs (`+jobColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		j.ID, j.Kind, j.BU, j.Stage, j.Owner, j.Principal, j.Items, j.State, j.Error, j.Replica,
		micros(j.Created), micros(j.Heartbeat), micros(j.Finished))
	return err
}

// Job returns a job with its results.
func (d *DB) Job(ctx context.Context, id string) (store.Job, error) {
	ctx, cancel := d.ctx(ctx)
	defer cancel()
	j, err := scanJob(d.db.QueryRowContext(ctx, d.q(`SELECT `+jobColumns+` FROM jobs WHERE id = ?`), id))
	if errors.Is(err, sql.ErrNoRows) {
		return store.Job{}, store.ErrNotFound
	}
	if err != nil {
		return store.Job{}, Fail(err)
	}
	rows, err := d.db.QueryContext(ctx, d.q(`SELECT idx, result FROM job_results WHERE job_id = ? ORDER BY idx`), id)
	if err != nil {
		return store.Job{}, Fail(err)
	}
	defer rows.Close()
	for rows.Next() {
		var idx int
		var res []byte
		if err := rows.Scan(&idx, &res); err != nil {
			return store.Job{}, Fail(err)
		}
		for len(j.Results) <= idx {
			j.Results = append(j.Results, nil)
		}
		j.Results[idx] = res
	}
	return j, Fail(rows.Err())
}

// SaveJobResult records one item's state, fenced by the lease.
func (d *DB) SaveJobResult(ctx context.Context, id, replica string, index int, result []byte, at time.Time) error {
	ctx, cancel := d.ctx(ctx)
	defer cancel()
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return Fail(err)
	}
	defer func() { _ = tx.Rollback() }()
	n, err := affected(tx.ExecContext(ctx, d.q(`UPDATE jobs SET heartbeat_at = ? WHERE id = ? AND replica = ? AND state = 'running'`),
		micros(at), id, replica))
	if err != nil {
		return Fail(err)
	}
	if n == 0 {
		return store.ErrLeaseLost
	}
	if _, err := tx.ExecContext(ctx, d.q(`INSERT INTO job_results (job_id, idx, result) VALUES (?, ?, ?)
		ON CONFLICT (job_id, idx) DO UPDATE SET result = excluded.result`), id, index, result); err != nil {
		return Fail(err)
	}
	return Fail(tx.Commit())
}

// Heartbeat renews a replica's lease of a running job.
func (d *DB) Heartbeat(ctx context.Context, id, replica string, at time.Time) (bool, error) {
	n, err := affected(d.exec(ctx, `UPDATE jobs SET heartbeat_at = ? WHERE id = ? AND replica = ? AND state = 'running'`, micros(at), id, replica))
	return n == 1, err
}

// ClaimJob gives a stale running job to a replica.
func (d *DB) ClaimJob(ctx context.Context, id, replica string, at, staleBefore time.Time) (bool, error) {
	n, err := affected(d.exec(ctx, `UPDATE jobs SET replica = ?, heartbeat_at = ? WHERE id = ? AND state = 'running' AND heartbeat_at < ?`,
		replica, micros(at), id, micros(staleBefore)))
	return n == 1, err
}

// ReleaseJob makes a replica's running job claimable at once.
func (d *DB) ReleaseJob(ctx context.Context, id, replica string) error {
	_, err := d.exec(ctx, `UPDATE jobs SET heartbeat_at = 0 WHERE id = ? AND replica = ? AND state = 'running'`, id, replica)
	return err
}

// FinishJob ends a running job.
func (d *DB) FinishJob(ctx context.Context, id, replica, state, message string, at time.Time) (bool, error) {
	n, err := affected(d.exec(ctx, `UPDATE jobs SET state = ?, error = ?, finished_at = ?, heartbeat_at = ?
		WHERE id = ? AND state = 'running' AND (CAST(? AS TEXT) = '' OR replica = ?)`, state, message, micros(at), micros(at), id, replica, replica))
	return n == 1, err
}

// StaleJobs lists running jobs whose replica stopped beating.
func (d *DB) StaleJobs(ctx context.Context, before time.Time) ([]store.Job, error) {
	ctx, cancel := d.ctx(ctx)
	defer cancel()
	rows, err := d.db.QueryContext(ctx, d.q(`SELECT `+jobColumns+` FROM jobs WHERE state = 'running' AND heartbeat_at < ? LIMIT 100`), micros(before))
	if err != nil {
		return nil, Fail(err)
	}
	defer rows.Close()
	var out []store.Job
	for rows.Next() {
		j, err := scanJob(rows)
		if err != nil {
			return nil, Fail(err)
		}
		out = append(out, j)
	}
	return out, Fail(rows.Err())
}

// CountJobs counts jobs by state.
func (d *DB) CountJobs(ctx context.Context) (map[string]int, error) {
	ctx, cancel := d.ctx(ctx)
	defer cancel()
	rows, err := d.db.QueryContext(ctx, `SELECT state, COUNT(*) FROM jobs GROUP BY state`)
	if err != nil {
		return nil, Fail(err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var state string
		var n int
		if err := rows.Scan(&state, &n); err != nil {
			return nil, Fail(err)
		}
		out[state] = n
	}
	return out, Fail(rows.Err())
}

// DeleteFinishedJobs removes jobs finished before a time.
func (d *DB) DeleteFinishedJobs(ctx context.Context, before time.Time) (int, error) {
	if _, err := d.exec(ctx, `DELETE FROM job_results WHERE job_id IN (SELECT id FROM jobs WHERE state <> 'running' AND finished_at < ?)`, micros(before)); err != nil {
		return 0, err
	}
	return affected(d.exec(ctx, `DELETE FROM jobs WHERE state <> 'running' AND finished_at < ?`, micros(before)))
}
