package alerts

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/edh-platform/rms-portal/internal/connectors"
	"github.com/edh-platform/rms-portal/internal/groups"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/store"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// alertSources read what rules look at, once per environment a round,
// whatever the number of rules: the connectors' states (one listing), the
// groups' positions (the groups' list, their committed offsets and the
// ends, batched: what the lag-in-time sampler reads), the topics' ends
// (one batched request), the keys' records and the budgets (the store).
// What a rate or a stall needs from earlier rounds is kept here, on the
// replica that runs them.
type alertSources struct {
	groups    *groups.Service
	budgets   Budgets
	forecasts Forecasts

	mu     sync.Mutex
	moves  map[string]groupMark
	growth map[string]topicMark
	// quiet are the environments whose last listing had no connector of
	// their units, and when they are listed next: a replica of many environments lists
	// those every quietEvery, not every round.
	quiet map[string]time.Time
}

// quietEvery is how often an environment without connectors is listed
// again.
const quietEvery = 5 * time.Minute

// roundReads are a round's reads shared by every environment: the keys
// that expire within a year (one query).
type roundReads struct {
	keys     readOnce
	expiring []store.KeyRecord
}

// groupMark is where a group's committed offsets last moved, and how far
// its topics had been written then.
type groupMark struct {
	committed, ends int64
	at              time.Time
}

// topicMark is a topic's records written, at a round.
type topicMark struct {
	ends int64
	at   time.Time
}

func newAlertSources(groups *groups.Service, budgets Budgets) *alertSources {
	return &alertSources{groups: groups, budgets: budgets, moves: map[string]groupMark{}, growth: map[string]topicMark{}, quiet: map[string]time.Time{}}
}

// envReads are one round's reads of an environment, made when a rule
// first needs them and shared by every unit's rules.
type envReads struct {
	src   *alertSources
	round *roundReads
	env   *platform.Environment
	store AlertStore
	now   time.Time

	connectors, groups, topics, restarts readOnce
	connectorList                        []platform.Connector
	groupState                           map[string]groupNow
	topicRate                            map[string]float64
	headroom                             map[string]map[string]float64
	// gaveUp are the connectors whose auto-restart gave up, with its
	// restarts.
	gaveUp map[string]int
}

// readOnce is a read made at most once a round, and its error.
type readOnce struct {
	done bool
	err  error
}

func (r *readOnce) do(read func() error) error {
	if !r.done {
		r.done, r.err = true, read()
	}
	return r.err
}

// groupNow is a group's lag in time and whether it is stalled.
type groupNow struct {
	lagKnown   bool
	lag        time.Duration
	stalled    bool
	behind     int64
	stillSince time.Time
}

// observe is a rule's observations for its unit (scope).
func (r *envReads) observe(ctx context.Context, rule store.AlertRuleRecord, scope tenancy.Scope) ([]Observation, error) {
	switch rule.Kind {
	case ConnectorFailed:
		return r.connectorsFailed(ctx, rule, scope)
	case LagTime, Stalled:
		return r.groupsBehind(ctx, rule, scope)
	case TopicGrowth:
		return r.topicsGrowing(ctx, rule, scope)
	case KeyExpiring:
		return r.keysExpiring(ctx, rule, scope)
	case BudgetHeadroom:
		return r.budgetLeft(ctx, rule, scope)
	case CostForecast:
		return r.costForecast(ctx, rule, scope)
	}
	return nil, nil
}

// targets tells whether a rule's target covers a resource of the unit.
func targets(rule store.AlertRuleRecord, scope tenancy.Scope, name, suffix string) bool {
	if !scope.Owns(name) {
		return false
	}
	return rule.Target == "" || rule.Target == "*" || strings.TrimSuffix(scope.Identifier(name), suffix) == tenancy.Normalise(rule.Target)
}

func (r *envReads) connectorsFailed(ctx context.Context, rule store.AlertRuleRecord, scope tenancy.Scope) ([]Observation, error) {
	if err := r.connectors.do(func() error { return r.listConnectors(ctx) }); err != nil {
		return nil, err
	}
	var out []Observation
	for _, c := range r.connectorList {
		if !targets(rule, scope, c.Name, tenancy.ConnectorSuffix) {
			continue
		}
		failing := c.Failing()
		value := c.State
		if failing {
			value += ": " + connectors.FailureLine(c)
		}
		if failing {
			if err := r.restarts.do(func() error { return r.readGivenUp(ctx) }); err != nil {
				return nil, err
			}
			if n, gaveUp := r.gaveUp[c.Name]; gaveUp {
				value = fmt.Sprintf("auto-restart gave up after %d restarts; %s", n, value)
			}
		}
		out = append(out, Observation{Subject: c.Name, Bad: failing, Clear: !failing, Value: value})
	}
	return out, nil
}

