package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/store"
)

const auditColumns = `at, actor, actor_role, groups, service, source_ip, user_agent, request_id, bu, stage, action, resource, outcome, detail, changes, landing_zone, door`

// auditInsert are the columns an event is stored with: its own and the
// replica that recorded it.
const auditInsert = auditColumns + `, replica`

// AppendAudit stores an event and returns its id; a final event enters
// the outbox in the same transaction.
func (d *DB) AppendAudit(ctx context.Context, e trail.AuditEvent) (int64, error) {
	groups, _ := json.Marshal(e.Groups)
	changes, _ := json.Marshal(e.Changes)
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	var id int64
	err := d.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, d.q(`INSERT INTO audit_events (`+auditInsert+`)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
			micros(e.Time), e.Actor, e.ActorRole, string(groups), e.Service, e.SourceIP, e.UserAgent, e.RequestID,
			e.BU, e.Stage, e.Action, e.Resource, e.Outcome, e.Detail, string(changes), e.LandingZone, e.Door, e.Replica).Scan(&id); err != nil {
			return err
		}
		if e.Outcome == "unknown" {
			return nil
		}
		return d.outbox(ctx, tx, id)
	})
	return id, err
}

// outbox puts an event into the outbox as final, once.
func (d *DB) outbox(ctx context.Context, tx *sql.Tx, id int64) error {
	_, err := tx.ExecContext(ctx, d.q(`INSERT INTO event_outbox (event_id, final) VALUES (?, TRUE) ON CONFLICT (event_id, final) DO NOTHING`), id)
	return err
}

// SettleAudit records the outcome of an attempt appended before its
// write: outcome, detail, the resource (which may have gained an id) and
// the changes made; the event enters the outbox in the same transaction.
func (d *DB) SettleAudit(ctx context.Context, id int64, outcome, detail, resource string, changes []trail.Change) error {
	raw, _ := json.Marshal(changes)
	var n int64
	err := d.inTx(ctx, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, d.q(`UPDATE audit_events SET outcome = ?, detail = ?, resource = ?, changes = ? WHERE id = ? AND outcome IN ('unknown', ?)`),
			outcome, detail, resource, string(raw), id, outcome)
		if err != nil {
			return err
		}
		if n, err = res.RowsAffected(); err != nil || n == 0 || outcome == "unknown" {
			return err
		}
		return d.outbox(ctx, tx, id)
	})
	if err != nil || n == 1 {
		return err
	}
	// Settled already (a retry after an answer that was lost), or absent.
	qctx, cancel := d.ctx(ctx)
	defer cancel()
	var one int
	if err := d.db.QueryRowContext(qctx, d.q(`SELECT 1 FROM audit_events WHERE id = ?`), id).Scan(&one); errors.Is(err, sql.ErrNoRows) {
		return store.ErrNotFound
	} else if err != nil {
		return Fail(err)
	}
	return nil
}

// PublishAudit puts an attempt into the outbox as unknown; once settled
// it enters again, as final.
func (d *DB) PublishAudit(ctx context.Context, id int64) error {
	_, err := d.exec(ctx, `INSERT INTO event_outbox (event_id, final) VALUES (?, FALSE) ON CONFLICT (event_id, final) DO NOTHING`, id)
	return err
}

// UnknownAttempts lists the attempts still unknown (and not published as
// such) that began before before, or were begun by a replica known
// stopped, oldest first.
func (d *DB) UnknownAttempts(ctx context.Context, before time.Time, gone store.Gone, limit int) ([]trail.AuditEvent, error) {
	return queryAll(ctx, d, scanAudit, `SELECT id, `+auditColumns+` FROM audit_events
		WHERE outcome = 'unknown' AND NOT EXISTS (SELECT 1 FROM event_outbox o WHERE o.event_id = audit_events.id)
		AND (at < ? OR (at < ? AND replica <> '' AND EXISTS (SELECT 1 FROM replicas r WHERE r.id = audit_events.replica AND (r.stopped_at > 0 OR r.stale_at < ?))))
		ORDER BY id LIMIT ?`, micros(before), micros(gone.Begun), micros(gone.At), limit)
}

// ReplicaAlive records that a replica runs.
func (d *DB) ReplicaAlive(ctx context.Context, id string, at, staleAt time.Time) error {
	_, err := d.exec(ctx, `INSERT INTO replicas (id, started_at, seen_at, stale_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET seen_at = excluded.seen_at, stale_at = excluded.stale_at`, id, micros(at), micros(at), micros(staleAt))
	return err
}

// ReplicaStopped records that a replica stopped.
func (d *DB) ReplicaStopped(ctx context.Context, id string, at time.Time) error {
	_, err := d.exec(ctx, `UPDATE replicas SET stopped_at = ?, seen_at = ? WHERE id = ?`, micros(at), micros(at), id)
	return err
}

// DeleteReplicasBefore forgets the replicas not seen since t.
func (d *DB) DeleteReplicasBefore(ctx context.Context, t time.Time) (int, error) {
	return affected(d.exec(ctx, `DELETE FROM replicas WHERE seen_at < ?`, micros(t)))
}

// UnsettledAttempt finds a request's attempt on a resource whose outcome
// is unknown.
func (d *DB) UnsettledAttempt(ctx context.Context, requestID string, action portal.Action, resource string) (int64, error) {
	ctx, cancel := d.ctx(ctx)
	defer cancel()
	var id int64
	// An attempt the reconciler confirmed by looking (its replica seemed
	// stopped, while a job that resumes it was waiting for the database)
	// is the same attempt: whoever settles it next writes over its
	// detail, and the trail has one event for the change, not two.
	err := d.db.QueryRowContext(ctx, d.q(`SELECT id FROM audit_events WHERE request_id = ? AND action = ? AND resource = ?
		AND (outcome = 'unknown' OR (outcome = 'ok' AND detail LIKE 'confirmed by looking at the upstream%')) ORDER BY id LIMIT 1`),
		requestID, action, resource).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, store.ErrNotFound
	}
	return id, Fail(err)
}

// auditQuery is the query of ListAudit: newest first, paged by key (id <
// before), every filter a condition that an index can serve.
func auditQuery(f store.AuditFilter) (string, []any) {
	var where []string
	var args []any
	add := func(cond string, arg any) {
		where = append(where, cond)
		args = append(args, arg)
	}
	if f.LandingZone != "" {
		add("landing_zone = ?", f.LandingZone)
	}
	if len(f.Zones) > 0 {
		marks := strings.TrimSuffix(strings.Repeat("?, ", len(f.Zones)), ", ")
		where = append(where, "landing_zone IN ("+marks+")")
		for _, z := range f.Zones {
			args = append(args, z)
		}
	}
	if f.BU != "" {
		add("bu = ?", f.BU)
	}
	if f.Stage != "" {
		add("stage = ?", f.Stage)
	}
	if f.Actor != "" {
		add("actor = ?", f.Actor)
	}
	if f.Action != "" {
		add("action = ?", f.Action)
	}
	if f.Resource != "" {
		add("resource = ?", f.Resource)
	}
	if f.Outcome != "" {
		add("outcome = ?", f.Outcome)
	}
	if !f.Since.IsZero() {
		add("at >= ?", micros(f.Since))
	}
	if !f.Until.IsZero() {
		add("at < ?", micros(f.Until))
	}
	if f.After != nil {
		// A row value: both adapters' indexes on (..., at, id) serve it.
		where = append(where, "(at, id) < (?, ?)")
		args = append(args, micros(f.After.At), f.After.ID)
	}
	if f.Limit <= 0 || f.Limit > 1000 {
		f.Limit = 100
	}
	query := `SELECT id, ` + auditColumns + ` FROM audit_events`
	if len(where) > 0 {
		query += ` WHERE ` + strings.Join(where, " AND ")
	}
	query += ` ORDER BY at DESC, id DESC LIMIT ?`
	args = append(args, f.Limit)
	return query, args
}

// ListAudit returns events matching f, newest first.
func (d *DB) ListAudit(ctx context.Context, f store.AuditFilter) ([]trail.AuditEvent, error) {
	query, args := auditQuery(f)
	return queryAll(ctx, d, scanAudit, query, args...)
}

// scanAudit reads rows of the id and auditColumns.
// scanAudit reads one audit event row (id, then auditColumns).
func scanAudit(row interface{ Scan(...any) error }) (trail.AuditEvent, error) {
	var e trail.AuditEvent
	var r auditRow
	err := row.Scan(r.into(&e)...)
	r.finish(&e)
	return e, err
}

// auditRow is what an event's row holds in another form than the
// event's: its time in microseconds, its groups and changes as JSON.
type auditRow struct {
	at              int64
	groups, changes string
}

// into are the scan destinations of an event's id and auditColumns.
func (r *auditRow) into(e *trail.AuditEvent) []any {
	return []any{&e.ID, &r.at, &e.Actor, &e.ActorRole, &r.groups, &e.Service, &e.SourceIP, &e.UserAgent, &e.RequestID,
		&e.BU, &e.Stage, &e.Action, &e.Resource, &e.Outcome, &e.Detail, &r.changes, &e.LandingZone, &e.Door}
}

// finish fills what the row held in another form.
func (r *auditRow) finish(e *trail.AuditEvent) {
	e.Time = fromMicros(r.at)
	_ = json.Unmarshal([]byte(r.groups), &e.Groups)
	if e.Groups == nil {
		e.Groups = []string{}
	}
	_ = json.Unmarshal([]byte(r.changes), &e.Changes)
}

// OutboxAfter lists the final events after a position in the outbox.
// On PostgreSQL the order is (txid, seq), and only rows of transactions
// older than every transaction still running are read: a transaction
// that commits late cannot add a row before what was read. SQLite commits
// one writer at a time, so seq alone is the order of commits.
func (d *DB) OutboxAfter(ctx context.Context, after store.OutboxPos, limit int) ([]store.OutboxEvent, error) {
	query := `SELECT o.txid::text::bigint, o.seq, e.id, ` + prefixed("e.", auditColumns) + ` FROM event_outbox o JOIN audit_events e ON e.id = o.event_id
		WHERE (o.txid, o.seq) > ((?::bigint)::text::xid8, ?) AND o.txid < pg_snapshot_xmin(pg_current_snapshot()) AND (o.final OR e.outcome = 'unknown')
		ORDER BY o.txid, o.seq LIMIT ?`
	if d.dialect == SQLite {
		query = `SELECT o.txid, o.seq, e.id, ` + prefixed("e.", auditColumns) + ` FROM event_outbox o JOIN audit_events e ON e.id = o.event_id
		WHERE o.seq > ? AND (o.final OR e.outcome = 'unknown') ORDER BY o.seq LIMIT ?`
		return queryAll(ctx, d, scanOutbox, query, after.Seq, limit)
	}
	return queryAll(ctx, d, scanOutbox, query, after.TxID, after.Seq, limit)
}

func scanOutbox(row interface{ Scan(...any) error }) (store.OutboxEvent, error) {
	var x store.OutboxEvent
	var r auditRow
	err := row.Scan(append([]any{&x.Pos.TxID, &x.Pos.Seq}, r.into(&x.Event)...)...)
	r.finish(&x.Event)
	return x, err
}

// OutboxEnd is the outbox's last position.
func (d *DB) OutboxEnd(ctx context.Context) (store.OutboxPos, error) {
	query := `SELECT o.txid::text::bigint, o.seq FROM event_outbox o ORDER BY o.txid DESC, o.seq DESC LIMIT 1`
	if d.dialect == SQLite {
		query = `SELECT txid, seq FROM event_outbox ORDER BY seq DESC LIMIT 1`
	}
	ctx, cancel := d.ctx(ctx)
	defer cancel()
	var p store.OutboxPos
	err := d.db.QueryRowContext(ctx, query).Scan(&p.TxID, &p.Seq)
	if errors.Is(err, sql.ErrNoRows) {
		return p, nil
	}
	return p, Fail(err)
}

// prefixed puts a table's alias before each of a list of columns.
func prefixed(alias, columns string) string {
	parts := strings.Split(columns, ", ")
	for i, c := range parts {
		parts[i] = alias + c
	}
	return strings.Join(parts, ", ")
}

// ExplainAudit returns the database's plan for ListAudit's query with f,
// to check that the indexes serve it (benchmarks print it).
func (d *DB) ExplainAudit(ctx context.Context, f store.AuditFilter) (string, error) {
	query, args := auditQuery(f)
	prefix := "EXPLAIN "
	if d.dialect == SQLite {
		prefix = "EXPLAIN QUERY PLAN "
	}
	rows, err := d.db.QueryContext(ctx, d.q(prefix+query), args...)
	if err != nil {
		return "", Fail(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var lines []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return "", Fail(err)
		}
		// SQLite: id, parent, notused, detail; PostgreSQL: one text column.
		lines = append(lines, fmt.Sprint(vals[len(vals)-1]))
	}
	return strings.Join(lines, "\n"), Fail(rows.Err())
}

// DeleteAuditBefore removes events older than t.
func (d *DB) DeleteAuditBefore(ctx context.Context, t time.Time) (int, error) {
	return affected(d.exec(ctx, `DELETE FROM audit_events WHERE at < ?`, micros(t)))
}

// AddSample records a value unless a recent one exists.
func (d *DB) AddSample(ctx context.Context, series string, at time.Time, value int64, minGap time.Duration) error {
	_, err := d.exec(ctx, `INSERT INTO samples (series, at, value)
		SELECT CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS BIGINT) WHERE NOT EXISTS (SELECT 1 FROM samples WHERE series = ? AND at > ?)
		ON CONFLICT (series, at) DO NOTHING`, series, micros(at), value, series, micros(at.Add(-minGap)))
	return err
}

// SamplesSince returns a series from a time on.
func (d *DB) SamplesSince(ctx context.Context, series string, since time.Time) ([]store.Sample, error) {
	ctx, cancel := d.ctx(ctx)
	defer cancel()
	rows, err := d.db.QueryContext(ctx, d.q(`SELECT at, value FROM samples WHERE series = ? AND at >= ? ORDER BY at LIMIT 5000`), series, micros(since))
	if err != nil {
		return nil, Fail(err)
	}
	defer rows.Close()
	var out []store.Sample
	for rows.Next() {
		var at, v int64
		if err := rows.Scan(&at, &v); err != nil {
			return nil, Fail(err)
		}
		out = append(out, store.Sample{At: fromMicros(at), Value: v})
	}
	return out, Fail(rows.Err())
}

// DeleteSamplesBefore removes old samples.
func (d *DB) DeleteSamplesBefore(ctx context.Context, t time.Time) (int, error) {
	return affected(d.exec(ctx, `DELETE FROM samples WHERE at < ?`, micros(t)))
}
