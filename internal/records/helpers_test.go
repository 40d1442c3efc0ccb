package records_test

import (
	"strings"
	"testing"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/servicetest"
)

// groupWorld has, in scada's dev and run, a seeded topic, a group with an
// active member and a group without one.
func groupWorld(t *testing.T) (*servicetest.World, string) {
	w := servicetest.New(t)
	var topic string
	for _, st := range []string{"dev", "run"} {
		sd := w.Seed(t, "scada", st)
		topic = sd.Topic
		c := w.Clusters["edh-shared/"+st]
		tp := platform.TopicPartition{Topic: sd.Topic, Partition: 0}
		c.AddGroup("edh-shared-scada-"+st+"-billing", []string{"billing-1"}, map[platform.TopicPartition]int64{tp: 60})
		c.AddGroup("edh-shared-scada-"+st+"-replay", nil, map[platform.TopicPartition]int64{tp: 30})
		c.AddGroup("edh-shared-crm-"+st+"-other", nil, map[platform.TopicPartition]int64{tp: 1})
	}
	return w, strings.Replace(topic, "-run-", "-dev-", 1)
}

func ptr[T any](v T) *T { return &v }