// listConnectors lists the cluster's connectors, unless the last listing
// had none of the zone's units and the next is not due: then none are
// seen, as then.
func (r *envReads) listConnectors(ctx context.Context) error {
	r.src.mu.Lock()
	next, quiet := r.src.quiet[r.env.Name()]
	r.src.mu.Unlock()
	if quiet && r.now.Before(next) {
		return nil
	}
	list, err := r.env.Connectors.ListConnectors(ctx)
	if err != nil {
		return err
	}
	r.connectorList = list
	// Connectors of the zone's units carry its id first; others (a
	// cluster shared with another zone, outside the convention) are no
	// unit's to be told about.
	ours := slices.ContainsFunc(list, func(c platform.Connector) bool { return strings.HasPrefix(c.Name, r.env.Zone+"-") })
	r.src.mu.Lock()
	defer r.src.mu.Unlock()
	if !ours {
		r.src.quiet[r.env.Name()] = r.now.Add(quietEvery)
	} else {
		delete(r.src.quiet, r.env.Name())
	}
	return nil
}

// readGivenUp reads which connectors' auto-restart gave up, when one is
// failing.
func (r *envReads) readGivenUp(ctx context.Context) error {
	ars, err := r.store.AutoRestartsIn(ctx, r.env.Zone, r.env.Stage)
	r.gaveUp = map[string]int{}
	for _, a := range ars {
		if a.GivenUp {
			r.gaveUp[a.Connector] = a.Attempts
		}
	}
	return err
}

func (r *envReads) groupsBehind(ctx context.Context, rule store.AlertRuleRecord, scope tenancy.Scope) ([]Observation, error) {
	if err := r.groups.do(func() error { return r.readGroups(ctx) }); err != nil {
		return nil, err
	}
	var out []Observation
	for id, g := range r.groupState {
		if !targets(rule, scope, id, "") {
			continue
		}
		o := Observation{Subject: id}
		switch rule.Kind {
		case LagTime:
			if !g.lagKnown {
				continue // not known yet: a first sample is needed
			}
			o.Bad, o.Clear = Judge(rule.Kind, rule.Threshold, g.lag.Seconds())
			o.Value = fmt.Sprintf("%s behind (%d records)", g.lag.Round(time.Second), g.behind)
		case Stalled:
			o.Bad, o.Clear = g.stalled, !g.stalled
			o.Value = fmt.Sprintf("%d records behind, no commit since %s", g.behind, g.stillSince.UTC().Format(time.RFC3339))
		}
		out = append(out, o)
	}
	return out, nil
}

// readGroups reads every group's positions on the cluster (the groups'
// list, then their offsets and the ends, batched), feeds them to the
// lag-in-time history, and judges each group.
func (r *envReads) readGroups(ctx context.Context) error {
	list, err := r.env.Groups.ListGroups(ctx)
	if err != nil {
		return err
	}
	ids := make([]string, 0, len(list))
	for _, g := range list {
		ids = append(ids, g.ID)
	}
	r.groupState = map[string]groupNow{}
	if len(ids) == 0 {
		return nil
	}
	committed, ends, err := groups.Positions(ctx, r.env, ids)
	if err != nil {
		return err
	}
	r.src.groups.Observe(r.env, committed, ends)
	r.src.mu.Lock()
	defer r.src.mu.Unlock()
	for id, offs := range committed {
		var late timeLag
		var sumCommitted, sumEnds int64
		for _, o := range offs {
			if o.Offset < 0 {
				continue
			}
			end := ends[o.TopicPartition]
			e := r.src.groups.Lateness(r.env, id, o, end)
			late.add(e.Known, e.Age)
			sumCommitted += o.Offset
			sumEnds += end
		}
		key := r.env.Name() + "\x00" + id
		mark, seen := r.src.moves[key]
		if !seen || mark.committed != sumCommitted {
			mark = groupMark{committed: sumCommitted, ends: sumEnds, at: r.now}
			r.src.moves[key] = mark
		}
		behind := max(0, sumEnds-sumCommitted)
		r.groupState[id] = groupNow{lagKnown: late.known, lag: late.age, behind: behind, stillSince: mark.at,
			stalled: seen && mark.committed == sumCommitted && sumEnds > mark.ends && behind > 0}
	}
	return nil
}

// timeLag keeps the largest known lag in time of a group's partitions.
type timeLag struct {
	known bool
	age   time.Duration
}

func (t *timeLag) add(known bool, age time.Duration) {
	if known && (!t.known || age > t.age) {
		t.known, t.age = true, age
	}
}

