// Package audit records who changed what: every write a service attempts,
// allowed or refused, becomes one event in the store (shared by every
// replica and kept for the configured retention), and one log line. The
// request's id, client address and user agent come from its context.
//
// A write is recorded ahead: its attempt is stored (outcome "unknown")
// before anything goes upstream, and settled with its outcome after. When
// the attempt cannot be stored the write is refused; when the outcome
// cannot be stored the attempt stays "unknown" and the outcome is written
// again in the background until the store takes it.
package audit

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/requestid"
	"github.com/edh-platform/rms-portal/internal/store"
)

// Outcomes other than an error kind.
const (
	OK = "ok"
	// Unknown marks a write whose effect is not known: still under way,
	// timed out upstream, or whose outcome could not be recorded.
	Unknown = "unknown"
)

// Phases of a failed audit write, for metrics.
const (
	PhaseAttempt = "attempt"
	PhaseOutcome = "outcome"
	PhaseEvent   = "event"
)

// Store is where events are kept.
type Store interface {
	AppendAudit(ctx context.Context, e trail.AuditEvent) (int64, error)
	SettleAudit(ctx context.Context, id int64, outcome, detail, resource string, changes []trail.Change) error
	UnsettledAttempt(ctx context.Context, requestID string, action portal.Action, resource string) (int64, error)
}

// Recorder writes events.
type Recorder struct {
	store Store
	log   *slog.Logger
	now   func() time.Time
	// written counts events by outcome; failed counts events the store
	// did not take, by phase (metrics).
	written func(outcome string)
	failed  func(phase string)

	mu sync.Mutex
	// unsettled are outcomes the store did not take yet, by event id.
	unsettled map[int64]settlement
	// lastFailure and lastSuccess are the times of the last write the
	// store refused and took, for readiness.
	lastFailure, lastSuccess time.Time
	anon                     *anonymous
	// replica names the process in the events it records.
	replica string
}

type settlement struct {
	outcome, detail, resource string
	changes                   []trail.Change
}

// New returns a recorder over a store.
func New(s Store, log *slog.Logger) *Recorder {
	r := &Recorder{store: s, log: log, now: time.Now, written: func(string) {}, failed: func(string) {},
		unsettled: map[int64]settlement{}}
	r.anon = newAnonymous(r)
	return r
}

// Replica names the process in the events it records: an attempt it
// leaves unknown is settled as soon as it is known stopped.
func (r *Recorder) Replica(id string) { r.replica = id }

// OnWrite sets a function called for every event written (metrics).
func (r *Recorder) OnWrite(f func(outcome string)) { r.written = f }

// OnFailure sets a function called for every event or outcome the store
// did not take, with its phase (metrics, alerts).
func (r *Recorder) OnFailure(f func(phase string)) { r.failed = f }

// complete fills what an event takes from its request, and bounds what
// callers supplied.
func (r *Recorder) complete(ctx context.Context, e trail.AuditEvent) trail.AuditEvent {
	if e.Time.IsZero() {
		e.Time = r.now().UTC()
	}
	if e.RequestID == "" {
		e.RequestID = requestid.From(ctx)
	}
	if e.Replica == "" {
		e.Replica = r.replica
	}
	if c := requestid.ClientFrom(ctx); e.SourceIP == "" {
		e.SourceIP, e.UserAgent = c.IP, c.UserAgent
		if e.Door == "" {
			e.Door = c.Door
		}
	}
	return Bound(e)
}

func attrs(e trail.AuditEvent) []slog.Attr {
	return []slog.Attr{slog.String("actor", e.Actor), slog.String("role", e.ActorRole), slog.String("action", e.Action.String()),
		slog.String("resource", e.Resource), slog.String("scope", e.BU+"/"+e.Stage), slog.String("outcome", e.Outcome)}
}

// store appends an event within a short bound of its own: the trail must
// not hold a request long.
func (r *Recorder) append(ctx context.Context, e trail.AuditEvent, phase string) (int64, error) {
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 3*time.Second)
	defer cancel()
	id, err := r.store.AppendAudit(sctx, e)
	r.result(err, phase)
	if err != nil {
		// The event survives in the log at least.
		r.log.LogAttrs(ctx, slog.LevelError, "audit event not stored", append(attrs(e), slog.String("phase", phase),
			slog.String("detail", e.Detail), slog.Any("changes", e.Changes), slog.String("error", err.Error()))...)
		return 0, err
	}
	r.written(e.Outcome)
	return id, nil
}

// result remembers how the last write went, for readiness.
func (r *Recorder) result(err error, phase string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		r.lastFailure = r.now()
		r.failed(phase)
		return
	}
	r.lastSuccess = r.now()
}

// Record stores an event that is complete as it is: a refusal, a read.
// An event the store cannot take is logged in full at error level.
func (r *Recorder) Record(ctx context.Context, e trail.AuditEvent) {
	e = r.complete(ctx, e)
	if _, err := r.append(ctx, e, PhaseEvent); err == nil {
		r.log.LogAttrs(ctx, slog.LevelInfo, "audit", attrs(e)...)
	}
}

// Note stores an event that is complete as it is, as Record does, and
// returns it as an attempt whose outcome is known already, so that what
// it counts can be amended later with Settle and the same outcome (a
// records tail: its polls). nil when the store did not take it.
func (r *Recorder) Note(ctx context.Context, e trail.AuditEvent) *Attempt {
	e = r.complete(ctx, e)
	id, err := r.append(ctx, e, PhaseEvent)
	if err != nil {
		return nil
	}
	r.log.LogAttrs(ctx, slog.LevelInfo, "audit", attrs(e)...)
	return &Attempt{r: r, id: id, e: e}
}

