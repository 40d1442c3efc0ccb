// Package embedded is the dev-mode platform: in-process Kafka-protocol
// clusters (franz-go's kfake) and the demo data seeded into them. Nothing
// here is used in production; tests use it as the upstream.
package embedded

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// Cluster is one in-process Kafka-protocol cluster.
type Cluster struct {
	name string
	fake *kfake.Cluster
}

// StartCluster starts a one-broker cluster on a free loopback port.
func StartCluster(name string) (*Cluster, error) {
	fake, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.ClusterID("embedded-"+name))
	if err != nil {
		return nil, fmt.Errorf("embedded cluster %s: %w", name, err)
	}
	return &Cluster{name: name, fake: fake}, nil
}

// Addr returns the bootstrap address.
func (c *Cluster) Addr() string { return c.fake.ListenAddrs()[0] }

// Close stops the cluster; clients then see it as unreachable.
func (c *Cluster) Close() { c.fake.Close() }

// Produce writes n small records to a topic, spread over its partitions,
// so that offsets and metrics have something to show.
func (c *Cluster) Produce(ctx context.Context, topic string, n int) error {
	cl, err := c.producer(topic)
	if err != nil {
		return err
	}
	defer cl.Close()
	return produce(ctx, cl, n)
}

func (c *Cluster) producer(topic string) (*kgo.Client, error) {
	return kgo.NewClient(kgo.SeedBrokers(c.Addr()), kgo.DefaultProduceTopic(topic),
		kgo.RecordPartitioner(kgo.RoundRobinPartitioner()))
}

func produce(ctx context.Context, cl *kgo.Client, n int) error {
	recs := make([]*kgo.Record, n)
	for i := range recs {
		recs[i] = &kgo.Record{Key: []byte("k" + strconv.Itoa(i%17)), Value: []byte(`{"seq":` + strconv.Itoa(i) + `}`)}
	}
	return cl.ProduceSync(ctx, recs...).FirstErr()
}

// CreateTopics creates many topics quickly with batched CreateTopics
// requests; it exists to build large demo and benchmark clusters.
func (c *Cluster) CreateTopics(ctx context.Context, names []string, partitions int32) error {
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.Addr()))
	if err != nil {
		return err
	}
	defer cl.Close()
	for start := 0; start < len(names); start += 1000 {
		req := kmsg.NewPtrCreateTopicsRequest()
		req.TimeoutMillis = 30000
		for _, n := range names[start:min(start+1000, len(names))] {
			t := kmsg.NewCreateTopicsRequestTopic()
			t.Topic, t.NumPartitions, t.ReplicationFactor = n, partitions, 1
			req.Topics = append(req.Topics, t)
		}
		resp, err := req.RequestWith(ctx, cl)
		if err != nil {
			return fmt.Errorf("create topics on %s: %w", c.name, err)
		}
		for _, t := range resp.Topics {
			if err := kerr.ErrorForCode(t.ErrorCode); err != nil && err != kerr.TopicAlreadyExists {
				return fmt.Errorf("create topic %s on %s: %w", t.Topic, c.name, err)
			}
		}
	}
	return nil
}

// Trickle keeps producing about perSecond records to a topic until ctx
// ends, so that dev mode's growth charts move.
func (c *Cluster) Trickle(ctx context.Context, topic string, perSecond int) {
	cl, err := c.producer(topic)
	if err != nil {
		return
	}
	defer cl.Close()
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			_ = produce(pctx, cl, perSecond)
			cancel()
		}
	}
}
