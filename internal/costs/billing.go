package costs

import (
	"context"
	"fmt"
	"time"

	"github.com/edh-platform/rms-portal/internal/store"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// refreshDays are the last days read again every round: the Billing API
// settles a day's lines over the following days.
const refreshDays = 5

// CollectCosts reads the organisation's daily costs (the days not read
// yet back to Backfill, a month at most a round, and the last
// refreshDays), splits each day read and each day of usage read since
// (usage) across the units, and the month's topic costs of each month
// touched. Its count is the days read.
func (c *Collector) CollectCosts(ctx context.Context, usage map[time.Time]bool) (int, error) {
	today := c.o.Now().UTC().Truncate(24 * time.Hour)
	first := today.Add(-c.o.Backfill).Truncate(24 * time.Hour)
	have, err := c.o.Store.CostDays(ctx, first, today)
	if err != nil {
		return 0, err
	}
	start := today.AddDate(0, 0, -refreshDays)
	known := map[time.Time]bool{}
	for _, d := range have {
		known[d] = true
	}
	for d := first; d.Before(start); d = d.AddDate(0, 0, 1) {
		if !known[d] {
			start = d
			break
		}
	}
	end := minTime(today, start.AddDate(0, 1, 0))
	lines, err := c.o.Billing.Costs(ctx, start, end)
	if err != nil {
		return 0, fmt.Errorf("reading costs of %s to %s: %w", start.Format(time.DateOnly), end.Format(time.DateOnly), err)
	}
	var days []time.Time
	for d := start; d.Before(end); d = d.AddDate(0, 0, 1) {
		days = append(days, d)
	}
	records := make([]store.CostRecord, 0, len(lines))
	billed := map[time.Time]bool{}
	for _, l := range lines {
		billed[l.Day.UTC()] = true
		records = append(records, store.CostRecord{Day: l.Day.UTC(), ID: l.ID, Product: l.Product, LineType: l.LineType, ResourceID: l.ResourceID,
			ResourceName: l.ResourceName, EnvironmentID: l.EnvironmentID, Unit: l.Unit, Quantity: l.Quantity, Price: l.Price,
			Original: l.Original, Discount: l.Discount, Amount: l.Amount, Description: l.Description})
	}
	// A day the API has no line of yet is not emptied.
	days = filter(days, func(d time.Time) bool { return billed[d] })
	if err := c.o.Store.PutCostDays(ctx, days, records); err != nil {
		return 0, err
	}
	months := map[time.Time]bool{}
	split := map[time.Time]bool{}
	for _, d := range days {
		split[d] = true
	}
	for d := range usage {
		if !split[d] && !d.Before(first) {
			split[d] = true
		}
	}
	for d := range split {
		if err := c.Allocate(ctx, d); err != nil {
			return 0, err
		}
		months[MonthOf(d)] = true
	}
	for m := range months {
		if err := c.SplitMonth(ctx, m); err != nil {
			return 0, err
		}
	}
	return len(days), nil
}

// places maps the billed resources to their stages: each stage's
// cluster and Schema Registry, and each environment.
func (c *Collector) places() (map[string]Cluster, map[string]Cluster) {
	t := c.o.Tenancy()
	resources, envs := map[string]Cluster{}, map[string]Cluster{}
	for _, env := range c.o.Envs() {
		cl := Cluster{Zone: env.Zone, Stage: env.Stage}
		if z, ok := t.LandingZone(env.Zone); ok && z.Dedicated {
			cl.Dedicated = z.ID
		}
		for _, id := range []string{env.ClusterID, env.Scope.KafkaClusterID, env.Scope.SchemaRegistryID} {
			if id != "" {
				resources[id] = cl
			}
		}
		if env.Scope.EnvironmentID != "" {
			envs[env.Scope.EnvironmentID] = cl
		}
	}
	return resources, envs
}

// Allocate splits a day's lines into the units' shares.
func (c *Collector) Allocate(ctx context.Context, day time.Time) error {
	lines, err := c.o.Store.CostLines(ctx, day, day.AddDate(0, 0, 1))
	if err != nil {
		return err
	}
	clusters, envs := c.places()
	in := Inputs{Clusters: clusters, Connectors: map[string]store.CostShare{}, Usage: map[portal.ZoneStage][]store.UsageDay{}, BaseRule: c.o.BaseRule}
	t := c.o.Tenancy()
	for _, l := range lines {
		// A connector is its unit's by its name's prefix, in the stage of
		// its environment.
		if cl, ok := envs[l.EnvironmentID]; ok && Category(l.LineType) == "connect" {
			bu := Owners(t, cl.Zone, cl.Stage)(l.ResourceName)
			if cl.Dedicated != "" {
				bu = cl.Dedicated
			}
			in.Connectors[l.ResourceID] = store.CostShare{Zone: cl.Zone, Stage: cl.Stage, BU: bu}
		}
	}
	for _, env := range c.o.Envs() {
		u, err := c.o.Store.UnitUsageDays(ctx, env.Zone, env.Stage, store.AllUnits, day, day.AddDate(0, 0, 1))
		if err != nil {
			return err
		}
		in.Usage[env.Key()] = u
	}
	return c.o.Store.PutCostShares(ctx, day, Allocate(day, lines, in))
}

// SplitMonth divides each stage's units' shares of a month across their
// topics.
func (c *Collector) SplitMonth(ctx context.Context, month time.Time) error {
	end := month.AddDate(0, 1, 0)
	for _, env := range c.o.Envs() {
		shares, err := c.o.Store.CostShares(ctx, env.Zone, env.Stage, store.AllUnits, month, end)
		if err != nil {
			return err
		}
		days, err := c.o.Store.TopicUsageDays(ctx, env.Zone, env.Stage, store.AllUnits, month, end)
		if err != nil {
			return err
		}
		byTopic := map[string]*TopicMonth{}
		var order []string
		for _, d := range days {
			m := byTopic[d.Topic]
			if m == nil {
				m = &TopicMonth{Topic: d.Topic, BU: d.BU}
				byTopic[d.Topic] = m
				order = append(order, d.Topic)
			}
			m.Retained += d.RetainedBytes
			m.In += d.BytesIn
			m.Out += d.BytesOut
			m.Partitions += d.Partitions
		}
		topics := make([]TopicMonth, 0, len(order))
		for _, name := range order {
			topics = append(topics, *byTopic[name])
		}
		if err := c.o.Store.PutTopicCosts(ctx, env.Zone, env.Stage, month, SplitTopics(env.Zone, env.Stage, month, shares, topics, c.o.BaseRule)); err != nil {
			return err
		}
	}
	return nil
}

func filter[T any](in []T, keep func(T) bool) []T {
	var out []T
	for _, v := range in {
		if keep(v) {
			out = append(out, v)
		}
	}
	return out
}
