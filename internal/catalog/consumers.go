package catalog

import (
	"context"
	"slices"

	"github.com/edh-platform/rms-portal/internal/platform"
)

// Consumer is a consumer group that reads a topic: it has committed
// offsets on it, or members assigned its partitions.
type Consumer struct {
	Group   string
	Members int
	// Lag is the records behind the end over the partitions it committed.
	Lag int64
}

// Live tells whether the group still reads: it has members, or records
// it has not read.
func (c Consumer) Live() bool { return c.Members > 0 || c.Lag > 0 }

// Consumers finds the groups of a cluster that read a topic, from one
// list of groups, one batch of their committed offsets, one of their
// descriptions and one request for the topic's ends.
func Consumers(ctx context.Context, env *platform.Environment, topic string) ([]Consumer, error) {
	groups, err := env.Groups.ListGroups(ctx)
	if err != nil || len(groups) == 0 {
		return nil, err
	}
	ids := make([]string, len(groups))
	for i, g := range groups {
		ids[i] = g.ID
	}
	committed, err := env.Groups.GroupOffsets(ctx, ids)
	if err != nil {
		return nil, err
	}
	described, err := env.Groups.DescribeGroups(ctx, ids)
	if err != nil {
		return nil, err
	}
	found := map[string]*Consumer{}
	var parts []platform.TopicPartition
	seenPart := map[platform.TopicPartition]bool{}
	for id, offs := range committed {
		for _, o := range offs {
			if o.Topic != topic {
				continue
			}
			if found[id] == nil {
				found[id] = &Consumer{Group: id}
			}
			if !seenPart[o.TopicPartition] {
				seenPart[o.TopicPartition] = true
				parts = append(parts, o.TopicPartition)
			}
		}
	}
	for _, g := range described {
		assigned := false
		for _, m := range g.Members {
			assigned = assigned || slices.ContainsFunc(m.Assigned, func(tp platform.TopicPartition) bool { return tp.Topic == topic })
		}
		if c := found[g.ID]; c != nil || assigned {
			if c == nil {
				c = &Consumer{Group: g.ID}
				found[g.ID] = c
			}
			c.Members = len(g.Members)
		}
	}
	if len(parts) > 0 {
		ends, err := env.Groups.Offsets(ctx, parts, platform.OffsetQuery{})
		if err != nil {
			return nil, err
		}
		for id, offs := range committed {
			c := found[id]
			if c == nil {
				continue
			}
			for _, o := range offs {
				if end, ok := ends[o.TopicPartition]; ok && o.Topic == topic && o.Offset >= 0 && end > o.Offset {
					c.Lag += end - o.Offset
				}
			}
		}
	}
	out := make([]Consumer, 0, len(found))
	for _, c := range found {
		out = append(out, *c)
	}
	slices.SortFunc(out, func(a, b Consumer) int {
		if a.Group < b.Group {
			return -1
		}
		return 1
	})
	return out, nil
}
