// Package clusters is dev mode's Kafka: in-process Kafka-protocol clusters
// (franz-go's kfake), with helpers to produce and consume demo traffic and
// a record of what they do for the Metrics API stand-in. Nothing here is
// used in production; tests use it as the upstream.
package clusters

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/kversion"
	"github.com/twmb/franz-go/pkg/sasl/plain"
)

// Cluster is one in-process Kafka-protocol cluster.
type Cluster struct {
	name string
	fake *kfake.Cluster
	// admin is the superuser the cluster's own clients sign in as when it
	// takes SASL; nil when it does not.
	admin *Admin

	mu sync.Mutex
	// encoders make the values of a topic's demo records (the Schema
	// Registry wire format, for topics with a schema).
	encoders map[string]func(i int) []byte
	// closers run after the cluster has stopped.
	closers []func()
	// telemetry is what Watch records, nil before.
	telemetry *Telemetry
}

// Telemetry is what the cluster's Watch records (nil when unwatched).
func (c *Cluster) Telemetry() *Telemetry {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.telemetry
}

// Admin is a cluster's superuser: it signs in with SASL/PLAIN and is
// never subject to ACLs.
type Admin struct {
	User, Password string
}

// StartCluster starts a one-broker cluster on a free loopback port. With
// an admin, every client must sign in with SASL (the admin with PLAIN,
// API keys with SCRAM-SHA-256, see PutUser) and ACLs are enforced; without
// one, it takes anyone over PLAINTEXT.
func StartCluster(name string, admin *Admin) (*Cluster, error) {
	opts := []kfake.Opt{kfake.NumBrokers(1), kfake.ClusterID("embedded-" + name)}
	if admin != nil {
		opts = append(opts, kfake.EnableSASL(), kfake.EnableACLs(), kfake.Superuser("PLAIN", admin.User, admin.Password))
	}
	fake, err := kfake.NewCluster(opts...)
	if err != nil {
		return nil, fmt.Errorf("embedded cluster %s: %w", name, err)
	}
	return &Cluster{name: name, fake: fake, admin: admin, encoders: map[string]func(int) []byte{}}, nil
}

// ClientOpts are what a franz-go client needs to reach the cluster as its
// admin.
func (c *Cluster) ClientOpts(more ...kgo.Opt) []kgo.Opt {
	opts := []kgo.Opt{kgo.SeedBrokers(c.Addr())}
	if c.admin != nil {
		opts = append(opts, kgo.SASL(plain.Auth{User: c.admin.User, Pass: c.admin.Password}.AsMechanism()))
	}
	return append(opts, more...)
}

// client is a franz-go client of the cluster's admin.
func (c *Cluster) client(more ...kgo.Opt) (*kgo.Client, error) {
	return kgo.NewClient(c.ClientOpts(more...)...)
}

// Addr returns the bootstrap address.
func (c *Cluster) Addr() string { return c.fake.ListenAddrs()[0] }

// Close stops the cluster; clients then see it as unreachable.
func (c *Cluster) Close() {
	c.fake.Close()
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, fn := range c.closers {
		fn()
	}
	c.closers = nil
}

// Produce writes n small records to a topic, spread over its partitions,
// so that offsets and metrics have something to show.
func (c *Cluster) Produce(ctx context.Context, topic string, n int) error {
	cl, err := c.producer(topic)
	if err != nil {
		return err
	}
	defer cl.Close()
	return c.produce(ctx, cl, topic, n)
}

// Encode makes the demo records of a topic carry values from encode.
func (c *Cluster) Encode(topic string, encode func(i int) []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.encoders[topic] = encode
}

func (c *Cluster) producer(topic string) (*kgo.Client, error) {
	return c.client(kgo.DefaultProduceTopic(topic), kgo.RecordPartitioner(kgo.RoundRobinPartitioner()))
}

func (c *Cluster) produce(ctx context.Context, cl *kgo.Client, topic string, n int) error {
	c.mu.Lock()
	encode := c.encoders[topic]
	c.mu.Unlock()
	recs := make([]*kgo.Record, n)
	for i := range recs {
		value := []byte(`{"seq":` + strconv.Itoa(i) + `}`)
		if encode != nil {
			value = encode(i)
		}
		recs[i] = &kgo.Record{Key: []byte("k" + strconv.Itoa(i%17)), Value: value}
	}
	return cl.ProduceSync(ctx, recs...).FirstErr()
}

// CreateTopics creates many topics quickly with batched CreateTopics
// requests; it exists to build large demo and benchmark clusters.
func (c *Cluster) CreateTopics(ctx context.Context, names []string, partitions int32) error {
	cl, err := c.client()
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
			_ = c.produce(pctx, cl, topic, perSecond)
			cancel()
		}
	}
}

// Commit sets a group's committed offsets as an administrator would (no
// member, generation -1), so that demo groups have a position.
func (c *Cluster) Commit(ctx context.Context, group, topic string, offsets map[int32]int64) error {
	// Before OffsetCommit v10, topics are named rather than given by id.
	cl, err := c.client(kgo.MaxVersions(kversion.V3_6_0()))
	if err != nil {
		return err
	}
	defer cl.Close()
	req := kmsg.NewPtrOffsetCommitRequest()
	req.Group, req.Generation = group, -1
	t := kmsg.NewOffsetCommitRequestTopic()
	t.Topic = topic
	for p, o := range offsets {
		rp := kmsg.NewOffsetCommitRequestTopicPartition()
		rp.Partition, rp.Offset = p, o
		t.Partitions = append(t.Partitions, rp)
	}
	req.Topics = append(req.Topics, t)
	resp, err := req.RequestWith(ctx, cl)
	if err != nil {
		return err
	}
	for _, rt := range resp.Topics {
		for _, rp := range rt.Partitions {
			if err := kerr.ErrorForCode(rp.ErrorCode); err != nil {
				return fmt.Errorf("commit %s %s[%d]: %w", group, topic, rp.Partition, err)
			}
		}
	}
	return nil
}

// Consume runs a member of group on topic that reads at most perSecond
// records a second and commits them, until ctx ends: a consumer slower
// than its producer, so that its lag shows and moves.
func (c *Cluster) Consume(ctx context.Context, group, topic string, perSecond int) error {
	cl, err := c.client(kgo.ConsumerGroup(group), kgo.ConsumeTopics(topic), kgo.DisableAutoCommit(), kgo.ClientID("demo-"+group))
	if err != nil {
		return err
	}
	go func() {
		defer cl.Close()
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			fetches := cl.PollRecords(ctx, perSecond)
			if ctx.Err() != nil {
				return
			}
			if !fetches.Empty() {
				cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
				_ = cl.CommitUncommittedOffsets(cctx)
				cancel()
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return nil
}

// Partitions returns the cluster's topics with their partition counts.
func (c *Cluster) Partitions(ctx context.Context) (map[string]int, error) {
	cl, err := c.client()
	if err != nil {
		return nil, err
	}
	defer cl.Close()
	resp, err := kmsg.NewPtrMetadataRequest().RequestWith(ctx, cl)
	if err != nil {
		return nil, fmt.Errorf("metadata of %s: %w", c.name, err)
	}
	out := make(map[string]int, len(resp.Topics))
	for _, t := range resp.Topics {
		if t.Topic != nil {
			out[*t.Topic] = len(t.Partitions)
		}
	}
	return out, nil
}
