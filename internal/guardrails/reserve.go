package guardrails

import (
	"context"
	"encoding/json"
	"time"

	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/guardrails/rules"
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
func (gr *Service) reserved(ctx context.Context, call *gate.Call, limits rules.Usage, judging map[string]bool) (rules.Usage, error) {
	use, _, counted, err := gr.usage(ctx, call, limits)
	if err != nil {
		return nil, err
	}
	scope := gate.RuleScope(call)
	rs, err := gr.o.Store.BudgetReservations(ctx, scope.Unit, scope.Stage, gr.guard.Now().Add(-reservedFor))
	if err != nil {
		return nil, unreadable(err)
	}
	for _, r := range rs {
		if counted[r.Resource] || judging[r.Resource] {
			continue
		}
		var d rules.Usage
		if json.Unmarshal(r.Use, &d) == nil {
			use.Add(d)
		}
	}
	return use, nil
}

// reserve records a create's use, judged under the budget's lock.
func (gr *Service) reserve(ctx context.Context, unit, stage, resource string, delta rules.Usage) error {
	raw, _ := json.Marshal(delta)
	if err := gr.o.Store.ReserveBudget(ctx, store.BudgetReservation{BU: unit, Stage: stage, Resource: resource, Use: raw, At: gr.guard.Now()}); err != nil {
		return unreadable(err)
	}
	return nil
}
