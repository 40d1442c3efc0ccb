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
	"github.com/edh-platform/rms-portal/internal/portal"
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
	// IdleAfter is how long the cluster's handles stay open after the
	// client's last call; IdleAfter (the constant) by default.
	IdleAfter time.Duration
	// Links, when set, shares handles with the other clients made with
	// it that reach the same cluster with the same credentials.
	Links *Links
}

// IdleAfter is how long a client keeps its cluster's handles open after
// its last use, by default.
const IdleAfter = 10 * time.Minute

// Client administers the topics of one cluster for one environment. One
// client per environment is created at start and shared by every request;
// it opens librdkafka's handles (shared with the environments that reach
// the same cluster alike, through Links) on its first call and closes them
// when unused for Options.IdleAfter. It is safe for concurrent use.
type Client struct {
	name    string
	timeout time.Duration
	idle    time.Duration
	log     *slog.Logger
	cache   *listCache
	up      *upstream.Upstream
	link    *link
	now     func() time.Time
	// reach keeps requests from a cluster that refuses connections.
	reach *reach
	// down is set when librdkafka reports every broker unreachable and
	// cleared by the next successful call; it turns timeouts into 503s.
	down atomic.Bool

	mu       sync.Mutex
	run      *activity // nil while the client holds no handles
	inflight int
	lastUsed time.Time
	closed   bool
}

// activity is one stretch of use: the topic list's refresh loop and the
// idle watch run for it, and end with it.
type activity struct {
	stop context.CancelFunc
	done sync.WaitGroup
}

// New returns at once: it opens nothing until the first call, and calls
// fail with UpstreamUnavailable or UpstreamTimeout while the cluster is
// unreachable.
func New(o Options) (*Client, error) {
	if o.Timeout <= 0 {
		o.Timeout = 5 * time.Second
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.IdleAfter <= 0 {
		o.IdleAfter = IdleAfter
	}
	if o.Links == nil {
		o.Links = NewLinks()
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
	c := &Client{
		name: o.Name, timeout: o.Timeout, idle: o.IdleAfter, now: time.Now,
		log: o.Logger.With("cluster", o.Name), cache: newListCache(o.CacheTTL, o.MaxStaleness, o.Cache), up: o.Upstream,
		reach: newReach(o.BootstrapServers, ReachEvery, min(o.Timeout, 2*time.Second)),
	}
	c.link = o.Links.get(linkKey(o), o.Name, func() (*handles, error) { return openHandles(o, conn) })
	return c, nil
}

// openHandles opens the librdkafka handles of one cluster.
func openHandles(o Options, conn kafka.ConfigMap) (*handles, error) {
	// The library's own logs channel holds 10,000 events (800 kB per
	// handle); librdkafka logs little.
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
		// The producer hosts the admin client and carries logs and
		// errors: its Go channels need not hold a million events each
		// (the library's default, 24 MB per client).
		"go.events.channel.size":  1000,
		"go.produce.channel.size": 1,
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
		a.Close()
		p.Close()
		return nil, fmt.Errorf("kafka client for %s's topic list: %w", o.Name, err)
	}
	la, err := kafka.NewAdminClientFromProducer(lp)
	if err != nil {
		lp.Close()
		a.Close()
		p.Close()
		return nil, fmt.Errorf("kafka admin client for %s's topic list: %w", o.Name, err)
	}
	// The records people produce go out on a producer of their own,
	// opened at the first produce (handles.recordsProducer).
	newRecords := func() (*kafka.Producer, error) {
		return kafka.NewProducer(handle(kafka.ConfigMap{"go.events.channel.size": 16, "go.produce.channel.size": 1,
			// Records are reported on within a call's time.
			"message.timeout.ms": int(o.Timeout / time.Millisecond),
			"linger.ms":          5,
		}))
	}
	return &handles{producer: p, admin: a, lister: la, listerProducer: lp, logs: logs, readers: &readers{conn: conn}, newRecords: newRecords}, nil
}

// acquire opens the client's handles unless open, and counts a call in
// flight until release; a call keeps the client in use unless it is the
// topic list's own refresh.
func (c *Client) acquire(ctx context.Context) (release func(), err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, portal.New(portal.UpstreamUnavailable, "cluster %s: the portal is stopping", c.name)
	}
	if c.run == nil {
		if isBackground(ctx) {
			return nil, portal.New(portal.UpstreamUnavailable, "cluster %s: not in use", c.name)
		}
		if err := c.link.join(c); err != nil {
			return nil, portal.Wrap(err, portal.Internal, "cluster %s: opening the client failed", c.name)
		}
		c.startLocked()
	}
	if !isBackground(ctx) {
		c.lastUsed = c.now()
	}
	c.inflight++
	return func() {
		c.mu.Lock()
		c.inflight--
		c.mu.Unlock()
	}, nil
}

// startLocked starts a stretch of use: the topic list's refresh loop and
// the watch that ends the stretch once the client is idle.
func (c *Client) startLocked() {
	ctx, stop := context.WithCancel(context.WithValue(context.Background(), background{}, true))
	run := &activity{stop: stop}
	c.run = run
	run.done.Add(2)
	go func() {
		defer run.done.Done()
		c.cache.run(ctx, c.listTopics, func(err error) {
			c.log.DebugContext(ctx, "refreshing the topic list failed; the cached one is served", "error", err)
		})
	}()
	go func() {
		defer run.done.Done()
		c.watchIdle(ctx, run)
	}()
}

// watchIdle ends the stretch of use once no call came for the idle time.
func (c *Client) watchIdle(ctx context.Context, run *activity) {
	t := time.NewTicker(min(max(c.idle/4, 10*time.Millisecond), time.Minute))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		c.mu.Lock()
		idle := c.run == run && c.inflight == 0 && c.now().Sub(c.lastUsed) >= c.idle
		if idle {
			c.run = nil
		}
		c.mu.Unlock()
		if idle {
			// The rest runs apart: stopping waits for this goroutine.
			go c.end(run)
			return
		}
	}
}

// end stops a stretch of use and lets go of the handles.
func (c *Client) end(run *activity) {
	run.stop()
	run.done.Wait()
	c.cache.forget()
	c.link.leave(c)
	c.log.Debug("the cluster's client was idle: its handles are released")
}

// h returns the open handles, for a call that acquired them.
func (c *Client) h() *handles { return c.link.current() }

// brokersDown is told by the handles that every broker is unreachable.
func (c *Client) brokersDown() {
	c.reach.failed()
	if !c.down.Swap(true) {
		c.log.Warn("all brokers are unreachable")
	}
}

// Close releases the client. Calls after Close fail.
func (c *Client) Close() {
	c.mu.Lock()
	run := c.run
	c.run, c.closed = nil, true
	c.mu.Unlock()
	if run != nil {
		c.end(run)
	}
}

func (h *handles) pumpLogs(log *slog.Logger) {
	defer h.pumps.Done()
	for ev := range h.logs {
		level := slog.LevelDebug
		switch {
		case ev.Level <= 3:
			level = slog.LevelWarn // librdkafka's errors are often transient
		case ev.Level <= 5:
			level = slog.LevelInfo
		}
		log.Log(context.Background(), level, ev.Message, "librdkafka", ev.Tag)
	}
}

// ConnectAttempts is how many times the client tried to connect to the
// cluster's brokers (successful or not) as of librdkafka's last
// statistics; zero unless Options.StatsEvery is set.
func (c *Client) ConnectAttempts() uint64 { return c.link.connectAttempts() }

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
