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
	bus *sqlstore.Bus
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
	s := &Store{DB: sqlstore.New(db, sqlstore.SQLite, timeout), bus: sqlstore.NewBus()}
	took, err := s.Migrate(ctx, log)
	if err != nil {
		db.Close()
		return nil, 0, err
	}
	return s, took, nil
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
