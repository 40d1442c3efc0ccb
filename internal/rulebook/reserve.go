package rulebook

import (
	"context"
	"encoding/json"
	"time"

	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/guardrails"
	"github.com/edh-platform/rms-portal/internal/store"
)

// reservedFor is how long a create's reserved use counts when its
// resource does not show upstream: longer than any replica's cached lists
// take to show it, so that two replicas never both count the last place
// free.
const reservedFor = 2 * time.Minute

// reserved is the unit's use as the upstream shows it, plus what creates
// judged before reserved and the upstream does not show yet; a
// reservation of one of the resources being judged (judged again: a job
// resumed, a create retried) is not counted twice.
func (rb *Rulebook) reserved(ctx context.Context, call *gate.Call, limits guardrails.Usage, judging map[string]bool) (guardrails.Usage, error) {
	use, _, counted, err := rb.usage(ctx, call, limits)
	if err != nil {
		return nil, err
	}
	scope := gate.RuleScope(call)
	rs, err := rb.o.Store.BudgetReservations(ctx, scope.Unit, scope.Stage, rb.guard.Now().Add(-reservedFor))
	if err != nil {
		return nil, unreadable(err)
	}
	for _, r := range rs {
		if counted[r.Resource] || judging[r.Resource] {
			continue
		}
		var d guardrails.Usage
		if json.Unmarshal(r.Use, &d) == nil {
			use.Add(d)
		}
	}
	return use, nil
}

// reserve records a create's use, judged under the budget's lock.
func (rb *Rulebook) reserve(ctx context.Context, unit, stage, resource string, delta guardrails.Usage) error {
	raw, _ := json.Marshal(delta)
	if err := rb.o.Store.ReserveBudget(ctx, store.BudgetReservation{BU: unit, Stage: stage, Resource: resource, Use: raw, At: rb.guard.Now()}); err != nil {
		return unreadable(err)
	}
	return nil
}
