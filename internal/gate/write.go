package gate

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/audit"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/store"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// Record audits what happened to a write that never reached the upstream
// (a refusal found after entering, a read worth a trace).
func (g *Guard) Record(ctx context.Context, c *Call, event portal.Action, resource string, err error, changes ...trail.Change) {
	c.recorded()
	e := c.Event(event, resource)
	e.Outcome, e.Changes = Outcome(err), changes
	if err != nil {
		e.Detail = portal.FirstMessage(err)
	}
	g.audit.Record(ctx, e)
}

// Settle records, as a refusal, a write call that ended in *err before
// its attempt or refusal was in the trail (bad input, a policy, a
// conflict, a missing resource): every write is audited, whatever refused
// it. A rate limit is not (a runaway script would fill the trail), nor a
// caller that went away. Write methods are made of Writing, which defers
// it after EnterWrite; the few that cannot be (a batch answering per item,
// a review whose call its steps go on with) defer it themselves.
func (g *Guard) Settle(ctx context.Context, c *Call, err *error) {
	if c == nil || c.write == nil || *err == nil || c.write.recorded.Load() ||
		portal.Is(*err, portal.RateLimited) || errors.Is(*err, context.Canceled) {
		return
	}
	g.Record(ctx, c, c.write.event, c.write.resource, *err)
}

// Write is a change under way whose attempt the audit trail holds.
type Write struct {
	att      *audit.Attempt
	resource string
	// started and budget bound the write's answer (Bound, Confirm);
	// later is the check of a write still unconfirmed when it answered.
	started time.Time
	budget  time.Duration
	later   func(ctx context.Context) (bool, error)
	// warnings are the rules' warnings of the call, kept in its outcome;
	// note is the context's (WithNote).
	warnings []string
	note     string
	// create is the budget use a create may have reserved: released when
	// it fails, named after the resource when it learnt its id.
	create *reservation
	// left is set by Leave.
	left bool
}

// reservation names a create's reserved budget use.
type reservation struct {
	g                  *Guard
	unit, stage, named string
	event              portal.Action
}

// begin records the attempt of a change before its first upstream call:
// no record, no change. When the trail cannot be written, the error
// (UpstreamUnavailable) says that nothing was changed.
func (g *Guard) begin(ctx context.Context, c *Call, event portal.Action, resource string) (*Write, error) {
	c.recorded()
	e := c.Event(event, resource)
	note := noteOf(ctx)
	if note != "" {
		e.Detail = joinDetail(note, e.Detail)
	}
	w, err := g.beginEvent(ctx, e)
	if w != nil {
		w.warnings, w.note = c.warnings, note
		w.create = g.reservation(c, event, resource)
	}
	return w, err
}

// reservation is the budget use a create of the call may have reserved.
func (g *Guard) reservation(c *Call, event portal.Action, resource string) *reservation {
	if g.reserved == nil || !strings.HasSuffix(event.String(), ".create") {
		return nil
	}
	return &reservation{g: g, unit: c.Scope.Unit.ID, stage: c.Scope.Stage.Name, event: event, named: resource}
}

// joinDetail puts details one after the other.
func joinDetail(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}

// beginEvent is begin for an event made elsewhere (WriteEvent).
func (g *Guard) beginEvent(ctx context.Context, e trail.AuditEvent) (*Write, error) {
	att, err := g.audit.Begin(ctx, e)
	if err != nil {
		return nil, err
	}
	// The event's detail stays the outcome's.
	return &Write{att: att, resource: e.Resource, started: g.now(), budget: g.budget, note: e.Detail}, nil
}

// resume continues a change another process began (a bulk job's
// item, resumed): its attempt (id, or found by the request, or a new one)
// is settled once, here.
func (g *Guard) resume(ctx context.Context, c *Call, event portal.Action, resource string, id int64) (*Write, error) {
	att, err := g.audit.Resume(ctx, c.Event(event, resource), id)
	if err != nil {
		return nil, err
	}
	return &Write{att: att, resource: resource, started: g.now(), budget: g.budget, warnings: c.warnings, create: g.reservation(c, event, resource)}, nil
}

// Note adds to what the outcome's detail says.
func (w *Write) Note(note string) { w.note = joinDetail(w.note, note) }

// ID is the attempt's event id, for a journal that may resume the change.
func (w *Write) ID() int64 { return w.att.ID() }

// Leave leaves the attempt unsettled when the change's steps end: for a
// journal that could not keep the change's outcome, so that whoever
// resumes it finds the attempt (by the request) and settles it once.
func (w *Write) Leave() { w.left = true }

// Rename names the resource as it is now known (with an id learned on
// the way), for the outcome.
func (w *Write) Rename(resource string) { w.resource = resource }

