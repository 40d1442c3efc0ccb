// Package sqlite is the store on SQLite (modernc.org/sqlite, pure Go): the
// embedded default, for one node. Notifications stay in the process.
package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/edh-platform/rms-portal/internal/store"
	"github.com/edh-platform/rms-portal/internal/store/sqlstore"
)

// Store is the SQLite store.
type Store struct {
	*sqlstore.DB
	bus  *sqlstore.Bus
	path string
	// file is the database file as opened: a file removed or replaced
	// under the process is no longer the one it writes to.
	file os.FileInfo
}

var _ store.Store = (*Store)(nil)

// Open opens (creating if needed) the database file at path and migrates
// it; timeout bounds every call.
func Open(ctx context.Context, path string, timeout time.Duration, log *slog.Logger) (*Store, time.Duration, error) {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, 0, fmt.Errorf("database directory: %w", err)
		}
	}
	q := url.Values{"_pragma": {"journal_mode(WAL)", "busy_timeout(5000)", "foreign_keys(1)", "synchronous(NORMAL)"}, "_txlock": {"immediate"}}
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, 0, fmt.Errorf("opening %s: %w", path, err)
	}
	// One writer at a time is SQLite's rule; a small pool keeps readers
	// concurrent under WAL.
	db.SetMaxOpenConns(4)
	s := &Store{DB: sqlstore.New(db, sqlstore.SQLite, timeout), bus: sqlstore.NewBus(), path: path}
	took, err := s.Migrate(ctx, log)
	if err != nil {
		db.Close()
		return nil, 0, err
	}
	if s.file, err = os.Stat(path); err != nil {
		db.Close()
		return nil, 0, fmt.Errorf("database file: %w", err)
	}
	return s, took, nil
}

// CheckWritable checks that the file the process opened is still the
// database's (an open file removed or replaced keeps taking writes that
// nobody will read again), then writes to it.
func (s *Store) CheckWritable(ctx context.Context, id string, now time.Time) error {
	fi, err := os.Stat(s.path)
	switch {
	case err != nil:
		return sqlstore.Fail(fmt.Errorf("the database file %s is gone: %w", s.path, err))
	case !os.SameFile(fi, s.file):
		return sqlstore.Fail(fmt.Errorf("the database file %s was replaced by another file", s.path))
	}
	return s.DB.CheckWritable(ctx, id, now)
}

// Kind names the adapter.
func (s *Store) Kind() string { return "sqlite" }

// Publish delivers a message to this process's subscribers.
func (s *Store) Publish(_ context.Context, channel, payload string) error {
	s.bus.Deliver(channel, payload)
	return nil
}

// Subscribe delivers a channel's messages until ctx ends.
func (s *Store) Subscribe(ctx context.Context, channel string) (<-chan string, error) {
	return s.bus.Subscribe(ctx, channel), nil
}

// Close closes the database.
func (s *Store) Close() error { return s.SQL().Close() }
