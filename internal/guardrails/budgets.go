package guardrails

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/guardrails/rules"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/policy"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
	"github.com/edh-platform/rms-portal/internal/store"
)

// clusterWarning is the share of a cluster's partition limit in use at
// which the overview warns.
const clusterWarning = 0.8

// UnitBudget is a unit's use against its budget in a stage; anyone with
// a role in the unit may read it.
func (gr *Service) UnitBudget(ctx context.Context, scope portal.Scope, limitedOnly bool) (portal.Budget, error) {
	ctx, call, err := gr.guard.Enter(ctx, scope, access.Read, "read budgets")
	if err != nil {
		return portal.Budget{}, err
	}
	if limitedOnly {
		limits, err := gr.limits(ctx, call.Scope.Unit.ID, call.Scope.Stage.Name)
		if err != nil || len(limits) == 0 {
			return portal.Budget{BU: call.Scope.Unit.ID, Stage: call.Scope.Stage.Name, Zone: call.Scope.Zone().ID}, err
		}
	}
	return gr.budgetOf(ctx, call.Unit())
}

// budgetOf reads a unit's budget in a stage and its use of every
// dimension.
func (gr *Service) budgetOf(ctx context.Context, call *gate.Call) (portal.Budget, error) {
	unit, stage := call.Scope.Unit.ID, call.Scope.Stage.Name
	limits, rec, err := gr.budgetRecord(ctx, unit, stage)
	if err != nil {
		return portal.Budget{}, err
	}
	b := portal.Budget{BU: unit, Stage: stage, Zone: call.Scope.Zone().ID, UpdatedBy: rec.UpdatedBy, Updated: rec.Updated,
		MonthlyCost: limits[portal.BudgetMonthlyCost]}
	use, unbounded, _, err := gr.usage(ctx, call, nil)
	if err != nil {
		return portal.Budget{}, err
	}
	for _, d := range rules.Dimensions() {
		line := portal.BudgetLine{Dimension: d, Use: use[d]}
		if l, ok := limits[d]; ok {
			line.Limit = &l
			if use[d] >= l {
				b.Warnings = append(b.Warnings, fmt.Sprintf("%s: %s in use of a limit of %s; writes that add to it are refused (nothing is deleted)", d, rules.Show(d, use[d]), rules.Show(d, l)))
			}
		}
		if d == rules.StorageBytes {
			line.Unbounded = unbounded
		}
		b.Lines = append(b.Lines, line)
	}
	return b, nil
}

// SetBudget sets a unit's limits in a stage (none: the budget is
// removed). A limit at or below the use is kept, with a warning: new
// writes that add to it are refused, nothing is deleted.
func (gr *Service) SetBudget(ctx context.Context, bu, stage string, limits map[string]int64) (portal.Budget, error) {
	p, _, err := gr.enter(ctx, access.ManageGuardrails, "")
	if err != nil {
		return portal.Budget{}, err
	}
	var v portal.Validation
	for _, k := range slices.Sorted(maps.Keys(limits)) {
		switch {
		case k == portal.BudgetMonthlyCost:
			// An amount of money, not a judged dimension: a forecast over it
			// warns (the cost_forecast alert), no write is refused for it.
		case !rules.KnownDimension(k):
			v.Add(portal.Invalid("limits."+k, "%s is not a budget; budgets are %s", k, strings.Join(rules.Dimensions(), ", ")))
		case limits[k] < 0:
			v.Add(portal.Invalid("limits."+k, "a limit is 0 or more, not %d", limits[k]))
		}
	}
	if err := v.Err(); err != nil {
		return portal.Budget{}, err
	}
	_, call, err := gr.guard.Enter(gate.WithApplyStep(ctx), portal.Scope{BU: bu, Stage: stage}, access.Read, "set budgets")
	if err != nil {
		return portal.Budget{}, err
	}
	call = call.Unit()
	before, err := gr.limits(ctx, bu, stage)
	if err != nil {
		return portal.Budget{}, err
	}
	err = gr.guard.WriteEvent(ctx, event(p, portal.ActBudgetSet, call.Scope.Zone().ID, bu, stage, "budget "+bu+"/"+stage), gate.Change{
		Do: func(ctx context.Context) error {
			if len(limits) == 0 {
				if err := gr.o.Store.DeleteBudgetRecord(ctx, bu, stage); !errors.Is(err, store.ErrNotFound) {
					return err
				}
				return nil
			}
			body, _ := json.Marshal(limits)
			return gr.o.Store.PutBudgetRecord(ctx, store.BudgetRecord{BU: bu, Stage: stage, Zone: call.Scope.Zone().ID, Limits: body, UpdatedBy: p.Actor(), Updated: gr.guard.Now().UTC()})
		},
		Changes: limitChanges(before, limits)})
	if err != nil {
		return portal.Budget{}, err
	}
	return gr.budgetOf(ctx, call)
}