// done settles a change's attempt with its outcome and what it changed.
// A change still unconfirmed when it answered (Confirm) is checked again
// in the background, and its event settled when it is confirmed.
func (w *Write) done(ctx context.Context, err error, changes ...trail.Change) {
	detail := ""
	if err != nil {
		detail = portal.FirstMessage(err)
	}
	w.att.Settle(ctx, Outcome(err), joinDetail(w.note, warningDetail(w.warnings, detail)), w.resource, changes)
	if w.later != nil && Outcome(err) == audit.Unknown {
		go w.confirmLater(context.WithoutCancel(ctx), changes)
	}
	w.create.settle(ctx, err, w.resource)
}

// settle releases a failed create's reserved use, or names it after the
// resource as it is now known ("id (name)": its id); an outcome not known
// yet keeps it (the resource may exist).
func (r *reservation) settle(ctx context.Context, err error, resource string) {
	if r == nil || Outcome(err) == audit.Unknown {
		return
	}
	renamed := ""
	if err == nil {
		if renamed, _, _ = strings.Cut(resource, " ("); renamed == r.named {
			return
		}
	}
	if rerr := r.g.reserved.ReleaseBudget(context.WithoutCancel(ctx), r.unit, r.stage, r.named, renamed); rerr != nil {
		r.g.log.WarnContext(ctx, "a create's budget reservation could not be released; it lapses by itself", "resource", r.named, "error", rerr)
	}
}

// confirmLater checks a change that timed out until it is confirmed or
// pendingWindow has passed, and settles its event as done if it is.
func (w *Write) confirmLater(ctx context.Context, changes []trail.Change) {
	ctx, cancel := context.WithTimeout(ctx, pendingWindow)
	defer cancel()
	t := time.NewTicker(2 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		cctx, ccancel := context.WithTimeout(ctx, confirmWindow)
		done, err := w.later(cctx)
		ccancel()
		if err == nil && done {
			w.att.Settle(ctx, audit.OK, "confirmed after the upstream's timeout", w.resource, changes)
			return
		}
	}
}

// Outcome names an operation's result in the audit trail; a write that
// timed out may still have happened, so its outcome is unknown.
func Outcome(err error) string {
	switch {
	case err == nil:
		return audit.OK
	case portal.Is(err, portal.UpstreamTimeout):
		return audit.Unknown
	}
	return string(portal.KindOf(err))
}

// TopicChanged brings every replica's topic list up to a write: when the
// write is known to have happened, the change itself is applied here and
// announced, so that no list goes cold; when it failed or its outcome is
// unknown, the replicas are told to refetch in the background.
func (g *Guard) TopicChanged(ctx context.Context, env *platform.Environment, err error, c platform.TopicChange) {
	if err != nil {
		g.Changed(ctx, env, "topics")
		return
	}
	if p, ok := env.Topics.(platform.TopicPatcher); ok {
		p.ApplyTopicChange(c)
	}
	g.Changed(ctx, env, topicAnnouncement(c))
}

// topicAnnouncement is the cache channel's message for a topic write,
// completed with the environment by Changed: "topic <name> <partitions>
// <deleted> <zone>/<stage>". Topic names hold no spaces.
func topicAnnouncement(c platform.TopicChange) string {
	return "topic " + c.Name + " " + strconv.Itoa(c.Partitions) + " " + strconv.FormatBool(c.Deleted)
}

// Changed tells every replica (this one too) that what of env changed.
func (g *Guard) Changed(ctx context.Context, env *platform.Environment, what string) {
	if err := g.notify.Publish(context.WithoutCancel(ctx), store.ChannelCache, what+" "+env.Name()); err != nil {
		// The other replicas' caches expire by themselves; say why they
		// may lag behind.
		g.log.WarnContext(ctx, "announcing a change failed", "what", what, "env", env.Name(), "error", err)
	}
}

type noteKey struct{}

// WithNote adds a note to the audit events of the writes made with ctx
// (an approval's: on whose request they were made).
func WithNote(ctx context.Context, note string) context.Context {
	return context.WithValue(ctx, noteKey{}, note)
}

func noteOf(ctx context.Context) string {
	n, _ := ctx.Value(noteKey{}).(string)
	return n
}

type approvalKey struct{}

// WithApproval marks ctx as the apply of a change request another person
// approved: a stage that takes four eyes lets exactly those writes
// through (the approver's role still decides).
func WithApproval(ctx context.Context) context.Context {
	return context.WithValue(ctx, approvalKey{}, true)
}

// Approved tells whether ctx is the apply of an approved change request
// (whose request journals it).
func Approved(ctx context.Context) bool { return ctx.Value(approvalKey{}) != nil }

// approved lifts a stage's four eyes for an approved request's writes.
func approved(ctx context.Context, scope tenancy.Scope) tenancy.Scope {
	if ctx.Value(approvalKey{}) != nil {
		scope.Stage.FourEyes = false
	}
	return scope
}
