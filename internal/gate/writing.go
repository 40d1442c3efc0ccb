package gate

import (
	"context"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// Writing is a write method's whole call in one: it enters (EnterWrite:
// access, read-only stages, confirmation; a refusal audited as event on
// resource), runs do with the entered context and call, and settles
// (Settle): a failure that neither the write path nor a refusal put in
// the trail (bad input, a policy, a conflict, a missing resource) is
// recorded as event's. do makes its changes through Guard.Write.
func Writing[T any](ctx context.Context, g *Guard, named portal.Scope, action access.Action, what string, event portal.Action, resource string,
	do func(ctx context.Context, call *Call) (T, error)) (out T, err error) {
	ctx, call, err := g.EnterWrite(ctx, named, action, what, event, resource)
	if err != nil {
		return out, err
	}
	defer g.Settle(ctx, call, &err)
	return do(ctx, call)
}

// Writing is gate.Writing for a write that answers only its error.
func (g *Guard) Writing(ctx context.Context, named portal.Scope, action access.Action, what string, event portal.Action, resource string,
	do func(ctx context.Context, call *Call) error) error {
	_, err := Writing(ctx, g, named, action, what, event, resource, func(ctx context.Context, call *Call) (struct{}, error) {
		return struct{}{}, do(ctx, call)
	})
	return err
}
