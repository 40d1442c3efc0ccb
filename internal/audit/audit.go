// Package audit records who changed what. Every write a service performs,
// allowed or refused, becomes one event: logged, and kept in memory for the
// admin area.
package audit

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// Event is one audited operation.
type Event struct {
	Time     time.Time `json:"time"`
	Actor    string    `json:"actor"`
	Action   string    `json:"action"`
	Resource string    `json:"resource"`
	Scope    string    `json:"scope"`
	Outcome  string    `json:"outcome"`
	Detail   string    `json:"detail,omitempty"`
}

// Recorder receives events.
type Recorder interface {
	Record(ctx context.Context, e Event)
}

// Log keeps the latest events in a ring and writes each to the logger.
type Log struct {
	logger *slog.Logger
	mu     sync.Mutex
	ring   []Event
	next   int
	full   bool
}

// NewLog returns a log that keeps the last size events.
func NewLog(logger *slog.Logger, size int) *Log {
	return &Log{logger: logger, ring: make([]Event, size)}
}

// Record stores e and logs it.
func (l *Log) Record(ctx context.Context, e Event) {
	if e.Time.IsZero() {
		e.Time = time.Now().UTC()
	}
	l.logger.LogAttrs(ctx, slog.LevelInfo, "audit",
		slog.String("actor", e.Actor), slog.String("action", e.Action), slog.String("resource", e.Resource),
		slog.String("scope", e.Scope), slog.String("outcome", e.Outcome), slog.String("detail", e.Detail))
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ring[l.next] = e
	l.next = (l.next + 1) % len(l.ring)
	if l.next == 0 {
		l.full = true
	}
}

// Recent returns the kept events, newest first.
func (l *Log) Recent() []Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := l.next
	if l.full {
		n = len(l.ring)
	}
	out := make([]Event, 0, n)
	for i := 1; i <= n; i++ {
		out = append(out, l.ring[(l.next-i+len(l.ring))%len(l.ring)])
	}
	return out
}
