package kafkaadmin

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// TestTopicConfigsInOneRequest: the settings of several topics, from one
// DescribeConfigs; a topic that does not exist is left out.
func TestTopicConfigsInOneRequest(t *testing.T) {
	c := newClient(t, newCluster(t), time.Minute)
	ctx := t.Context()
	for _, n := range []string{"cfg-a", "cfg-b"} {
		if err := c.CreateTopic(ctx, platform.TopicSpec{Name: n, Partitions: 1, Config: map[string]string{"cleanup.policy": "compact"}}); err != nil {
			t.Fatal(err)
		}
	}
	got, err := c.TopicConfigs(ctx, []string{"cfg-a", "cfg-b", "cfg-missing"})
	if err != nil {
		t.Fatal(err)
	}
	value := func(topic, key string) (string, bool) {
		for _, e := range got[topic] {
			if e.Name == key {
				return e.Value, e.Override
			}
		}
		return "", false
	}
	policy, over := value("cfg-a", "cleanup.policy")
	retention, retOver := value("cfg-b", "retention.ms")
	if len(got) != 2 || policy != "compact" || !over || retention == "" || retOver {
		t.Errorf("configs %v", got)
	}
}

// TestTopicChangesInOneRequest: many topics described with one
// DescribeTopics, their settings changed with one IncrementalAlterConfigs
// and their partitions raised with one CreatePartitions, each with its own
// outcome (a missing topic is left out of the description and fails
// alone); the list shows the new partition counts at once.
func TestTopicChangesInOneRequest(t *testing.T) {
	cluster := newCluster(t)
	c := newClient(t, cluster, time.Minute)
	ctx := t.Context()
	for _, n := range []string{"batch-a", "batch-b", "batch-c"} {
		if err := c.CreateTopic(ctx, platform.TopicSpec{Name: n, Partitions: 1, Config: map[string]string{"cleanup.policy": "compact"}}); err != nil {
			t.Fatal(err)
		}
	}
	var requests sync.Map
	for _, key := range []kmsg.Key{kmsg.DescribeTopicPartitions, kmsg.Metadata, kmsg.IncrementalAlterConfigs, kmsg.CreatePartitions} {
		cluster.ControlKey(int16(key), func(kmsg.Request) (kmsg.Response, error, bool) {
			cluster.KeepControl()
			n, _ := requests.LoadOrStore(key, new(atomic.Int32))
			n.(*atomic.Int32).Add(1)
			return nil, nil, false
		})
	}
	count := func(key kmsg.Key) int32 {
		n, ok := requests.Load(key)
		if !ok {
			return 0
		}
		return n.(*atomic.Int32).Load()
	}
	described, err := c.DescribeTopics(ctx, []string{"batch-a", "batch-b", "batch-c", "batch-missing"})
	if err != nil {
		t.Fatal(err)
	}
	if len(described) != 3 || len(described["batch-b"].Partitions) != 1 || len(described["batch-c"].Config) == 0 {
		t.Errorf("described %v", described)
	}
	if n := count(kmsg.DescribeTopicPartitions) + count(kmsg.Metadata); n != 1 {
		t.Errorf("%d describe requests for 4 topics", n)
	}
	errs, err := c.AlterTopicConfigs(ctx, map[string]platform.ConfigChange{
		"batch-a":       {Set: map[string]string{"retention.ms": "3600000"}, Reset: []string{"cleanup.policy"}},
		"batch-b":       {Set: map[string]string{"retention.ms": "7200000"}},
		"batch-missing": {Set: map[string]string{"retention.ms": "1"}},
	})
	if err != nil || errs["batch-a"] != nil || errs["batch-b"] != nil || !portal.Is(errs["batch-missing"], portal.NotFound) {
		t.Fatalf("alter: %v %v", errs, err)
	}
	if n := count(kmsg.IncrementalAlterConfigs); n != 1 {
		t.Errorf("%d alter requests for 3 topics", n)
	}
	configs, _ := c.TopicConfigs(ctx, []string{"batch-a", "batch-b"})
	settings := map[string]string{}
	for topic, entries := range configs {
		for _, e := range entries {
			if e.Override {
				settings[topic] += e.Name + "=" + e.Value + " "
			}
		}
	}
	if settings["batch-a"] != "retention.ms=3600000 " || settings["batch-b"] != "cleanup.policy=compact retention.ms=7200000 " {
		t.Errorf("overrides after: %v", settings)
	}
	errs, err = c.AddPartitions(ctx, map[string]int{"batch-a": 3, "batch-c": 2, "batch-missing": 2})
	if err != nil || errs["batch-a"] != nil || errs["batch-c"] != nil || !portal.Is(errs["batch-missing"], portal.NotFound) {
		t.Fatalf("partitions: %v %v", errs, err)
	}
	if n := count(kmsg.CreatePartitions); n != 1 {
		t.Errorf("%d partition requests for 3 topics", n)
	}
	list, _ := c.ListTopics(ctx)
	if got := listNames(list); !strings.Contains(got, "batch-a/3 batch-b/1 batch-c/2") {
		t.Errorf("list after: %s", got)
	}
}

// TestOnlyGrownTopicsAreLearnt: creating and deleting topics asks the
// cluster for no metadata of them (librdkafka would keep a handle for each
// topic asked about, for good: a replica creating a topic a second grew by
// 10 kB a topic), while a topic whose partitions grew is learnt once, so
// that the offsets of its new partitions are found at once.
func TestOnlyGrownTopicsAreLearnt(t *testing.T) {
	cluster := newCluster(t)
	c := newClient(t, cluster, time.Minute)
	ctx := t.Context()
	var mu sync.Mutex
	asked := map[string]int{}
	cluster.ControlKey(int16(kmsg.Metadata), func(req kmsg.Request) (kmsg.Response, error, bool) {
		cluster.KeepControl()
		mu.Lock()
		defer mu.Unlock()
		for _, rt := range req.(*kmsg.MetadataRequest).Topics {
			if rt.Topic != nil {
				asked[*rt.Topic]++
			}
		}
		return nil, nil, false
	})
	for i := range 20 {
		name := fmt.Sprintf("churn-%d", i)
		if err := c.CreateTopic(ctx, platform.TopicSpec{Name: name, Partitions: 1}); err != nil {
			t.Fatal(err)
		}
		if err := c.DeleteTopic(ctx, name); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.CreateTopic(ctx, platform.TopicSpec{Name: "grows", Partitions: 1}); err != nil {
		t.Fatal(err)
	}
	if err := c.CreatePartitions(ctx, "grows", 3); err != nil {
		t.Fatal(err)
	}
	offsets, err := c.TopicOffsets(ctx, "grows", 3)
	if err != nil || len(offsets) != 3 {
		t.Fatalf("offsets of the grown topic: %v %v", offsets, err)
	}
	mu.Lock()
	defer mu.Unlock()
	for name, n := range asked {
		if strings.HasPrefix(name, "churn-") {
			t.Errorf("%s was asked about %d times", name, n)
		}
	}
	if asked["grows"] == 0 {
		t.Error("the grown topic was not learnt")
	}
}
