// Package kafkaadmin implements the platform's Topics port with
// confluent-kafka-go's AdminClient. It is the only package that imports
// confluent-kafka-go, and it serves both production clusters (SASL_SSL with
// a cluster API key) and the embedded dev clusters (PLAINTEXT).
package kafkaadmin

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/upstream"
)

// Options configure a client for one cluster.
type Options struct {
	// Name identifies the cluster in logs and errors ("edh-shared/dev").
	Name             string
	BootstrapServers string
	SecurityProtocol string
	SASLMechanism    string
	APIKey           string
	APISecret        string
	// Timeout bounds every call; 5s by default.
	Timeout time.Duration
	// CacheTTL is how often the cached topic list is refetched in the
	// background; 0 disables the cache (every list fetches).
	CacheTTL time.Duration
	// MaxStaleness bounds the age of a list served while refetches fail;
	// beyond it a list waits for the cluster (and fails with it).
	MaxStaleness time.Duration
	Logger       *slog.Logger
	// Upstream, when set, guards every request (circuit breaker, health).
	Upstream *upstream.Upstream
	// StatsEvery is how often librdkafka reports its statistics, from
	// which ConnectAttempts counts connection attempts; 0 turns them off.
	StatsEvery time.Duration
	// Cache, when set, is told about topic list cache lookups.
	Cache platform.CacheObserver
}

// Client administers the topics of one cluster. One client per cluster is
// created at start and shared by every request; it is safe for concurrent use.
type Client struct {
	name     string
	timeout  time.Duration
	producer *kafka.Producer
	admin    *kafka.AdminClient
	// lister asks for the topic list, on a handle of its own.
	lister         *kafka.AdminClient
	listerProducer *kafka.Producer
	log            *slog.Logger
	cache          *listCache
	up             *upstream.Upstream
	// reach keeps requests from a cluster that refuses connections.
	reach *reach
	// config is the connection part of the configuration, for the
	// short-lived consumers of the message browser.
	config kafka.ConfigMap
	// down is set when librdkafka reports every broker unreachable and
	// cleared by the next successful call; it turns timeouts into 503s.
	down atomic.Bool
	// connects and listConnects are librdkafka's counts of connection
	// attempts to every broker, as of each handle's last statistics.
	connects, listConnects atomic.Uint64
	// stats counts librdkafka's statistics reports.
	stats atomic.Uint64
	// logs carries librdkafka's log lines to slog.
	logs chan kafka.LogEvent
	// stop ends the topic list's refresh loop.
	stop    context.CancelFunc
	looping sync.WaitGroup
	wg      sync.WaitGroup
}

