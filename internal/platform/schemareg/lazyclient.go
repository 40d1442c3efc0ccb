package schemareg

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/schemaregistry"
)

// lazyClient is the schemaregistry client of one registry, made at its
// first use and closed once unused for idle, as the Kafka handles are:
// each client holds caches of its own, and a replica of hundreds of
// environments would otherwise hold one per environment nobody uses.
type lazyClient struct {
	cfg  *schemaregistry.Config
	idle time.Duration

	mu       sync.Mutex
	c        schemaregistry.Client
	inflight int
	// lastUsed and timer close the client idle after its last call.
	lastUsed time.Time
	timer    *time.Timer
	closed   bool
}

// use returns the client, made if it is not, and a release for the end
// of the call.
func (l *lazyClient) use() (schemaregistry.Client, func(), error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil, nil, errors.New("the registry's client is closed: the portal is stopping")
	}
	if l.c == nil {
		c, err := schemaregistry.NewClient(l.cfg)
		if err != nil {
			return nil, nil, err
		}
		l.c = c
	}
	l.inflight++
	c := l.c
	return c, func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.inflight--
		l.lastUsed = time.Now()
		if l.timer == nil && !l.closed {
			l.timer = time.AfterFunc(l.idle, l.closeIfIdle)
		}
	}, nil
}

// closeIfIdle closes the client when no call used it for the idle time,
// else looks again when that time has passed since the last call.
func (l *lazyClient) closeIfIdle() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.timer = nil
	if l.c == nil || l.closed {
		return
	}
	if wait := l.idle - time.Since(l.lastUsed); l.inflight > 0 || wait > 0 {
		l.timer = time.AfterFunc(max(wait, l.idle/4), l.closeIfIdle)
		return
	}
	_ = l.c.Close()
	l.c = nil
}

// open tells whether the client is made (tests).
func (l *lazyClient) open() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.c != nil
}

// close closes the client for good.
func (l *lazyClient) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	if l.timer != nil {
		l.timer.Stop()
		l.timer = nil
	}
	if l.c != nil {
		_ = l.c.Close()
		l.c = nil
	}
}

// useClient runs a call of the context-less client, giving up when ctx
// ends (the client's own timeout ends the call itself); the client stays
// in use until the call returns.
func useClient[T any](ctx context.Context, l *lazyClient, f func(schemaregistry.Client) (T, error)) (T, error) {
	c, release, err := l.use()
	if err != nil {
		var zero T
		return zero, err
	}
	return bounded(ctx, func() (T, error) {
		defer release()
		return f(c)
	})
}
