// Package costs says what each business unit uses and costs: it collects
// the topics' usage from the Metrics API into hourly and daily rollups,
// reads the organisation's daily costs from the Billing API, and splits
// each cost line of a shared cluster across its units by their share of
// the matching usage, keeping the rule and its inputs beside each figure
// so that a unit can check its bill.
package costs

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/store"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// Base rules split a shared cluster's base capacity (and its Schema
// Registry) across its units.
const (
	BaseEqual      = "equal"
	BasePartitions = "partitions"
	BaseBytes      = "bytes"
)

// Rules name how a share was made; they are shown beside each figure.
const (
	RuleRetained   = "retained bytes"
	RuleBytesIn    = "bytes in"
	RuleBytesOut   = "bytes out"
	RulePartitions = "partitions"
	RuleBytes      = "bytes in and out"
	RuleEqual      = "equal among units"
	RuleDedicated  = "dedicated cluster"
	RuleConnector  = "connector's unit"
	RuleOrg        = "organisation"
	RuleNoUsage    = "no usage known"
)

// Cluster is what a billed resource belongs to: a stage's cluster of a
// zone (or its Schema Registry), a dedicated zone's unit.
type Cluster struct {
	Zone, Stage string
	// Dedicated is the unit of a dedicated zone ("" on a shared one).
	Dedicated string
}

// Inputs are what a day's lines are split by: the resources' places, the
// connectors' owners (by id: zone, stage, unit), and each stage's units'
// usage of the day (store.UsageDay by unit; BU "" the topics of none).
type Inputs struct {
	Clusters   map[string]Cluster
	Connectors map[string]store.CostShare
	Usage      map[portal.ZoneStage][]store.UsageDay
	BaseRule   string
}

// Allocate splits a day's cost lines into the units' shares. Every
// line's amount is split whole: the shares of a line add up to it, what
// no unit used stays with BU "" (topics outside the convention), and the
// lines of no cluster (support, credits) are the organisation's (Zone
// "").
func Allocate(day time.Time, lines []store.CostRecord, in Inputs) []store.CostShare {
	var out []store.CostShare
	for _, l := range lines {
		base := store.CostShare{Day: day, LineType: l.LineType, ResourceID: l.ResourceID, ResourceName: l.ResourceName, LineAmount: l.Amount}
		if k, ok := in.Connectors[l.ResourceID]; ok && strings.HasPrefix(l.LineType, "CONNECT") {
			s := base
			s.Zone, s.Stage, s.BU, s.Rule, s.UnitUse, s.TotalUse, s.Amount = k.Zone, k.Stage, k.BU, RuleConnector, 1, 1, l.Amount
			out = append(out, s)
			continue
		}
		c, ok := in.Clusters[l.ResourceID]
		if !ok {
			s := base
			s.Rule, s.UnitUse, s.TotalUse, s.Amount = RuleOrg, 1, 1, l.Amount
			out = append(out, s)
			continue
		}
		base.Zone, base.Stage = c.Zone, c.Stage
		if c.Dedicated != "" {
			s := base
			s.BU, s.Rule, s.UnitUse, s.TotalUse, s.Amount = c.Dedicated, RuleDedicated, 1, 1, l.Amount
			out = append(out, s)
			continue
		}
		out = append(out, split(base, ruleOf(l.LineType, in.BaseRule), in.Usage[portal.ZoneStage{Zone: c.Zone, Stage: c.Stage}])...)
	}
	return out
}

// ruleOf is the usage a line type is split by.
func ruleOf(lineType, baseRule string) string {
	switch lineType {
	case "KAFKA_STORAGE":
		return RuleRetained
	case "KAFKA_NETWORK_WRITE":
		return RuleBytesIn
	case "KAFKA_NETWORK_READ":
		return RuleBytesOut
	case "KAFKA_PARTITION":
		return RulePartitions
	}
	switch baseRule {
	case BasePartitions:
		return RulePartitions
	case BaseBytes:
		return RuleBytes
	}
	return RuleEqual
}

// use is a unit's day's figure under a rule.
func use(rule string, u store.UsageDay) float64 {
	switch rule {
	case RuleRetained:
		return u.RetainedBytes
	case RuleBytesIn:
		return u.BytesIn
	case RuleBytesOut:
		return u.BytesOut
	case RulePartitions:
		return u.Partitions
	case RuleBytes:
		return u.BytesIn + u.BytesOut
	}
	if u.BU == "" {
		return 0 // equal among units: the topics of none are not one
	}
	return 1
}

