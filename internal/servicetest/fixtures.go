package servicetest

import (
	"strings"
	"testing"

	"github.com/edh-platform/rms-portal/internal/platform"
)

// Two versions of one Avro record, the second a compatible evolution.
const (
	AvroV1 = `{"type":"record","name":"Reading","fields":[{"name":"id","type":"string"}]}`
	AvroV2 = `{"type":"record","name":"Reading","fields":[{"name":"id","type":"string"},{"name":"value","type":"double","default":0}]}`
)

// DatagenConfig is a Datagen source connector's configuration, with its
// credentials (secret settings).
func DatagenConfig() map[string]string {
	return map[string]string{"connector.class": "DatagenSource", "kafka.topic": "readings", "output.data.format": "JSON",
		"quickstart": "ORDERS", "kafka.api.key": "KEY", "kafka.api.secret": "SECRET"}
}

// NewWithGroups is a world where scada has, in dev and run, a seeded
// topic, a group with an active member, a group without one, and crm a
// group on the same topic; it returns the dev topic's name.
func NewWithGroups(t *testing.T) (*World, string) {
	w := New(t)
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
