package kafkaadmin

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
)

func newCluster(t testing.TB) *kfake.Cluster {
	t.Helper()
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, "legacy-orders"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

func newClient(t testing.TB, c *kfake.Cluster, ttl time.Duration) *Client {
	t.Helper()
	cl, err := New(Options{Name: "test/dev", BootstrapServers: c.ListenAddrs()[0], SecurityProtocol: "PLAINTEXT",
		Timeout: 3 * time.Second, CacheTTL: ttl, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	return cl
}

func names(ts []platform.TopicInfo) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = fmt.Sprintf("%s/%d", t.Name, t.Partitions)
	}
	return out
}

func TestTopicLifecycle(t *testing.T) {
	ctx := context.Background()
	cl := newClient(t, newCluster(t), time.Minute)

	if err := cl.CreateTopic(ctx, platform.TopicSpec{Name: "b-topic", Partitions: 3, Config: map[string]string{"retention.ms": "1000"}}); err != nil {
		t.Fatal(err)
	}
	err := cl.CreateTopic(ctx, platform.TopicSpec{Name: "b-topic", Partitions: 1})
	if !portal.Is(err, portal.AlreadyExists) {
		t.Fatalf("duplicate create: %v", err)
	}
	list, err := cl.ListTopics(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(names(list)); got != "[b-topic/3 legacy-orders/1]" {
		t.Errorf("list (sorted, with partitions) = %s", got)
	}

	d, err := cl.DescribeTopic(ctx, "b-topic")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Partitions) != 3 || d.Partitions[2].ID != 2 || len(d.Partitions[0].Replicas) != 1 {
		t.Errorf("partitions %+v", d.Partitions)
	}
	overrides := map[string]string{}
	for _, e := range d.Config {
		if e.Override {
			overrides[e.Name] = e.Value
		}
	}
	if fmt.Sprint(overrides) != "map[retention.ms:1000]" {
		t.Errorf("overrides %v", overrides)
	}

	if err := cl.AlterTopicConfig(ctx, "b-topic", platform.ConfigChange{Set: map[string]string{"cleanup.policy": "compact"}, Reset: []string{"retention.ms"}}); err != nil {
		t.Fatal(err)
	}
	d, _ = cl.DescribeTopic(ctx, "b-topic")
	overrides = map[string]string{}
	for _, e := range d.Config {
		if e.Override {
			overrides[e.Name] = e.Value
		}
	}
	if fmt.Sprint(overrides) != "map[cleanup.policy:compact]" {
		t.Errorf("overrides after alter %v", overrides)
	}

	if err := cl.CreatePartitions(ctx, "b-topic", 2); !portal.Is(err, portal.InvalidParameter) {
		t.Errorf("decrease: %v", err)
	}
	if err := cl.CreatePartitions(ctx, "b-topic", 5); err != nil {
		t.Fatal(err)
	}
	// Writes invalidate the cached list, so the new count shows at once.
	list, _ = cl.ListTopics(ctx)
	if got := fmt.Sprint(names(list)); got != "[b-topic/5 legacy-orders/1]" {
		t.Errorf("list after partition increase = %s", got)
	}

	offsets, err := cl.TopicOffsets(ctx, "b-topic", 5)
	if err != nil || len(offsets) != 5 || offsets[4].Latest != 0 {
		t.Errorf("offsets %+v %v", offsets, err)
	}
	info, err := cl.ClusterInfo(ctx)
	if err != nil || info.Brokers != 1 {
		t.Errorf("cluster info %+v %v", info, err)
	}

	if err := cl.DeleteTopic(ctx, "b-topic"); err != nil {
		t.Fatal(err)
	}
	if err := cl.DeleteTopic(ctx, "b-topic"); !portal.Is(err, portal.NotFound) {
		t.Errorf("second delete: %v", err)
	}
	if _, err := cl.DescribeTopic(ctx, "b-topic"); !portal.Is(err, portal.NotFound) {
		t.Errorf("describe deleted: %v", err)
	}
	list, _ = cl.ListTopics(ctx)
	if got := fmt.Sprint(names(list)); got != "[legacy-orders/1]" {
		t.Errorf("list after delete = %s", got)
	}
}

func TestListIsCachedAndShared(t *testing.T) {
	ctx := context.Background()
	c := newCluster(t)
	var metadata atomic.Int64
	c.ControlKey(int16(kmsg.Metadata), func(req kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		// Only requests for every topic: librdkafka asks for brokers and
		// single topics on its own.
		if req.(*kmsg.MetadataRequest).Topics == nil {
			metadata.Add(1)
		}
		return nil, nil, false
	})
	// The client fetches its list as it starts: counted too.
	cl := newClient(t, c, time.Minute)
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := cl.ListTopics(ctx); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	first := metadata.Load()
	for i := 0; i < 5; i++ {
		_, _ = cl.ListTopics(ctx)
	}
	if got := metadata.Load(); got != first {
		t.Errorf("cached lists sent %d more metadata requests", got-first)
	}
	if first < 1 || first > 2 {
		t.Errorf("20 concurrent lists sent %d metadata requests for every topic", first)
	}
}

func TestStoppedClusterFailsFast(t *testing.T) {
	c := newCluster(t)
	cl := newClient(t, c, 0)
	ctx := context.Background()
	if _, err := cl.ListTopics(ctx); err != nil {
		t.Fatal(err)
	}
	c.Close()
	start := time.Now()
	_, err := cl.ListTopics(ctx)
	t.Logf("list: %v", err)
	k := portal.KindOf(err)
	if k != portal.UpstreamTimeout && k != portal.UpstreamUnavailable {
		t.Errorf("list on a stopped cluster: %v", err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("took %v, want within the 3s timeout", took)
	}
	start = time.Now()
	err = cl.CreateTopic(ctx, platform.TopicSpec{Name: "x", Partitions: 1})
	k = portal.KindOf(err)
	if k != portal.UpstreamTimeout && k != portal.UpstreamUnavailable {
		t.Errorf("create on a stopped cluster: %v", err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("took %v, want within the 3s timeout", took)
	}
}