// split shares one line of a shared cluster by a rule; with no usage
// known for it, the line stays unallocated (BU "") rather than be split
// by a guess.
func split(base store.CostShare, rule string, units []store.UsageDay) []store.CostShare {
	total := 0.0
	for _, u := range units {
		total += use(rule, u)
	}
	if total <= 0 {
		s := base
		s.Rule, s.UnitUse, s.TotalUse, s.Amount = RuleNoUsage, 1, 1, base.LineAmount
		return []store.CostShare{s}
	}
	var out []store.CostShare
	for _, u := range units {
		n := use(rule, u)
		if n <= 0 {
			continue
		}
		s := base
		s.BU, s.Rule, s.UnitUse, s.TotalUse, s.Amount = u.BU, rule, n, total, base.LineAmount*n/total
		out = append(out, s)
	}
	return out
}

// Category is what a cost line pays for, for charts and the topics'
// split: storage, network, partitions, base (capacity, registry),
// connect, other.
func Category(lineType string) string {
	switch {
	case lineType == "KAFKA_STORAGE":
		return "storage"
	case strings.HasPrefix(lineType, "KAFKA_NETWORK"):
		return "network"
	case lineType == "KAFKA_PARTITION":
		return "partitions"
	case strings.HasPrefix(lineType, "KAFKA") || strings.HasPrefix(lineType, "GOVERNANCE"):
		return "base"
	case strings.HasPrefix(lineType, "CONNECT"):
		return "connect"
	}
	return "other"
}

// TopicMonth is a topic's usage summed over a month's days (the daily
// means of retained bytes and partitions summed, so a topic that lived
// half the month weighs half).
type TopicMonth struct {
	Topic, BU         string
	Retained, In, Out float64
	Partitions        float64
}

// SplitTopics divides each unit's month of shares of a stage across its
// topics: storage by retained bytes, network by bytes in and out,
// partitions by partitions, base by the base rule (equal: evenly among
// the unit's topics). Connect and other lines are the unit's, not a
// topic's.
func SplitTopics(zone, stage string, month time.Time, shares []store.CostShare, topics []TopicMonth, baseRule string) []store.TopicCost {
	amounts := map[string]map[string]float64{} // bu -> category -> amount
	for _, s := range shares {
		if s.Zone != zone || s.Stage != stage {
			continue
		}
		if amounts[s.BU] == nil {
			amounts[s.BU] = map[string]float64{}
		}
		amounts[s.BU][Category(s.LineType)] += s.Amount
	}
	type totals struct{ retained, bytes, partitions, count float64 }
	sums := map[string]*totals{}
	for _, t := range topics {
		s := sums[t.BU]
		if s == nil {
			s = &totals{}
			sums[t.BU] = s
		}
		s.retained += t.Retained
		s.bytes += t.In + t.Out
		s.partitions += t.Partitions
		s.count++
	}
	frac := func(n, total float64) float64 {
		if total <= 0 {
			return 0
		}
		return n / total
	}
	var out []store.TopicCost
	for _, t := range topics {
		a, s := amounts[t.BU], sums[t.BU]
		if a == nil {
			continue
		}
		c := store.TopicCost{Zone: zone, Stage: stage, BU: t.BU, Topic: t.Topic, Month: month,
			Storage:    a["storage"] * frac(t.Retained, s.retained),
			Network:    a["network"] * frac(t.In+t.Out, s.bytes),
			Partitions: a["partitions"] * frac(t.Partitions, s.partitions)}
		switch baseRule {
		case BasePartitions:
			c.Base = a["base"] * frac(t.Partitions, s.partitions)
		case BaseBytes:
			c.Base = a["base"] * frac(t.In+t.Out, s.bytes)
		default:
			c.Base = a["base"] / s.count
		}
		c.Amount = c.Storage + c.Network + c.Partitions + c.Base
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Amount > out[j].Amount })
	return out
}

// CheckRule refuses a base rule the portal does not know.
func CheckRule(rule string) error {
	switch rule {
	case BaseEqual, BasePartitions, BaseBytes:
		return nil
	}
	return fmt.Errorf("costs.base_rule %q: equal, partitions or bytes", rule)
}
