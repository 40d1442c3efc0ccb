// Package sqlstore is the SQL both store adapters share: the queries are
// written once with "?" placeholders and rebound for PostgreSQL, and the
// schema is migrated with goose from the migrations embedded here (one
// directory per dialect). The adapters add what differs: connecting,
// locking the migrations, and notifications.
package sqlstore

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/store"
)

//go:embed migrations
var migrations embed.FS

// Dialect is the SQL flavour of a database.
type Dialect int

// Dialects.
const (
	Postgres Dialect = iota
	SQLite
)

// DB is the shared implementation of the store contract, except the
// notifications.
type DB struct {
	db      *sql.DB
	dialect Dialect
	timeout time.Duration
	queries sync.Map // query -> rebound query
	tracer  trace.Tracer
	traced  bool
}

// New wraps an open database; timeout bounds every call.
func New(db *sql.DB, d Dialect, timeout time.Duration) *DB {
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	return &DB{db: db, dialect: d, timeout: timeout, tracer: noop.NewTracerProvider().Tracer("")}
}

// SetTracer makes every call open a span ("db <operation>").
func (d *DB) SetTracer(t trace.Tracer) { d.tracer, d.traced = t, true }

// SQL returns the database, for the adapters.
func (d *DB) SQL() *sql.DB { return d.db }

// Migrate brings the schema to the latest version. On PostgreSQL it holds
// an advisory lock meanwhile, so that replicas starting together migrate
// once; it returns how long it took.
func (d *DB) Migrate(ctx context.Context, log *slog.Logger) (time.Duration, error) {
	start := time.Now()
	dir, dialect := "migrations/postgres", goose.DialectPostgres
	var opts []goose.ProviderOption
	if d.dialect == SQLite {
		dir, dialect = "migrations/sqlite", goose.DialectSQLite3
	} else {
		locker, err := lock.NewPostgresSessionLocker()
		if err != nil {
			return 0, err
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	}
	sub, err := fs.Sub(migrations, dir)
	if err != nil {
		return 0, err
	}
	p, err := goose.NewProvider(dialect, d.db, sub, opts...)
	if err != nil {
		return 0, fmt.Errorf("migrations: %w", err)
	}
	results, err := p.Up(ctx)
	if err != nil {
		return 0, fmt.Errorf("migrating the database: %w", err)
	}
	for _, r := range results {
		log.Info("database migrated", "version", r.Source.Version, "file", r.Source.Path, "ms", r.Duration.Milliseconds())
	}
	return time.Since(start), nil
}

// q rebinds a query's "?" placeholders for the dialect, once per query.
func (d *DB) q(query string) string {
	if d.dialect != Postgres {
		return query
	}
	if out, ok := d.queries.Load(query); ok {
		return out.(string)
	}
	var b strings.Builder
	n := 0
	for _, r := range query {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	d.queries.Store(query, b.String())
	return b.String()
}

// ctx bounds a call by the store's timeout and opens its span, named by
// the store method that makes the call.
func (d *DB) ctx(ctx context.Context) (context.Context, context.CancelFunc) {
	if !d.traced {
		return context.WithTimeout(ctx, d.timeout)
	}
	ctx, span := d.tracer.Start(ctx, spanName(), trace.WithSpanKind(trace.SpanKindClient))
	ctx, cancel := context.WithTimeout(ctx, d.timeout)
	return ctx, func() {
		cancel()
		span.End()
	}
}

// spanName names a database span after the store method on the stack:
// the first exported method of DB, looking through the helpers that run
// its queries (exec, queryAll) and the closures it hands out (a lock's
// release), so that a span says which store call it was.
func spanName() string {
	pcs := make([]uintptr, 16)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(3, pcs)])
	for {
		f, more := frames.Next()
		if _, method, ok := strings.Cut(f.Function, "sqlstore.(*DB)."); ok {
			method, _, _ = strings.Cut(method, ".")
			if method != "" && unicode.IsUpper(rune(method[0])) {
				return "db " + method
			}
		}
		if !more {
			return "db"
		}
	}
}

// Fail translates a database error into the domain's: a timeout, or an
// unavailable database that callers may retry.
func Fail(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, store.ErrNotFound), errors.Is(err, context.Canceled):
		return err
	case errors.Is(err, context.DeadlineExceeded):
		e := portal.Wrap(err, portal.UpstreamTimeout, "the portal's database did not answer in time")
		e.RetryAfter = 5 * time.Second
		return e
	}
	e := portal.Wrap(err, portal.UpstreamUnavailable, "the portal's database is unavailable")
	e.RetryAfter = 5 * time.Second
	return e
}

// Ping checks that the database answers.
func (d *DB) Ping(ctx context.Context) error {
	ctx, cancel := d.ctx(ctx)
	defer cancel()
	return Fail(d.db.PingContext(ctx))
}

// CheckWritable writes to the database, as readiness needs: a database
// that answers reads but refuses writes (a full disk, a read-only
// replica, a lost primary) cannot take the audit trail, so no change can
// be made. id names the probing process; rows of processes silent for a
// day are removed on the way.
func (d *DB) CheckWritable(ctx context.Context, id string, now time.Time) error {
	if _, err := d.exec(ctx, `INSERT INTO write_checks (id, at) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET at = excluded.at`,
		id, micros(now)); err != nil {
		return err
	}
	_, err := d.exec(ctx, `DELETE FROM write_checks WHERE at < ?`, micros(now.Add(-24*time.Hour)))
	return err
}

func (d *DB) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	ctx, cancel := d.ctx(ctx)
	defer cancel()
	res, err := d.db.ExecContext(ctx, d.q(query), args...)
	return res, Fail(err)
}

func affected(res sql.Result, err error) (int, error) {
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	return int(n), Fail(err)
}

// micros and fromMicros store times as Unix microseconds.
func micros(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMicro()
}

func fromMicros(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.UnixMicro(n).UTC()
}

// queryAll runs a query and reads every row with scan.
// inTx runs fn in a transaction, committed when fn returns nil.
func (d *DB) inTx(ctx context.Context, fn func(ctx context.Context, tx *sql.Tx) error) error {
	ctx, cancel := d.ctx(ctx)
	defer cancel()
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return Fail(err)
	}
	defer func() { _ = tx.Rollback() }()
	if err := fn(ctx, tx); err != nil {
		return Fail(err)
	}
	return Fail(tx.Commit())
}

func queryAll[T any](ctx context.Context, d *DB, scan func(interface{ Scan(...any) error }) (T, error), query string, args ...any) ([]T, error) {
	ctx, cancel := d.ctx(ctx)
	defer cancel()
	rows, err := d.db.QueryContext(ctx, d.q(query), args...)
	if err != nil {
		return nil, Fail(err)
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		r, err := scan(rows)
		if err != nil {
			return nil, Fail(err)
		}
		out = append(out, r)
	}
	return out, Fail(rows.Err())
}
