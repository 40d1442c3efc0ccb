package gate

import (
	"context"

	"github.com/edh-platform/rms-portal/internal/guardrails/rules"
	"github.com/edh-platform/rms-portal/internal/portal"
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
	Ahead func(ctx context.Context) ([]portal.Change, error)
	// Do makes the change; within the write's budget when Confirm is set.
	Do func(ctx context.Context) error
	// Confirm, when set, tells whether a change that did not answer in
	// time happened.
	Confirm *Confirmation
	// Changes are the fields the change sets, for its outcome.
	Changes []portal.Change
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
// whatever Do returns.
func (g *Guard) Write(ctx context.Context, c *Call, ch Change) error {
	if ch.Rule.Kind != "" {
		if err := g.Check(ctx, c, ch.Event, ch.Rule); err != nil {
			return err
		}
	}
	w, err := g.Begin(ctx, c, ch.Event, ch.Resource)
	if err != nil {
		return err
	}
	var ahead []portal.Change
	if ch.Ahead != nil {
		ahead, err = ch.Ahead(ctx)
		// The change's own budget starts when it is sent.
		w.started = g.now()
	}
	if err == nil {
		err = w.Run(ctx, ch)
	}
	w.Done(ctx, err, append(ahead, ch.Changes...)...)
	return err
}

// Run makes a begun write's change: bounded and confirmed when ch says
// how, then announced. The caller settles the write (Done), for a write
// of several steps.
func (w *Write) Run(ctx context.Context, ch Change) error {
	var err error
	if ch.Confirm != nil {
		bctx, cancel := w.Bound(ctx)
		err = ch.Do(bctx)
		cancel()
		err = w.Confirm(ctx, err, ch.Confirm.What, ch.Confirm.How, ch.Confirm.Check)
	} else {
		err = ch.Do(ctx)
	}
	if ch.Announce != nil {
		ch.Announce(ctx, err)
	}
	return err
}
