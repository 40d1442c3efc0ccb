package kafkaadmin

import (
	"context"
	"errors"
	"sync"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// offsetFetchers bounds the OffsetFetch requests in flight: librdkafka
// takes one group per ListConsumerGroupOffsets call, so a list of many
// groups sends them side by side rather than one after another.
const offsetFetchers = 32

// ListGroups lists every consumer group of the cluster.
func (c *Client) ListGroups(ctx context.Context) (out []platform.Group, err error) {
	err = c.call(ctx, "list_groups", func(ctx context.Context) error {
		ctx, cancel, _ := c.bound(ctx)
		defer cancel()
		res, err := c.h().admin.ListConsumerGroups(ctx, kafka.SetAdminRequestTimeout(c.timeout))
		if err != nil {
			return c.translate(err, "")
		}
		if len(res.Errors) > 0 && len(res.Valid) == 0 {
			return c.translate(res.Errors[0], "")
		}
		for _, g := range res.Valid {
			out = append(out, platform.Group{ID: g.GroupID, State: g.State.String(), Simple: g.IsSimpleConsumerGroup})
		}
		return nil
	})
	return out, err
}

// DescribeGroups describes groups in one batch (librdkafka sends one
// request per coordinator).
func (c *Client) DescribeGroups(ctx context.Context, ids []string) (out []platform.Group, err error) {
	if len(ids) == 0 {
		return nil, nil
	}
	err = c.call(ctx, "describe_groups", func(ctx context.Context) error {
		ctx, cancel, _ := c.bound(ctx)
		defer cancel()
		res, err := c.h().admin.DescribeConsumerGroups(ctx, ids, kafka.SetAdminRequestTimeout(c.timeout))
		if err != nil {
			return c.translate(err, "")
		}
		for _, d := range res.ConsumerGroupDescriptions {
			if d.Error.Code() == kafka.ErrGroupIDNotFound {
				continue
			}
			if err := c.groupError(d.Error, d.GroupID); err != nil {
				return err
			}
			g := platform.Group{ID: d.GroupID, State: d.State.String(), Protocol: d.PartitionAssignor, Simple: d.IsSimpleConsumerGroup}
			for _, m := range d.Members {
				gm := platform.GroupMember{ID: m.ConsumerID, ClientID: m.ClientID, Host: m.Host}
				for _, tp := range m.Assignment.TopicPartitions {
					gm.Assigned = append(gm.Assigned, platform.TopicPartition{Topic: *tp.Topic, Partition: int(tp.Partition)})
				}
				g.Members = append(g.Members, gm)
			}
			out = append(out, g)
		}
		return nil
	})
	return out, err
}

// GroupOffsets fetches committed offsets, a bounded number of groups at a
// time; a group that does not exist has none.
func (c *Client) GroupOffsets(ctx context.Context, ids []string) (out map[string][]platform.GroupOffset, err error) {
	out = map[string][]platform.GroupOffset{}
	if len(ids) == 0 {
		return out, nil
	}
	err = c.call(ctx, "group_offsets", func(ctx context.Context) error {
		ctx, cancel, _ := c.bound(ctx)
		defer cancel()
		var mu sync.Mutex
		var first error
		sem := make(chan struct{}, offsetFetchers)
		var wg sync.WaitGroup
		for _, id := range ids {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer wg.Done()
				defer func() { <-sem }()
				res, err := c.h().admin.ListConsumerGroupOffsets(ctx, []kafka.ConsumerGroupTopicPartitions{{Group: id}},
					kafka.SetAdminRequireStableOffsets(false), kafka.SetAdminRequestTimeout(c.timeout))
				var offsets []platform.GroupOffset
				if err == nil {
					for _, g := range res.ConsumerGroupsTopicPartitions {
						for _, tp := range g.Partitions {
							if tp.Error != nil || tp.Offset < 0 {
								continue
							}
							offsets = append(offsets, platform.GroupOffset{TopicPartition: platform.TopicPartition{Topic: *tp.Topic,
								Partition: int(tp.Partition)}, Offset: int64(tp.Offset)})
						}
					}
				}
				var ke kafka.Error
				if errors.As(err, &ke) && ke.Code() == kafka.ErrGroupIDNotFound {
					err = nil // a group that does not exist has committed nothing
				}
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					if first == nil {
						first = c.translate(err, "")
					}
					return
				}
				out[id] = offsets
			}()
		}
		wg.Wait()
		return first
	})
	return out, err
}

