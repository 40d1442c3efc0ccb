package sqlstore

import (
	"context"
	"database/sql"
	"errors"

	"github.com/edh-platform/rms-portal/internal/store"
)

const requestColumns = `id, zone, bu, stage, requester, requester_subject, reason, document, fingerprint, plan, state, created_at, decided_by, decided_at, comment, result, event_id`

func scanRequest(row interface{ Scan(...any) error }) (store.RequestRecord, error) {
	var r store.RequestRecord
	var doc, plan, result string
	var created, decided int64
	err := row.Scan(&r.ID, &r.Zone, &r.BU, &r.Stage, &r.Requester, &r.RequesterSubject, &r.Reason, &doc, &r.Fingerprint, &plan, &r.State,
		&created, &r.DecidedBy, &decided, &r.Comment, &result, &r.Event)
	r.Document, r.Plan, r.Result = []byte(doc), []byte(plan), []byte(result)
	r.Created, r.Decided = fromMicros(created), fromMicros(decided)
	return r, err
}

// CreateRequestRecord stores a new request.
func (d *DB) CreateRequestRecord(ctx context.Context, r store.RequestRecord) error {
	_, err := d.exec(ctx, `INSERT INTO change_requests (`+requestColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		r.ID, r.Zone, r.BU, r.Stage, r.Requester, r.RequesterSubject, r.Reason, string(r.Document), r.Fingerprint, string(r.Plan), r.State,
		micros(r.Created), r.DecidedBy, micros(r.Decided), r.Comment, string(r.Result), r.Event)
	return err
}

// RequestRecord returns one request.
func (d *DB) RequestRecord(ctx context.Context, id string) (store.RequestRecord, error) {
	ctx, cancel := d.ctx(ctx)
	defer cancel()
	r, err := scanRequest(d.db.QueryRowContext(ctx, d.q(`SELECT `+requestColumns+` FROM change_requests WHERE id = ?`), id))
	if errors.Is(err, sql.ErrNoRows) {
		return r, store.ErrNotFound
	}
	return r, Fail(err)
}

// RequestRecords lists a unit's requests in a stage, newest first.
func (d *DB) RequestRecords(ctx context.Context, bu, stage, state string, limit int) ([]store.RequestRecord, error) {
	if state != "" {
		return queryAll(ctx, d, scanRequest, `SELECT `+requestColumns+` FROM change_requests WHERE bu = ? AND stage = ? AND state = ? ORDER BY created_at DESC, id LIMIT ?`,
			bu, stage, state, limit)
	}
	return queryAll(ctx, d, scanRequest, `SELECT `+requestColumns+` FROM change_requests WHERE bu = ? AND stage = ? ORDER BY created_at DESC, id LIMIT ?`, bu, stage, limit)
}

// OpenRequests lists every open request, oldest first.
func (d *DB) OpenRequests(ctx context.Context, limit int) ([]store.RequestRecord, error) {
	return d.RequestsInState(ctx, "open", limit)
}

// RequestsInState lists every request in a state, oldest first.
func (d *DB) RequestsInState(ctx context.Context, state string, limit int) ([]store.RequestRecord, error) {
	return queryAll(ctx, d, scanRequest, `SELECT `+requestColumns+` FROM change_requests WHERE state = ? ORDER BY created_at, id LIMIT ?`, state, limit)
}

// DecideRequest moves a request on from a state, once.
func (d *DB) DecideRequest(ctx context.Context, r store.RequestRecord, from string) (bool, error) {
	n, err := affected(d.exec(ctx, `UPDATE change_requests SET state = ?, decided_by = ?, decided_at = ?, comment = ?, result = ?, event_id = ? WHERE id = ? AND state = ?`,
		r.State, r.DecidedBy, micros(r.Decided), r.Comment, string(r.Result), r.Event, r.ID, from))
	return n == 1, err
}