func (r *envReads) topicsGrowing(ctx context.Context, rule store.AlertRuleRecord, scope tenancy.Scope) ([]Observation, error) {
	if err := r.topics.do(func() error { return r.readTopics(ctx) }); err != nil {
		return nil, err
	}
	var out []Observation
	for name, rate := range r.topicRate {
		if !targets(rule, scope, name, "") {
			continue
		}
		bad, clear := Judge(rule.Kind, rule.Threshold, rate)
		out = append(out, Observation{Subject: name, Bad: bad, Clear: clear, Value: fmt.Sprintf("%.1f records/s", rate)})
	}
	return out, nil
}

// readTopics reads the ends of every partition of the cluster's topics
// (one batched request) and the rate each grew at since the last round.
func (r *envReads) readTopics(ctx context.Context) error {
	topics, err := r.env.Topics.ListTopics(ctx)
	if err != nil {
		return err
	}
	var parts []platform.TopicPartition
	for _, t := range topics {
		if t.Internal {
			continue
		}
		for p := range t.Partitions {
			parts = append(parts, platform.TopicPartition{Topic: t.Name, Partition: p})
		}
	}
	r.topicRate = map[string]float64{}
	if len(parts) == 0 {
		return nil
	}
	ends, err := r.env.Groups.Offsets(ctx, parts, platform.OffsetQuery{})
	if err != nil {
		return err
	}
	sums := map[string]int64{}
	for tp, end := range ends {
		sums[tp.Topic] += end
	}
	r.src.mu.Lock()
	defer r.src.mu.Unlock()
	for topic, sum := range sums {
		key := r.env.Name() + "\x00" + topic
		if last, ok := r.src.growth[key]; ok && r.now.After(last.at) {
			r.topicRate[topic] = float64(max(0, sum-last.ends)) / r.now.Sub(last.at).Seconds()
		}
		r.src.growth[key] = topicMark{ends: sum, at: r.now}
	}
	return nil
}

func (r *envReads) keysExpiring(ctx context.Context, rule store.AlertRuleRecord, scope tenancy.Scope) ([]Observation, error) {
	if err := r.round.keys.do(func() (err error) {
		// The rules' longest threshold is a year.
		r.round.expiring, err = r.store.ExpiredKeys(ctx, r.now.Add(366*24*time.Hour), 100_000)
		return err
	}); err != nil {
		return nil, err
	}
	var out []Observation
	for _, k := range r.round.expiring {
		if k.Zone != r.env.Zone || k.Stage != r.env.Stage || k.BU != scope.Unit.ID || k.ReplacedBy != "" {
			continue
		}
		days := k.Expires.Sub(r.now).Hours() / 24
		bad, clear := Judge(rule.Kind, rule.Threshold, days)
		out = append(out, Observation{Subject: k.ID + " (" + k.Owner + ")", Bad: bad, Clear: clear,
			Value: "expires " + k.Expires.UTC().Format(time.RFC3339)})
	}
	return out, nil
}

func (r *envReads) budgetLeft(ctx context.Context, rule store.AlertRuleRecord, scope tenancy.Scope) ([]Observation, error) {
	if r.src.budgets == nil {
		return nil, nil
	}
	left, read := r.headroom[scope.Unit.ID]
	if !read {
		var err error
		if left, err = r.src.budgets.Headroom(ctx, r.env.Zone, r.env.Stage, scope.Unit.ID); err != nil {
			return nil, err
		}
		if r.headroom == nil {
			r.headroom = map[string]map[string]float64{}
		}
		r.headroom[scope.Unit.ID] = left
	}
	var out []Observation
	for dim, pct := range left {
		bad, clear := Judge(rule.Kind, rule.Threshold, pct)
		out = append(out, Observation{Subject: dim, Bad: bad, Clear: clear, Value: fmt.Sprintf("%.0f%% of the limit left", pct)})
	}
	return out, nil
}

// costForecast observes the unit's month-end forecast against its
// monthly amount; a unit without one is not observed.
func (r *envReads) costForecast(ctx context.Context, rule store.AlertRuleRecord, scope tenancy.Scope) ([]Observation, error) {
	if r.src.forecasts == nil {
		return nil, nil
	}
	forecast, amount, err := r.src.forecasts.MonthForecast(ctx, r.env.Zone, r.env.Stage, scope.Unit.ID)
	if err != nil || amount <= 0 {
		return nil, err
	}
	pct := forecast * 100 / amount
	bad, clear := Judge(rule.Kind, rule.Threshold, pct)
	return []Observation{{Subject: "monthly_cost", Bad: bad, Clear: clear,
		Value: fmt.Sprintf("month-end forecast $%.2f, %.0f%% of the $%.0f budget", forecast, pct, amount)}}, nil
}
