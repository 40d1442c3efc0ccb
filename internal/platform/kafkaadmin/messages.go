package kafkaadmin

import (
	"context"
	"fmt"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// maxValueBytes bounds one record's key or value as read for display.
const maxValueBytes = 64 << 10

// ReadMessages reads records with a consumer of the cluster's readers
// that is only assigned partitions for the read: it never joins a group,
// never commits, and stops at the counts, at maxBytes, or when ctx ends.
func (c *Client) ReadMessages(ctx context.Context, topic string, ranges []platform.ReadRange, maxBytes int) (out []platform.Message, err error) {
	err = c.call(ctx, "read_messages", func(ctx context.Context) error {
		out, err = c.readMessages(ctx, topic, ranges, maxBytes)
		return err
	})
	return out, err
}

func (c *Client) readMessages(ctx context.Context, topic string, ranges []platform.ReadRange, maxBytes int) ([]platform.Message, error) {
	ctx, cancel, _ := c.bound(ctx)
	defer cancel()
	rs := c.h().readers
	cons, err := rs.get()
	if err != nil {
		return nil, portal.Wrap(err, portal.Internal, "kafka consumer for %s", c.name)
	}
	healthy := true
	defer func() { rs.put(cons, healthy) }()
	var assign []kafka.TopicPartition
	want, from := map[int32]int{}, map[int32]int64{}
	for _, r := range ranges {
		if r.Count <= 0 {
			continue
		}
		assign = append(assign, kafka.TopicPartition{Topic: &topic, Partition: int32(r.Partition), Offset: kafka.Offset(r.From)})
		want[int32(r.Partition)] = r.Count
		from[int32(r.Partition)] = r.From
	}
	if len(assign) == 0 {
		return nil, nil
	}
	// A reader learns of a topic it has not read before on its own only
	// at its next scan, a second later; asked, at once. A failure here is
	// the assignment's to report.
	wait := c.timeout
	if d, ok := ctx.Deadline(); ok {
		wait = time.Until(d)
	}
	_, _ = cons.GetMetadata(&topic, false, max(int(wait/time.Millisecond), 1))
	if err := cons.Assign(assign); err != nil {
		healthy = false
		return nil, c.translate(err, topic)
	}
	var out []platform.Message
	bytes := 0
	for len(want) > 0 && bytes < maxBytes {
		if ctx.Err() != nil {
			break
		}
		ev := cons.Poll(100)
		switch e := ev.(type) {
		case *kafka.Message:
			p := e.TopicPartition.Partition
			// The reader was assigned other partitions for earlier reads:
			// only this read's records count, however they came.
			if want[p] == 0 || e.TopicPartition.Topic == nil || *e.TopicPartition.Topic != topic || int64(e.TopicPartition.Offset) < from[p] {
				continue
			}
			m := platform.Message{Partition: int(p), Offset: int64(e.TopicPartition.Offset), Timestamp: e.Timestamp}
			m.Key, m.Truncated = clip(e.Key)
			var cut bool
			m.Value, cut = clip(e.Value)
			m.Truncated = m.Truncated || cut
			for _, h := range e.Headers {
				v, _ := clip(h.Value)
				m.Headers = append(m.Headers, platform.Header{Key: h.Key, Value: v})
			}
			bytes += len(m.Key) + len(m.Value)
			out = append(out, m)
			if want[p]--; want[p] == 0 {
				delete(want, p)
			}
		case kafka.PartitionEOF:
			if e.Topic != nil && *e.Topic == topic {
				delete(want, e.Partition)
			}
		case kafka.Error:
			if e.IsFatal() || e.Code() == kafka.ErrUnknownTopicOrPart || e.Code() == kafka.ErrAllBrokersDown {
				healthy = false
				return nil, c.translate(e, topic)
			}
		}
	}
	if len(out) == 0 && ctx.Err() != nil {
		return nil, c.translate(fmt.Errorf("reading %s: %w", topic, context.DeadlineExceeded), topic)
	}
	return out, nil
}

func clip(b []byte) ([]byte, bool) {
	if len(b) > maxValueBytes {
		return append([]byte(nil), b[:maxValueBytes]...), true
	}
	return append([]byte(nil), b...), false
}
