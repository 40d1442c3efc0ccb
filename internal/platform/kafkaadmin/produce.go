package kafkaadmin

import (
	"context"
	"errors"
	"fmt"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// Produce writes records through the client's producer, in order, and
// waits for each one's delivery report within the client's timeout. A
// record whose report did not come in time is reported as not confirmed:
// it may still have been written, and the answer must not claim either.
func (c *Client) Produce(ctx context.Context, topic string, records []platform.OutMessage) (out []platform.Delivery, err error) {
	err = c.call(ctx, "produce", func(ctx context.Context) error {
		out, err = c.produce(ctx, topic, records)
		return err
	})
	return out, err
}

func (c *Client) produce(ctx context.Context, topic string, records []platform.OutMessage) ([]platform.Delivery, error) {
	ctx, cancel, _ := c.bound(ctx)
	defer cancel()
	producer, err := c.recordsProducer()
	if err != nil {
		return nil, err
	}
	// Buffered for every report, so that late ones never block
	// librdkafka's delivery thread after this call has returned.
	reports := make(chan kafka.Event, len(records))
	out := make([]platform.Delivery, len(records))
	sent := 0
	for i, r := range records {
		m := &kafka.Message{TopicPartition: kafka.TopicPartition{Topic: &topic, Partition: kafka.PartitionAny},
			Key: r.Key, Value: r.Value, Opaque: i}
		if r.Partition >= 0 {
			m.TopicPartition.Partition = int32(r.Partition)
		}
		for _, h := range r.Headers {
			m.Headers = append(m.Headers, kafka.Header{Key: h.Key, Value: h.Value})
		}
		if err := producer.Produce(m, reports); err != nil {
			out[i] = platform.Delivery{Partition: r.Partition, Offset: -1, Err: recordError(c.translate(err, topic), i)}
			continue
		}
		sent++
		out[i] = platform.Delivery{Partition: r.Partition, Offset: -1, Err: errNotConfirmed}
	}
	for got := 0; got < sent; got++ {
		select {
		case ev := <-reports:
			m, ok := ev.(*kafka.Message)
			if !ok {
				got--
				continue
			}
			i, _ := m.Opaque.(int)
			d := platform.Delivery{Partition: int(m.TopicPartition.Partition), Offset: int64(m.TopicPartition.Offset)}
			if m.TopicPartition.Error != nil {
				d.Offset, d.Err = -1, recordError(c.translate(m.TopicPartition.Error, topic), i)
			}
			out[i] = d
		case <-ctx.Done():
			return out, firstFailure(out, topic, c)
		}
	}
	return out, firstFailure(out, topic, c)
}

// recordsProducer returns the producer of the records people produce,
// opened on first use. It is not the one hosting the admin client: a
// broker answers one request at a time per connection, in order, so a
// write it holds (acks=all waiting for the replicas, a megabyte batch)
// would hold every describe, list and offsets request of every unit behind
// it on the admin connection, and they would fail as timeouts. Its events
// are read as the admin producer's are (link.pumpEvents).
func (c *Client) recordsProducer() (*kafka.Producer, error) {
	h := c.h()
	h.recordsMu.Lock()
	defer h.recordsMu.Unlock()
	if h.records != nil {
		return h.records, nil
	}
	if h.closed {
		// A call holds the handles open (acquire): not the cluster's
		// health, a fault of the portal's own.
		return nil, portal.New(portal.Internal, "the handles of cluster %s were closed during a produce", c.name)
	}
	// Opened on a goroutine of its own: librdkafka's threads take the
	// priority of the thread that starts them, and a produce of a large
	// body runs on a thread of lowered priority (cpupriority), which must
	// not be every later produce's.
	var p *kafka.Producer
	opened := make(chan error, 1)
	go func() {
		var err error
		p, err = h.newRecords()
		opened <- err
	}()
	if err := <-opened; err != nil {
		return nil, portal.Wrap(err, portal.Internal, "kafka producer for %s", c.name)
	}
	h.records = p
	h.pumps.Add(1)
	go c.link.pumpEvents(h, p.Events(), &c.link.recordConnects)
	return p, nil
}

// recordError names the record a refusal is about (a record too large
// for the topic, a malformed one): records[i].value, as callers send it.
func recordError(err error, i int) error {
	var pe *portal.Error
	if errors.As(err, &pe) && pe.Kind == portal.InvalidParameter && pe.Field == "" {
		pe.Field = fmt.Sprintf("records[%d].value", i)
	}
	return err
}

// errNotConfirmed marks a record whose delivery report did not come in
// time.
var errNotConfirmed = portal.New(portal.UpstreamTimeout, "the cluster did not confirm the record in time; it may or may not have been written")

// firstFailure is the call's error when no record was written: the
// first record's, which is then every record's cause.
func firstFailure(out []platform.Delivery, topic string, c *Client) error {
	for _, d := range out {
		if d.Err == nil {
			return nil
		}
	}
	if len(out) == 0 {
		return nil
	}
	if portal.Is(out[0].Err, portal.UpstreamTimeout) {
		return c.unreachable(fmt.Errorf("producing to %s: %w", topic, context.DeadlineExceeded))
	}
	return out[0].Err
}
