package rules

import (
	"strconv"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/policy"
)

// Budget dimensions: what a unit holds in a stage.
const (
	Topics          = portal.BudgetTopics
	Partitions      = portal.BudgetPartitions
	StorageBytes    = portal.BudgetStorageBytes
	Connectors      = portal.BudgetConnectors
	ConnectorTasks  = portal.BudgetConnectorTasks
	ServiceAccounts = portal.BudgetServiceAccounts
	APIKeys         = portal.BudgetAPIKeys
)

// Dimensions lists the budget dimensions in the order pages show them.
func Dimensions() []string { return policy.BudgetDimensions() }

// KnownDimension tells whether d is a budget dimension.
func KnownDimension(d string) bool {
	for _, k := range Dimensions() {
		if k == d {
			return true
		}
	}
	return false
}

// Usage is an amount per dimension.
type Usage map[string]int64

// Add adds u's amounts to each dimension.
func (use Usage) Add(u Usage) {
	for k, v := range u {
		use[k] += v
	}
}

// Delta is what a change adds to (or frees from) a unit's use: a topic's
// partitions and its retention.bytes times partitions (where set; a topic
// without it is unbounded and counts for nothing), a connector's tasks
// (tasks.max, 1 when not set).
func Delta(ch Change) Usage {
	d := Usage{}
	add := func(v any, sign int64) {
		switch r := v.(type) {
		case *Topic:
			if r == nil {
				return
			}
			d[Topics] += sign
			d[Partitions] += sign * int64(r.Partitions)
			d[StorageBytes] += sign * TopicStorage(r.Partitions, r.Config)
		case *Connector:
			if r == nil {
				return
			}
			d[Connectors] += sign
			d[ConnectorTasks] += sign * int64(r.Tasks)
		case *ServiceAccount:
			if r != nil {
				d[ServiceAccounts] += sign
			}
		case *APIKey:
			if r != nil {
				d[APIKeys] += sign
			}
		}
	}
	add(ch.Resource, 1)
	add(ch.Before, -1)
	for k, v := range d {
		if v == 0 {
			delete(d, k)
		}
	}
	return d
}

// TopicStorage is what a topic may keep: retention.bytes per partition
// times its partitions; 0 when unbounded (no retention.bytes, or -1).
func TopicStorage(partitions int, config map[string]string) int64 {
	rb, err := strconv.ParseInt(config["retention.bytes"], 10, 64)
	if err != nil || rb <= 0 {
		return 0
	}
	return rb * int64(partitions)
}

// TasksOf is a connector's task count as budgets count it: tasks.max,
// or 1.
func TasksOf(config map[string]string) int {
	if n, err := strconv.Atoi(config["tasks.max"]); err == nil && n > 0 {
		return n
	}
	return 1
}

// Exceeded names the first dimension that a change adding delta to use
// takes beyond its limit; a change that frees or keeps a dimension is
// never refused by it, also when the unit is over its limit already (a
// budget lowered below the use).
func Exceeded(limits, use, delta Usage) (dim string, after int64, over bool) {
	for _, k := range Dimensions() {
		lim, set := limits[k]
		if !set || delta[k] <= 0 {
			continue
		}
		if after := use[k] + delta[k]; after > lim {
			return k, after, true
		}
	}
	return "", 0, false
}

// Show renders an amount of a dimension (bytes in binary units).
func Show(dim string, v int64) string { return policy.ShowAmount(dim, v) }

// Judgement is the guardrails' answer to one change: problems that refuse
// it (POLICY_VIOLATION, BUDGET_EXCEEDED) and warnings that let it through.
type Judgement struct {
	Errors   []*portal.Error
	Warnings []string
}

// Judged is the guardrails' answer to a batch of changes (a plan): each
// change's judgement, and the budget's limits with the use after the
// changes they let through (nil when the unit has no budget).
type Judged struct {
	Each   []Judgement
	Limits Usage
	Use    Usage
}