// New connects lazily: it returns at once, and calls fail with
// UpstreamUnavailable or UpstreamTimeout while the cluster is unreachable.
func New(o Options) (*Client, error) {
	if o.Timeout <= 0 {
		o.Timeout = 5 * time.Second
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	conn := kafka.ConfigMap{
		"bootstrap.servers":                  o.BootstrapServers,
		"security.protocol":                  o.SecurityProtocol,
		"client.id":                          "rms-portal",
		"enable.metrics.push":                false,
		"socket.connection.setup.timeout.ms": int(o.Timeout / time.Millisecond),
		// A cluster that is down must cost little: reconnect at most
		// every 10s once the backoff has grown, and never in a burst.
		"reconnect.backoff.ms":     500,
		"reconnect.backoff.max.ms": 10000,
	}
	if o.SASLMechanism != "" {
		conn["sasl.mechanisms"], conn["sasl.username"], conn["sasl.password"] = o.SASLMechanism, o.APIKey, o.APISecret
	}
	// The library's own logs channel holds 10,000 events (800 kB per
	// handle, two handles for every environment); librdkafka logs little.
	logs := make(chan kafka.LogEvent, 128)
	handle := func(extra kafka.ConfigMap) *kafka.ConfigMap {
		cm := kafka.ConfigMap{"go.logs.channel.enable": true, "go.logs.channel": logs,
			"topic.metadata.refresh.interval.ms": 60000}
		if o.StatsEvery > 0 {
			cm["statistics.interval.ms"] = max(int(o.StatsEvery/time.Millisecond), 1)
		}
		for _, m := range []kafka.ConfigMap{conn, extra} {
			for k, v := range m {
				cm[k] = v
			}
		}
		return &cm
	}
	// A producer hosts the admin client because only producers and
	// consumers can route librdkafka's logs into Go (and so into slog).
	p, err := kafka.NewProducer(handle(kafka.ConfigMap{
		// The producer hosts the admin client, carries logs and errors,
		// and writes the records people produce: its Go channels need not
		// hold a million events each (the library's default, 24 MB per client).
		"go.events.channel.size":  1000,
		"go.produce.channel.size": 1,
		// Records people produce are reported on within a call's time.
		"message.timeout.ms": int(o.Timeout / time.Millisecond),
		"linger.ms":          5,
	}))
	if err != nil {
		return nil, fmt.Errorf("kafka client for %s: %w", o.Name, err)
	}
	a, err := kafka.NewAdminClientFromProducer(p)
	if err != nil {
		p.Close()
		return nil, fmt.Errorf("kafka admin client for %s: %w", o.Name, err)
	}
	// The topic list is asked for on a handle of its own that keeps no
	// topic in its metadata cache: librdkafka caches every topic of an
	// answer for all topics, for metadata.max.age.ms (about 450 bytes
	// each, 45 MB at 100,000 topics), while the handle that administers
	// and produces needs the few topics it touches only. The ignored
	// topics are still in the answer the application gets.
	lp, err := kafka.NewProducer(handle(kafka.ConfigMap{"topic.blacklist": ".*",
		"go.events.channel.size": 16, "go.produce.channel.size": 1}))
	if err != nil {
		p.Close()
		return nil, fmt.Errorf("kafka client for %s's topic list: %w", o.Name, err)
	}
	la, err := kafka.NewAdminClientFromProducer(lp)
	if err != nil {
		lp.Close()
		p.Close()
		return nil, fmt.Errorf("kafka admin client for %s's topic list: %w", o.Name, err)
	}
	c := &Client{
		name: o.Name, timeout: o.Timeout, producer: p, admin: a, lister: la, listerProducer: lp, config: conn, logs: logs,
		log: o.Logger.With("cluster", o.Name), cache: newListCache(o.CacheTTL, o.MaxStaleness, o.Cache), up: o.Upstream,
		reach: newReach(o.BootstrapServers, ReachEvery, min(o.Timeout, 2*time.Second)),
	}
	var ctx context.Context
	ctx, c.stop = context.WithCancel(context.Background())
	c.wg.Add(3)
	go c.pumpLogs()
	go c.pumpEvents(p.Events(), &c.connects)
	go c.pumpEvents(lp.Events(), &c.listConnects)
	c.looping.Add(1)
	go func() {
		defer c.looping.Done()
		c.cache.run(ctx, c.listTopics, func(err error) {
			c.log.DebugContext(ctx, "refreshing the topic list failed; the cached one is served", "error", err)
		})
	}()
	return c, nil
}

// Close releases the client. Calls after Close fail.
func (c *Client) Close() {
	c.stop()
	c.looping.Wait()
	c.admin.Close()
	c.producer.Close()
	c.lister.Close()
	c.listerProducer.Close()
	// The library closes only a logs channel of its own making; once the
	// producer is closed nothing writes to this one.
	close(c.logs)
	c.wg.Wait()
}

func (c *Client) pumpLogs() {
	defer c.wg.Done()
	for ev := range c.logs {
		level := slog.LevelDebug
		switch {
		case ev.Level <= 3:
			level = slog.LevelWarn // librdkafka's errors are often transient
		case ev.Level <= 5:
			level = slog.LevelInfo
		}
		c.log.Log(context.Background(), level, ev.Message, "librdkafka", ev.Tag)
	}
}

func (c *Client) pumpEvents(events chan kafka.Event, connects *atomic.Uint64) {
	defer c.wg.Done()
	for ev := range events {
		switch e := ev.(type) {
		case kafka.Error:
			if e.Code() == kafka.ErrAllBrokersDown {
				c.reach.failed()
				if !c.down.Swap(true) {
					c.log.Warn("all brokers are unreachable")
				}
			}
		case *kafka.Stats:
			if n, ok := connectAttempts(e.String()); ok {
				connects.Store(n)
			}
			c.stats.Add(1)
		}
	}
}

// ConnectAttempts is how many times the client tried to connect to the
// cluster's brokers (successful or not) as of librdkafka's last
// statistics; zero unless Options.StatsEvery is set.
func (c *Client) ConnectAttempts() uint64 { return c.connects.Load() + c.listConnects.Load() }

// connectAttempts sums the brokers' connection attempts in librdkafka's
// statistics.
func connectAttempts(stats string) (uint64, bool) {
	var s struct {
		Brokers map[string]struct {
			Connects uint64 `json:"connects"`
		} `json:"brokers"`
	}
	if err := json.Unmarshal([]byte(stats), &s); err != nil {
		return 0, false
	}
	var n uint64
	for _, b := range s.Brokers {
		n += b.Connects
	}
	return n, true
}

// bound returns a context limited by the client's timeout, and that
// timeout in milliseconds for calls that take one.
func (c *Client) bound(ctx context.Context) (context.Context, context.CancelFunc, int) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	ms := int(c.timeout / time.Millisecond)
	if dl, ok := ctx.Deadline(); ok {
		if left := int(time.Until(dl) / time.Millisecond); left < ms {
			ms = max(left, 1)
		}
	}
	return ctx, cancel, ms
}
