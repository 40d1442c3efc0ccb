package topics

import (
	"context"

	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal/topic"
)

// pageStats gives the shown topics their records, retention and cleanup
// policy from three requests whatever the page's size: the earliest and
// the latest offsets of all their partitions, and their settings. A
// cluster that does not answer leaves them without (the list stands).
func pageStats(ctx context.Context, call *gate.Call, items []topic.Topic) {
	var parts []platform.TopicPartition
	names := make([]string, 0, len(items))
	for _, t := range items {
		names = append(names, t.Name)
		for p := 0; p < t.Partitions; p++ {
			parts = append(parts, platform.TopicPartition{Topic: t.Name, Partition: p})
		}
	}
	if len(names) == 0 {
		return
	}
	earliest, latest, err := platform.Retained(ctx, call.Env.Groups, parts)
	if err != nil {
		return
	}
	configs, err := call.Env.Topics.TopicConfigs(ctx, names)
	if err != nil {
		return
	}
	for i := range items {
		st := &topic.TopicStats{}
		for _, e := range configs[items[i].Name] {
			switch e.Name {
			case "retention.ms":
				st.RetentionMs = e.Value
			case "cleanup.policy":
				st.CleanupPolicy = e.Value
			}
		}
		for p := 0; p < items[i].Partitions; p++ {
			tp := platform.TopicPartition{Topic: items[i].Name, Partition: p}
			st.Records += max(latest[tp]-earliest[tp], 0)
		}
		items[i].Stats = st
	}
}
