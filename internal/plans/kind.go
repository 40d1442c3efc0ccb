package plans

import (
	"context"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// Kind is one resource kind's part of resources as code, kept by that
// kind's service with the rules it shares with single calls: how to read
// what exists, plan a declared resource, plan deleting what is not
// declared, and declare what exists.
type Kind interface {
	// Kind is the kind as documents name it (portal.KindTopic).
	Kind() string
	// Action is the policy's action that changing the kind needs.
	Action() access.Action
	// Prunes tells whether the kind's undeclared resources are deleted by
	// a plan with prune (a subject's versions are history, and accounts
	// own credentials: never).
	Prunes() bool
	// Observe reads what exists of the kind in the unit's scope, once per
	// plan; declared are the document's resources of the kind (none for
	// an export).
	Observe(ctx context.Context, call *gate.Call, declared []portal.Resource) (Observed, error)
	// Plan plans one declared resource against what exists.
	Plan(ctx context.Context, call *gate.Call, obs Observed, r portal.Resource) (*Step, error)
	// Prune plans deleting the unit's resources that keep does not hold
	// (by Step.Key).
	Prune(call *gate.Call, obs Observed, keep map[string]bool) []*Step
	// Export declares the unit's resources of the kind as they are.
	Export(ctx context.Context, call *gate.Call, obs Observed) ([]portal.Resource, error)
}

// Observed is what a kind read of its upstream state; only the kind
// reads it.
type Observed any