// Offsets returns the offsets of many partitions in one ListOffsets
// request; a time after the last record gives the latest offset.
func (c *Client) Offsets(ctx context.Context, parts []platform.TopicPartition, q platform.OffsetQuery) (out map[platform.TopicPartition]int64, err error) {
	out = map[platform.TopicPartition]int64{}
	if len(parts) == 0 {
		return out, nil
	}
	err = c.call(ctx, "list_offsets", func(ctx context.Context) error {
		ctx, cancel, _ := c.bound(ctx)
		defer cancel()
		spec := kafka.LatestOffsetSpec
		switch {
		case q.Earliest:
			spec = kafka.EarliestOffsetSpec
		case !q.At.IsZero():
			spec = kafka.NewOffsetSpecForTimestamp(q.At.UnixMilli())
		}
		query := func(spec kafka.OffsetSpec, parts []platform.TopicPartition) error {
			req := map[kafka.TopicPartition]kafka.OffsetSpec{}
			for _, p := range parts {
				topic := p.Topic
				req[kafka.TopicPartition{Topic: &topic, Partition: int32(p.Partition)}] = spec
			}
			res, err := c.h().admin.ListOffsets(ctx, req, kafka.SetAdminRequestTimeout(c.timeout))
			if err != nil {
				return c.translate(err, "")
			}
			for tp, r := range res.ResultInfos {
				if err := c.translate(r.Error, *tp.Topic); err != nil {
					return err
				}
				out[platform.TopicPartition{Topic: *tp.Topic, Partition: int(tp.Partition)}] = int64(r.Offset)
			}
			return nil
		}
		if err := query(spec, parts); err != nil {
			return err
		}
		var past []platform.TopicPartition
		for _, p := range parts {
			if out[p] < 0 {
				past = append(past, p)
			}
		}
		if len(past) > 0 {
			return query(kafka.LatestOffsetSpec, past)
		}
		return nil
	})
	return out, err
}

// CommitGroupOffsets sets a group's offsets; Kafka refuses while members
// are active.
func (c *Client) CommitGroupOffsets(ctx context.Context, id string, offsets []platform.GroupOffset) error {
	return c.call(ctx, "commit_group_offsets", func(ctx context.Context) error {
		ctx, cancel, _ := c.bound(ctx)
		defer cancel()
		g := kafka.ConsumerGroupTopicPartitions{Group: id}
		for _, o := range offsets {
			topic := o.Topic
			g.Partitions = append(g.Partitions, kafka.TopicPartition{Topic: &topic, Partition: int32(o.Partition), Offset: kafka.Offset(o.Offset)})
		}
		res, err := c.h().admin.AlterConsumerGroupOffsets(ctx, []kafka.ConsumerGroupTopicPartitions{g}, kafka.SetAdminRequestTimeout(c.timeout))
		if err != nil {
			return c.groupError(err, id)
		}
		for _, r := range res.ConsumerGroupsTopicPartitions {
			for _, tp := range r.Partitions {
				if tp.Error != nil {
					return c.groupError(tp.Error, id)
				}
			}
		}
		return nil
	})
}

// DeleteGroup deletes an empty group.
func (c *Client) DeleteGroup(ctx context.Context, id string) error {
	return c.call(ctx, "delete_group", func(ctx context.Context) error {
		ctx, cancel, _ := c.bound(ctx)
		defer cancel()
		res, err := c.h().admin.DeleteConsumerGroups(ctx, []string{id}, kafka.SetAdminRequestTimeout(c.timeout))
		if err != nil {
			return c.groupError(err, id)
		}
		for _, r := range res.ConsumerGroupResults {
			if r.Error.Code() != kafka.ErrNoError {
				return c.groupError(r.Error, id)
			}
		}
		return nil
	})
}

// groupError translates the errors of group operations: the table's
// classes, with the group's words for a missing group and for one whose
// state refuses the change.
func (c *Client) groupError(err error, id string) error {
	var ke kafka.Error
	if err == nil || !errors.As(err, &ke) {
		return c.translate(err, "")
	}
	switch code := ke.Code(); {
	case code == kafka.ErrGroupIDNotFound || code == kafka.ErrUnknownGroup:
		return portal.Wrap(err, portal.NotFound, "consumer group %s not found", id)
	case classify(code) == conflict:
		return portal.Wrap(err, portal.Conflict, "consumer group %s has active members; stop its consumers first", id)
	}
	return c.translate(err, "")
}
