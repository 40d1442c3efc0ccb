package events

import (
	"context"
	"maps"
	"net/url"
	"slices"
	"strings"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// Target is a topic of a platform cluster that events are written to,
// named by a webhook URL kafka://<landing zone>/<stage>/<topic>.
type Target struct {
	Zone, Stage, Topic string
}

// KafkaTarget reads a kafka:// webhook URL; false for any other URL.
func KafkaTarget(raw string) (Target, bool) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "kafka" {
		return Target{}, false
	}
	stage, topic, ok := strings.Cut(strings.TrimPrefix(u.Path, "/"), "/")
	if !ok || u.Host == "" || stage == "" || topic == "" || portal.TopicNameProblem(topic) != "" || u.User != nil || u.RawQuery != "" {
		return Target{}, false
	}
	return Target{Zone: u.Host, Stage: stage, Topic: topic}, true
}

// EnvironmentProducer writes events through the producer of each
// environment's cluster (confluent-kafka-go, as every record the portal
// writes).
func EnvironmentProducer(envs *platform.Environments) Producer {
	return func(ctx context.Context, zone, stage, topic string, key, value []byte, headers map[string]string) error {
		env, err := envs.Get(zone, stage)
		if err != nil {
			return err
		}
		var hs []platform.Header
		for _, k := range slices.Sorted(maps.Keys(headers)) {
			hs = append(hs, platform.Header{Key: k, Value: []byte(headers[k])})
		}
		ds, err := env.Messages.Produce(ctx, topic, []platform.OutMessage{{Partition: -1, Key: key, Value: value, Headers: hs}})
		if err == nil && len(ds) == 1 {
			err = ds[0].Err
		}
		return err
	}
}