// limitChanges lists a budget's limits before and after, for the trail.
func limitChanges(before, after rules.Usage) []trail.Change {
	show := func(u rules.Usage, d string) string {
		if v, ok := u[d]; ok {
			return strconv.FormatInt(v, 10)
		}
		return ""
	}
	var out []trail.Change
	for _, d := range rules.Dimensions() {
		if b, a := show(before, d), show(after, d); b != a {
			out = append(out, trail.Change{Field: "limits." + d, Before: b, After: a})
		}
	}
	return out
}

// Budgets is every unit's use against its budgets in the zones the caller
// may read, and each zone cluster's partitions against its limit.
func (gr *Service) Budgets(ctx context.Context) (policy.BudgetOverview, error) {
	p, t, err := gr.enter(ctx, access.ReadGuardrails, "")
	if err != nil {
		return policy.BudgetOverview{}, err
	}
	out := policy.BudgetOverview{Budgets: []portal.Budget{}, Clusters: []policy.ClusterUse{}}
	for _, z := range t.LandingZones() {
		if access.CheckAdmin(p, t, access.ReadGuardrails, z.ID) != nil {
			continue
		}
		clusters := map[string]*policy.ClusterUse{}
		err := gr.eachScope(ctx, t, z.ID, nil, nil, func(call *gate.Call, err error) {
			b := portal.Budget{BU: call.Scope.Unit.ID, Stage: call.Scope.Stage.Name, Zone: z.ID}
			if err == nil {
				b, err = gr.budgetOf(ctx, call)
			}
			if err != nil {
				b.Warnings = append(b.Warnings, "use not read: "+portal.FirstMessage(err))
				out.Budgets = append(out.Budgets, b)
				return
			}
			out.Budgets = append(out.Budgets, b)
			stage := call.Scope.Stage.Name
			if _, seen := clusters[stage]; !seen {
				clusters[stage] = gr.clusterUse(ctx, call)
			}
		})
		if err != nil {
			return policy.BudgetOverview{}, err
		}
		for _, st := range t.Stages() {
			if c := clusters[st.Name]; c != nil {
				out.Clusters = append(out.Clusters, *c)
			}
		}
	}
	return out, nil
}

// clusterUse is the partitions of a zone stage's cluster (every topic,
// of every unit and none) against its limit.
func (gr *Service) clusterUse(ctx context.Context, call *gate.Call) *policy.ClusterUse {
	c := &policy.ClusterUse{Zone: call.Scope.Zone().ID, Stage: call.Scope.Stage.Name, Cluster: call.Env.ClusterID}
	if all, err := call.Env.Topics.ListTopics(ctx); err == nil {
		for _, t := range all {
			c.Partitions += int64(t.Partitions)
		}
	}
	if gr.o.ClusterLimit != nil {
		c.Limit, c.Source = gr.o.ClusterLimit(ctx, c.Zone, c.Stage)
	}
	c.Warning = c.Limit > 0 && float64(c.Partitions) >= clusterWarning*float64(c.Limit)
	return c
}

// Headroom is what is left of each limit of a unit's budget in a stage,
// in percent of the limit (none without a budget): the portal's own read,
// for the alerts' round.
func (gr *Service) Headroom(ctx context.Context, zone, stage, unit string) (map[string]float64, error) {
	limits, err := gr.limits(ctx, unit, stage)
	if err != nil || len(limits) == 0 {
		return nil, err
	}
	ctx, call, err := gr.guard.Portal(ctx, unit, stage)
	if err != nil {
		return nil, err
	}
	if call.Scope.Zone().ID != zone {
		return nil, nil
	}
	use, _, _, err := gr.usage(ctx, call, limits)
	if err != nil {
		return nil, err
	}
	out := map[string]float64{}
	for d, l := range limits {
		if l > 0 && d != portal.BudgetMonthlyCost {
			out[d] = max(0, float64(l-use[d])) * 100 / float64(l)
		}
	}
	return out, nil
}
