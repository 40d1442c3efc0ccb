package kafkaadmin

import (
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/platform"
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
