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
	"github.com/edh-platform/rms-portal/internal/store"
)

const auditColumns = `at, actor, actor_role, groups, service, source_ip, user_agent, request_id, bu, stage, action, resource, outcome, detail, changes, landing_zone`

// AppendAudit stores an event and returns its id.
func (d *DB) AppendAudit(ctx context.Context, e portal.AuditEvent) (int64, error) {
	groups, _ := json.Marshal(e.Groups)
	changes, _ := json.Marshal(e.Changes)
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	ctx, cancel := d.ctx(ctx)
	defer cancel()
	var id int64
	err := d.db.QueryRowContext(ctx, d.q(`INSERT INTO audit_events (`+auditColumns+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
		micros(e.Time), e.Actor, e.ActorRole, string(groups), e.Service, e.SourceIP, e.UserAgent, e.RequestID,
		e.BU, e.Stage, e.Action, e.Resource, e.Outcome, e.Detail, string(changes), e.LandingZone).Scan(&id)
	return id, Fail(err)
}

// SettleAudit records the outcome of an attempt appended before its
// write: outcome, detail, the resource (which may have gained an id) and
// the changes made.
func (d *DB) SettleAudit(ctx context.Context, id int64, outcome, detail, resource string, changes []portal.Change) error {
	raw, _ := json.Marshal(changes)
	n, err := affected(d.exec(ctx, `UPDATE audit_events SET outcome = ?, detail = ?, resource = ?, changes = ? WHERE id = ? AND outcome IN ('unknown', ?)`,
		outcome, detail, resource, string(raw), id, outcome))
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

// UnsettledAttempt finds a request's attempt on a resource whose outcome
// is unknown.
func (d *DB) UnsettledAttempt(ctx context.Context, requestID, action, resource string) (int64, error) {
	ctx, cancel := d.ctx(ctx)
	defer cancel()
	var id int64
	err := d.db.QueryRowContext(ctx, d.q(`SELECT id FROM audit_events WHERE request_id = ? AND action = ? AND resource = ? AND outcome = 'unknown' ORDER BY id LIMIT 1`),
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
func (d *DB) ListAudit(ctx context.Context, f store.AuditFilter) ([]portal.AuditEvent, error) {
	query, args := auditQuery(f)
	return queryAll(ctx, d, scanAudit, query, args...)
}

// scanAudit reads rows of the id and auditColumns.
// scanAudit reads one audit event row (id, then auditColumns).
func scanAudit(row interface{ Scan(...any) error }) (portal.AuditEvent, error) {
	var e portal.AuditEvent
	var at int64
	var groups, changes string
	if err := row.Scan(&e.ID, &at, &e.Actor, &e.ActorRole, &groups, &e.Service, &e.SourceIP, &e.UserAgent, &e.RequestID,
		&e.BU, &e.Stage, &e.Action, &e.Resource, &e.Outcome, &e.Detail, &changes, &e.LandingZone); err != nil {
		return e, err
	}
	e.Time = fromMicros(at)
	_ = json.Unmarshal([]byte(groups), &e.Groups)
	if e.Groups == nil {
		e.Groups = []string{}
	}
	_ = json.Unmarshal([]byte(changes), &e.Changes)
	return e, nil
}

// AuditAfter lists the events after id, oldest first.
func (d *DB) AuditAfter(ctx context.Context, id int64, limit int) ([]portal.AuditEvent, error) {
	return queryAll(ctx, d, scanAudit, `SELECT id, `+auditColumns+` FROM audit_events WHERE id > ? ORDER BY id LIMIT ?`, id, limit)
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
