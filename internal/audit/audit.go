// Package audit records who changed what: every write a service attempts,
// allowed or refused, becomes one event in the store (shared by every
// replica and kept for the configured retention), and one log line. The
// request's id, client address and user agent come from its context.
package audit

import (
	"context"
	"log/slog"
	"time"

	"github.com/edh-platform/rms-portal/internal/requestid"
	"github.com/edh-platform/rms-portal/internal/store"
)

// Outcomes other than an error kind.
const (
	OK = "ok"
	// Unknown marks a write whose effect could not be checked (a timeout).
	Unknown = "unknown"
)

// Store is where events are kept.
type Store interface {
	AppendAudit(ctx context.Context, e store.AuditEvent) (int64, error)
}

// Recorder writes events.
type Recorder struct {
	store Store
	log   *slog.Logger
	now   func() time.Time
	// written counts events, for metrics.
	written func(outcome string)
}

// New returns a recorder over a store.
func New(s Store, log *slog.Logger) *Recorder {
	return &Recorder{store: s, log: log, now: time.Now, written: func(string) {}}
}

// OnWrite sets a function called for every event written (metrics).
func (r *Recorder) OnWrite(f func(outcome string)) { r.written = f }

// Record stores e, completing it from the request's context. An event the
// store cannot take is logged in full at error level, so that the trail
// survives in the logs.
func (r *Recorder) Record(ctx context.Context, e store.AuditEvent) {
	if e.Time.IsZero() {
		e.Time = r.now().UTC()
	}
	if e.RequestID == "" {
		e.RequestID = requestid.From(ctx)
	}
	if c := requestid.ClientFrom(ctx); e.SourceIP == "" {
		e.SourceIP, e.UserAgent = c.IP, c.UserAgent
	}
	attrs := []slog.Attr{slog.String("actor", e.Actor), slog.String("role", e.ActorRole), slog.String("action", e.Action),
		slog.String("resource", e.Resource), slog.String("scope", e.BU+"/"+e.Stage), slog.String("outcome", e.Outcome)}
	// The write itself must not fail because the trail could not be
	// written, nor wait long for it.
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 3*time.Second)
	defer cancel()
	if _, err := r.store.AppendAudit(sctx, e); err != nil {
		r.log.LogAttrs(ctx, slog.LevelError, "audit event not stored", append(attrs, slog.String("detail", e.Detail),
			slog.Any("changes", e.Changes), slog.String("error", err.Error()))...)
		return
	}
	r.written(e.Outcome)
	r.log.LogAttrs(ctx, slog.LevelInfo, "audit", attrs...)
}
