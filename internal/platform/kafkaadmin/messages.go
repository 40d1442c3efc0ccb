package kafkaadmin

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// maxValueBytes bounds one record's key or value as read for display.
const maxValueBytes = 64 << 10

// ReadMessages reads records with a short-lived consumer that is only
// assigned partitions: it never joins a group, never commits, and stops at
// the counts, at maxBytes, or when ctx ends.
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
	id := make([]byte, 6)
	_, _ = rand.Read(id)
	cm := kafka.ConfigMap{}
	for k, v := range c.config {
		cm[k] = v
	}
	// librdkafka wants a group id even for assign(); this one is never
	// joined nor committed to.
	cm["group.id"] = "rms-portal-browse-" + hex.EncodeToString(id)
	cm["enable.auto.commit"] = false
	cm["enable.auto.offset.store"] = false
	cm["enable.partition.eof"] = true
	cm["log_level"] = 3 // errors only: this consumer lives for one read
	cm["log.connection.close"] = false
	cm["fetch.max.bytes"] = max(maxBytes, 1<<20)
	cm["max.partition.fetch.bytes"] = max(maxBytes, 1<<20)
	cons, err := kafka.NewConsumer(&cm)
	if err != nil {
		return nil, portal.Wrap(err, portal.Internal, "kafka consumer for %s", c.name)
	}
	defer cons.Close()
	var assign []kafka.TopicPartition
	want := map[int32]int{}
	for _, r := range ranges {
		if r.Count <= 0 {
			continue
		}
		assign = append(assign, kafka.TopicPartition{Topic: &topic, Partition: int32(r.Partition), Offset: kafka.Offset(r.From)})
		want[int32(r.Partition)] = r.Count
	}
	if len(assign) == 0 {
		return nil, nil
	}
	if err := cons.Assign(assign); err != nil {
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
			if want[p] == 0 {
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
			delete(want, e.Partition)
		case kafka.Error:
			if e.IsFatal() || e.Code() == kafka.ErrUnknownTopicOrPart || e.Code() == kafka.ErrAllBrokersDown {
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
