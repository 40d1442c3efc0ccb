// Package postgres is the store on PostgreSQL through pgx: production, and
// any number of replicas on one database. Migrations run under an advisory
// lock; notifications use LISTEN/NOTIFY on a dedicated connection that
// reconnects by itself.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/edh-platform/rms-portal/internal/store"
	"github.com/edh-platform/rms-portal/internal/store/sqlstore"
)

// Store is the PostgreSQL store.
type Store struct {
	*sqlstore.DB
	cfg *pgx.ConnConfig
	bus *sqlstore.Bus
	log *slog.Logger

	mu       sync.Mutex
	channels map[string]bool
	wake     chan struct{}
	stop     context.CancelFunc
	done     chan struct{}
}

var _ store.Store = (*Store)(nil)

// Open connects to the database at url (postgres://...), migrates it
// under an advisory lock and starts listening for notifications; timeout
// bounds every call.
func Open(ctx context.Context, url string, timeout time.Duration, log *slog.Logger) (*Store, time.Duration, error) {
	return OpenPool(ctx, url, timeout, DefaultPool, log)
}

// DefaultPool is a replica's most connections to the database unless
// configured (database.max_open_conns).
const DefaultPool = 10

// OpenPool is Open with at most pool connections (idle ones kept: a
// quarter of them, at least two).
func OpenPool(ctx context.Context, url string, timeout time.Duration, pool int, log *slog.Logger) (*Store, time.Duration, error) {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return nil, 0, fmt.Errorf("database url: %w", err)
	}
	if cfg.ConnectTimeout == 0 || cfg.ConnectTimeout > timeout {
		cfg.ConnectTimeout = timeout
	}
	db := stdlib.OpenDB(*cfg)
	db.SetMaxOpenConns(pool)
	db.SetMaxIdleConns(max(pool/4, 2))
	db.SetConnMaxIdleTime(5 * time.Minute)
	s := &Store{DB: sqlstore.New(db, sqlstore.Postgres, timeout), cfg: cfg, bus: sqlstore.NewBus(), log: log,
		channels: map[string]bool{}, wake: make(chan struct{}, 1), done: make(chan struct{})}
	// Migrations may wait for another replica's lock: give them longer
	// than one call.
	mctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	took, err := s.Migrate(mctx, log)
	if err != nil {
		db.Close()
		return nil, 0, err
	}
	lctx, stop := context.WithCancel(context.Background())
	s.stop = stop
	go s.listen(lctx)
	return s, took, nil
}

// Kind names the adapter.
func (s *Store) Kind() string { return "postgres" }

// Publish sends a notification to every replica.
func (s *Store) Publish(ctx context.Context, channel, payload string) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	_, err := s.SQL().ExecContext(ctx, `SELECT pg_notify($1, $2)`, channel, payload)
	return sqlstore.Fail(err)
}

// Subscribe delivers a channel's notifications until ctx ends.
func (s *Store) Subscribe(ctx context.Context, channel string) (<-chan string, error) {
	ch := s.bus.Subscribe(ctx, channel)
	s.mu.Lock()
	if !s.channels[channel] {
		s.channels[channel] = true
		select {
		case s.wake <- struct{}{}:
		default:
		}
	}
	s.mu.Unlock()
	return ch, nil
}

// listen holds one connection that LISTENs to every subscribed channel and
// feeds the bus; after a lost connection it reconnects with backoff and
// tells subscribers that they may have missed messages.
func (s *Store) listen(ctx context.Context) {
	defer close(s.done)
	backoff := 100 * time.Millisecond
	first := true
	for ctx.Err() == nil {
		err := s.listenOnce(ctx, !first)
		if ctx.Err() != nil {
			return
		}
		first = false
		s.log.Warn("listening for database notifications failed; reconnecting", "error", err, "in", backoff.String())
		t := time.NewTimer(backoff)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		backoff = min(backoff*2, 10*time.Second)
	}
}

func (s *Store) listenOnce(ctx context.Context, reconnected bool) error {
	conn, err := pgx.ConnectConfig(ctx, s.cfg)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	listening := map[string]bool{}
	sync := func() error {
		s.mu.Lock()
		var todo []string
		for c := range s.channels {
			if !listening[c] {
				todo = append(todo, c)
			}
		}
		s.mu.Unlock()
		for _, c := range todo {
			if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{c}.Sanitize()); err != nil {
				return err
			}
			listening[c] = true
			if reconnected {
				s.bus.Deliver(c, store.Reconnected)
			}
		}
		return nil
	}
	for {
		if err := sync(); err != nil {
			return err
		}
		wctx, cancel := context.WithCancel(ctx)
		go func() {
			select {
			case <-s.wake:
				cancel()
			case <-wctx.Done():
			}
		}()
		n, err := conn.WaitForNotification(wctx)
		woken := wctx.Err() != nil && ctx.Err() == nil
		cancel()
		switch {
		case err == nil:
			s.bus.Deliver(n.Channel, n.Payload)
		case woken && errors.Is(err, context.Canceled):
			// A new channel to LISTEN to; the connection is still good
			// unless the cancel interrupted it mid-read.
			if conn.IsClosed() {
				return err
			}
		default:
			return err
		}
	}
}

// Close stops listening and closes the database.
func (s *Store) Close() error {
	s.stop()
	<-s.done
	return s.SQL().Close()
}
