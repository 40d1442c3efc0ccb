package gate

import (
	"context"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
)

// Batch is changes of one kind that go upstream in one request (an
// apply's topics): each is a write of its own in the trail, recorded
// before the request and settled with its own outcome.
type Batch struct {
	Event     portal.Action
	Resources []string
	// Send makes the one request for the changes begun (their indexes in
	// Resources), within the write's budget: an error a change, in the
	// order of begun, or one error for all of them.
	Send func(ctx context.Context, begun []int) ([]error, error)
	// Each, when set, finishes change i after the request (confirms an
	// answer that did not come in time, announces it) and returns its
	// outcome and what it changed.
	Each func(ctx context.Context, i int, w *Write, err error) ([]trail.Change, error)
}

// WriteBatch makes a batch's changes the one way Write makes one: every
// change's attempt is recorded before the request is sent (one that
// cannot be recorded is not sent), and each is settled with its outcome.
// The answer has an error a resource, nil for those made. The guardrails
// were checked by the caller, for the whole batch (CheckAll).
func (g *Guard) WriteBatch(ctx context.Context, c *Call, b Batch) []error {
	out := make([]error, len(b.Resources))
	var begun []int
	var ws []*Write
	for i, r := range b.Resources {
		w, err := g.begin(ctx, c, b.Event, r)
		if out[i] = err; err != nil {
			continue
		}
		begun, ws = append(begun, i), append(ws, w)
	}
	if len(begun) == 0 {
		return out
	}
	bctx, cancel := ws[0].Bound(ctx)
	errs, err := b.Send(bctx, begun)
	cancel()
	for j, i := range begun {
		e := err
		if e == nil && j < len(errs) {
			e = errs[j]
		}
		var changes []trail.Change
		if b.Each != nil {
			changes, e = b.Each(ctx, i, ws[j], e)
		}
		ws[j].done(ctx, e, changes...)
		out[i] = e
	}
	return out
}
