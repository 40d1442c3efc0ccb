package gate

import (
	"context"

	"github.com/edh-platform/rms-portal/internal/guardrails/rules"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
)

// Change is one change upstream as Write makes it.
type Change struct {
	// Event and Resource name the change in the audit trail.
	Event    portal.Action
	Resource string
	// Rule, when it has a kind, is the change as the guardrails see it:
	// checked before anything is recorded or sent.
	Rule rules.Change
	// Ahead, when set, is what must be done first, once the attempt is
	// recorded (a delete ends the grants on what it deletes): its error
	// ends the write before Do, and its changes join the outcome's.
	Ahead func(ctx context.Context) ([]trail.Change, error)
	// Do makes the change; within the write's budget when Confirm is set.
	Do func(ctx context.Context) error
	// Confirm, when set, tells whether a change that did not answer in
	// time happened.
	Confirm *Confirmation
	// Changes are the fields the change sets, for its outcome.
	Changes []trail.Change
	// Steps, set instead of Do, makes a change of several steps: it is
	// handed the begun write (to name the resource once its id is known,
	// bound and confirm an upstream call, keep the attempt's id in a
	// journal) and returns what it changed, before a failure too.
	Steps func(ctx context.Context, w *Write) ([]trail.Change, error)
	// Resume continues the attempt another process began (a journal's
	// change, resumed) instead of recording a new one: Attempt is its
	// event id; 0 finds it by the request, or begins one.
	Resume  bool
	Attempt int64
	// Announce, when set, tells the replicas what changed, whatever the
	// outcome, before the outcome is settled.
	Announce func(ctx context.Context, err error)
}

// Confirmation checks a change whose answer did not come in time (see
// Write.Confirm): What it was, How a caller finds out, and the Check.
type Confirmation struct {
	What, How string
	Check     func(ctx context.Context) (bool, error)
}

// Write makes one change the one way every write does: the guardrails
// check it, the trail records the attempt before the upstream sees it
// (no record, no change), the upstream call is bounded by the write's
// budget and confirmed when it timed out, the replicas are told, and the
// attempt is settled with the outcome and the fields changed, once,
// whatever Do returns. With WriteEvent and WriteBatch it is the only
// way to a begun write: begin and done are the gate's own.
func (g *Guard) Write(ctx context.Context, c *Call, ch Change) error {
	if ch.Rule.Kind != "" {
		if err := g.Check(ctx, c, ch.Event, ch.Rule); err != nil {
			return err
		}
	}
	var w *Write
	var err error
	if ch.Resume {
		w, err = g.resume(ctx, c, ch.Event, ch.Resource, ch.Attempt)
	} else {
		w, err = g.begin(ctx, c, ch.Event, ch.Resource)
	}
	if err != nil {
		return err
	}
	return g.run(ctx, w, ch)
}

// WriteEvent is Write for a change whose event is made without a unit's
// call: the portal's own rounds (its actor is the portal) and the
// platform's settings, which no unit holds. Its guardrails, when it has
// any, were checked by the caller.
func (g *Guard) WriteEvent(ctx context.Context, e trail.AuditEvent, ch Change) error {
	w, err := g.beginEvent(ctx, e)
	if err != nil {
		return err
	}
	return g.run(ctx, w, ch)
}

// run does a begun write's change and settles it.
func (g *Guard) run(ctx context.Context, w *Write, ch Change) error {
	var ahead, made []trail.Change
	var err error
	if ch.Ahead != nil {
		ahead, err = ch.Ahead(ctx)
		// The change's own budget starts when it is sent.
		w.started = g.now()
	}
	if err == nil {
		made, err = w.step(ctx, ch)
	}
	if !w.left {
		w.done(ctx, err, append(append(ahead, made...), ch.Changes...)...)
	}
	return err
}

// step makes a begun write's change: its steps, or its call bounded and
// confirmed when ch says how; then announced.
func (w *Write) step(ctx context.Context, ch Change) ([]trail.Change, error) {
	var made []trail.Change
	var err error
	switch {
	case ch.Steps != nil:
		made, err = ch.Steps(ctx, w)
	case ch.Confirm != nil:
		bctx, cancel := w.Bound(ctx)
		err = ch.Do(bctx)
		cancel()
		err = w.Confirm(ctx, err, ch.Confirm.What, ch.Confirm.How, ch.Confirm.Check)
	default:
		err = ch.Do(ctx)
	}
	if ch.Announce != nil {
		ch.Announce(ctx, err)
	}
	return made, err
}
