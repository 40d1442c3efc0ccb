package kafkaadmin

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/edh-platform/rms-portal/internal/platform"
)

// Reads one after another, over other topics and partitions, each get
// their own records and no others, and cost the cluster no connection of
// their own: the readers are kept between reads.
func TestReadsShareTheirReadersAndKeepTheirRecords(t *testing.T) {
	ctx := context.Background()
	c := newCluster(t)
	cl := newClient(t, c, 0)
	for _, topic := range []string{"left", "right"} {
		if err := cl.CreateTopic(ctx, platform.TopicSpec{Name: topic, Partitions: 2}); err != nil {
			t.Fatal(err)
		}
		produceTo(t, c, topic, 40)
	}
	read := func(topic string, partition int, from int64, count int) []int64 {
		t.Helper()
		msgs, err := cl.ReadMessages(ctx, topic, []platform.ReadRange{{Partition: partition, From: from, Count: count}}, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		var got []int64
		for _, m := range msgs {
			if m.Partition != partition {
				t.Errorf("reading %s/%d returned a record of partition %d", topic, partition, m.Partition)
			}
			got = append(got, m.Offset)
		}
		return got
	}
	// The first reads open a reader and its connections.
	read("left", 0, 0, 1)
	read("right", 0, 0, 1)
	connections := countConnections(c)
	for i := range 12 {
		topic := []string{"left", "right"}[i%2]
		partition, from := i%3%2, int64(i)
		want := []int64{from, from + 1, from + 2}
		if got := read(topic, partition, from, 3); !slices.Equal(got, want) {
			t.Errorf("read %d (%s/%d from %d): offsets %v, want %v", i, topic, partition, from, got, want)
		}
	}
	// The last 3 of a partition's 20 records, then past its end.
	if got := read("right", 1, 17, 5); !slices.Equal(got, []int64{17, 18, 19}) {
		t.Errorf("read to the end: %v", got)
	}
	// On a busy machine a kept reader may still be connecting to the broker
	// it learnt of, or connect again after a request that timed out: two
	// at most, never one a read (there were 37).
	if n := connections.Load(); n > 2 {
		t.Errorf("12 reads opened %d connections to the cluster, want none of their own", n)
	}
}

// countConnections counts the connections opened from now on: librdkafka
// begins each by asking for the API versions.
func countConnections(c *kfake.Cluster) *atomic.Int64 {
	var n atomic.Int64
	c.ControlKey(int16(kmsg.ApiVersions), func(kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		n.Add(1)
		return nil, nil, false
	})
	return &n
}