// Attempt is a write recorded ahead of being made.
type Attempt struct {
	r  *Recorder
	id int64
	e  trail.AuditEvent
}

// Begin records the attempt of a write before it is made, with outcome
// Unknown. When the store cannot take it, the error (503) says that
// nothing was changed, and the write must not be made.
func (r *Recorder) Begin(ctx context.Context, e trail.AuditEvent) (*Attempt, error) {
	e = r.complete(ctx, e)
	e.Outcome = Unknown
	id, err := r.append(ctx, e, PhaseAttempt)
	if err != nil {
		pe := portal.Wrap(err, portal.UpstreamUnavailable, "the audit trail cannot be written, so nothing was changed; try again shortly")
		pe.RetryAfter = 5 * time.Second
		return nil, pe
	}
	return &Attempt{r: r, id: id, e: e}, nil
}

// Resume continues a write that another process began (a bulk job's
// item, resumed by another replica): the attempt with id when it is
// known, else the unsettled attempt of ctx's request on the event's
// action and resource, else a new one (Begin). Each write is recorded
// once, whichever process settles it.
func (r *Recorder) Resume(ctx context.Context, e trail.AuditEvent, id int64) (*Attempt, error) {
	e = r.complete(ctx, e)
	e.Outcome = Unknown
	if id != 0 {
		return &Attempt{r: r, id: id, e: e}, nil
	}
	lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 3*time.Second)
	defer cancel()
	found, err := r.store.UnsettledAttempt(lctx, e.RequestID, e.Action, e.Resource)
	switch {
	case err == nil:
		return &Attempt{r: r, id: found, e: e}, nil
	case !errors.Is(err, store.ErrNotFound):
		r.result(err, PhaseAttempt)
		pe := portal.Wrap(err, portal.UpstreamUnavailable, "the audit trail cannot be read, so nothing was changed; try again shortly")
		pe.RetryAfter = 5 * time.Second
		return nil, pe
	}
	return r.Begin(ctx, e)
}

// Resource is the resource the attempt's event names.
func (a *Attempt) Resource() string { return a.e.Resource }

// ID is the attempt's event id.
func (a *Attempt) ID() int64 { return a.id }

// Settle records the attempt's outcome, the resource as it is now named
// (with an id learned on the way) and what changed. When the store cannot
// take it, the attempt stays "unknown" and the outcome is kept for Run to
// write.
func (a *Attempt) Settle(ctx context.Context, outcome, detail, resource string, changes []trail.Change) {
	e := a.e
	e.Outcome, e.Detail, e.Resource, e.Changes = outcome, detail, resource, changes
	e = Bound(e)
	s := settlement{outcome: e.Outcome, detail: e.Detail, resource: e.Resource, changes: e.Changes}
	if err := a.r.settle(ctx, a.id, s); err != nil {
		a.r.log.LogAttrs(ctx, slog.LevelError, "audit outcome not stored; the attempt stays unknown until it is", append(attrs(e),
			slog.Int64("event", a.id), slog.String("detail", e.Detail), slog.Any("changes", e.Changes), slog.String("error", err.Error()))...)
		a.r.mu.Lock()
		a.r.unsettled[a.id] = s
		a.r.mu.Unlock()
		return
	}
	a.r.written(e.Outcome)
	a.r.log.LogAttrs(ctx, slog.LevelInfo, "audit", attrs(e)...)
}

func (r *Recorder) settle(ctx context.Context, id int64, s settlement) error {
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 3*time.Second)
	defer cancel()
	err := r.store.SettleAudit(sctx, id, s.outcome, s.detail, s.resource, s.changes)
	r.result(err, PhaseOutcome)
	return err
}

// Unsettled counts the outcomes waiting to be written.
func (r *Recorder) Unsettled() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.unsettled)
}

// Run writes what the store did not take at first, every interval, until
// ctx ends (then once more): outcomes of attempts, and the counts of
// refused anonymous requests.
func (r *Recorder) Run(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			r.Flush(fctx)
			cancel()
			return
		case <-t.C:
			r.Flush(ctx)
		}
	}
}

// Flush writes pending outcomes and anonymous refusal counts now.
func (r *Recorder) Flush(ctx context.Context) {
	r.mu.Lock()
	pending := make(map[int64]settlement, len(r.unsettled))
	for id, s := range r.unsettled {
		pending[id] = s
	}
	r.mu.Unlock()
	for id, s := range pending {
		if err := r.settle(ctx, id, s); err != nil {
			return // still down: next time
		}
		r.mu.Lock()
		delete(r.unsettled, id)
		r.mu.Unlock()
		r.log.InfoContext(ctx, "audit outcome stored late", "event", id, "outcome", s.outcome)
	}
	r.anon.flush(ctx, false)
}

// healthWindow is how long a refused audit write makes the process
// unready: long enough for a load balancer to take it out, short enough
// that a database back from an outage (which no request will tell while
// the process is out) brings it back soon.
const healthWindow = 15 * time.Second

// Health reports an error while the store refuses the trail: its last
// write failed within healthWindow and none succeeded since.
func (r *Recorder) Health() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.lastFailure.IsZero() && r.lastFailure.After(r.lastSuccess) && r.now().Sub(r.lastFailure) < healthWindow {
		return portal.New(portal.UpstreamUnavailable, "audit events could not be written since %s", r.lastFailure.UTC().Format(time.RFC3339))
	}
	return nil
}
