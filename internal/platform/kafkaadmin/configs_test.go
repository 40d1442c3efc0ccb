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
	got, err := c.TopicConfigs(ctx, []string{"cfg-a", "cfg-b", "cfg-missing"}, []string{"retention.ms", "cleanup.policy"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got["cfg-a"]["cleanup.policy"] != "compact" || got["cfg-b"]["retention.ms"] == "" {
		t.Errorf("configs %v", got)
	}
}
