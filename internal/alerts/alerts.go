// Package alerts decides, from what a round observed, when a unit's alert
// rule fires and resolves: a condition must hold for the rule's duration
// before it fires, and end clearly (past a margin below the threshold)
// for as long before it resolves, so that a value that wavers around the
// threshold neither floods the unit's channels nor goes quiet. One alert
// is open per rule and subject (a group, a connector, a key, a topic).
package alerts

import (
	"crypto/rand"
	"encoding/base32"
	"fmt"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/store"
)

// Kinds of rules, and what their threshold and target mean.
const (
	// LagTime: a consumer group's lag in time, in seconds, above the
	// threshold; target a group's identifier or "*" for every group of the
	// unit.
	LagTime = "lag_time"
	// Stalled: a group whose committed offsets did not move while records
	// arrived on its topics; target as for LagTime.
	Stalled = "stalled"
	// ConnectorFailed: a connector or one of its tasks failed, or its
	// auto-restart gave up; target a connector's identifier or "*".
	ConnectorFailed = "connector_failed"
	// KeyExpiring: an API key of the unit's accounts expires within the
	// threshold, in days.
	KeyExpiring = "key_expiring"
	// BudgetHeadroom: what is left of a limit of the unit's budget, in
	// percent of it, below the threshold.
	BudgetHeadroom = "budget_headroom"
	// TopicGrowth: records written to a topic, a second, above the
	// threshold; target a topic's identifier or "*".
	TopicGrowth = "topic_growth"
	// CostForecast: the month-end forecast of the unit's costs in the
	// stage, in percent of its budget's monthly amount, above the
	// threshold (100: over the amount).
	CostForecast = "cost_forecast"
)

// Kinds lists the kinds of rules.
func Kinds() []string {
	return []string{LagTime, Stalled, ConnectorFailed, KeyExpiring, BudgetHeadroom, TopicGrowth, CostForecast}
}

// Below tells whether a kind fires when its value falls below the
// threshold (rather than rises above it).
func Below(kind string) bool { return kind == KeyExpiring || kind == BudgetHeadroom }

// Margin is how far past the threshold a value must come back before an
// alert resolves: a tenth of it.
const Margin = 0.1

// States of an alert.
const (
	Pending  = "pending"
	Firing   = "firing"
	Resolved = "resolved"
)

// Observation is one subject's condition at a round: Bad when it holds,
// Clear when it has ended past the margin (neither: it wavers, and the
// alert stays as it is). Value says it for people ("7m12s behind").
type Observation struct {
	Subject    string
	Bad, Clear bool
	Value      string
}

// Judge is a rule's observation of a numeric value: Bad past the
// threshold, Clear past it by the margin, the other way.
func Judge(kind string, threshold, value float64) (bad, clear bool) {
	if Below(kind) {
		return value < threshold, value >= threshold*(1+Margin)
	}
	return value > threshold, value <= threshold*(1-Margin)
}

// Change is an alert that fired or resolved at this round, for the
// unit's channels (unless silenced).
type Change struct {
	Alert store.AlertRecord
	// Fired or resolved.
	Fired bool
}

// Step takes a rule's open alerts (by subject) and a round's
// observations at now, and returns the alerts to save and the changes to
// announce. A subject not observed has ended (the group, connector or key
// is gone).
func Step(rule store.AlertRuleRecord, open map[string]store.AlertRecord, seen []Observation, now time.Time) (save []store.AlertRecord, changes []Change) {
	silenced := now.Before(rule.SilencedUntil)
	observed := map[string]bool{}
	for _, o := range seen {
		observed[o.Subject] = true
		a, isOpen := open[o.Subject]
		switch {
		case !isOpen && o.Bad:
			a = store.AlertRecord{ID: newID(), Zone: rule.Zone, Stage: rule.Stage, BU: rule.BU, Rule: rule.Name, Kind: rule.Kind, Subject: o.Subject,
				State: Pending, Value: o.Value, Since: now}
			a, changes = advance(rule, a, now, silenced, changes)
			save = append(save, a)
		case !isOpen:
		case o.Bad:
			a.Value, a.ClearSince = o.Value, time.Time{}
			a, changes = advance(rule, a, now, silenced, changes)
			save = append(save, a)
		case o.Clear:
			a.Value = o.Value
			a, changes = ending(rule, a, now, silenced, changes)
			save = append(save, a)
		}
	}
	for subject, a := range open {
		if !observed[subject] {
			a.Value = "gone"
			a, changes = ending(rule, a, now, silenced, changes)
			save = append(save, a)
		}
	}
	return save, changes
}

// advance fires a pending alert whose condition held for the rule's
// duration.
func advance(rule store.AlertRuleRecord, a store.AlertRecord, now time.Time, silenced bool, changes []Change) (store.AlertRecord, []Change) {
	if a.State == Pending && !now.Before(a.Since.Add(rule.For)) {
		a.State, a.FiredAt, a.Silenced = Firing, now, silenced
		if !silenced {
			changes = append(changes, Change{Alert: a, Fired: true})
		}
	}
	return a, changes
}

// ending resolves a firing alert whose condition ended for the rule's
// duration (a pending one ends at once, never having fired).
func ending(rule store.AlertRuleRecord, a store.AlertRecord, now time.Time, silenced bool, changes []Change) (store.AlertRecord, []Change) {
	if a.State == Pending {
		a.State, a.ResolvedAt = Resolved, now
		return a, changes
	}
	if a.ClearSince.IsZero() {
		a.ClearSince = now
	}
	if !now.Before(a.ClearSince.Add(rule.For)) {
		a.State, a.ResolvedAt = Resolved, now
		// A resolution is told where the firing was.
		if !a.Silenced && !silenced {
			changes = append(changes, Change{Alert: a})
		}
	}
	return a, changes
}

func newID() string {
	b := make([]byte, 10)
	_, _ = rand.Read(b)
	return "al-" + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b))
}

// Describe says a rule for people ("lag in time above 5m0s for 5m0s").
func Describe(r store.AlertRuleRecord) string {
	target := r.Target
	if target == "" || target == "*" {
		target = "any"
	}
	switch r.Kind {
	case LagTime:
		return fmt.Sprintf("%s group's lag in time above %s for %s", target, time.Duration(r.Threshold*float64(time.Second)), r.For)
	case Stalled:
		return fmt.Sprintf("%s group not consuming while records arrive, for %s", target, r.For)
	case ConnectorFailed:
		return fmt.Sprintf("%s connector or task failed (or its auto-restart gave up), for %s", target, r.For)
	case KeyExpiring:
		return fmt.Sprintf("an API key expires within %g days", r.Threshold)
	case BudgetHeadroom:
		return fmt.Sprintf("less than %g%% of a budget limit left, for %s", r.Threshold, r.For)
	case TopicGrowth:
		return fmt.Sprintf("%s topic written faster than %g records/s, for %s", target, r.Threshold, r.For)
	}
	return r.Kind
}
