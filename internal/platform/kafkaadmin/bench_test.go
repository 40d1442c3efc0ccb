package kafkaadmin

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"golang.org/x/sync/errgroup"

	"github.com/edh-platform/rms-portal/internal/platform"
)

func benchCluster(b *testing.B) *kfake.Cluster {
	b.Helper()
	names := make([]string, 10000)
	for i := range names {
		names[i] = fmt.Sprintf("topic-%05d", i)
	}
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, names...))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(c.Close)
	return c
}

// BenchmarkMetadataRaw is one raw AdminClient metadata request for every
// topic of a 10,000-topic cluster: the floor for listing topics.
func BenchmarkMetadataRaw(b *testing.B) {
	cl := newClient(b, benchCluster(b), 0)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		md, err := cl.admin.GetMetadata(nil, true, 5000)
		if err != nil || len(md.Topics) != 10000 {
			b.Fatalf("%v %d", err, len(md.Topics))
		}
	}
}

// BenchmarkListTopicsUncached is the adapter's ListTopics without cache:
// the metadata request plus building the sorted list.
func BenchmarkListTopicsUncached(b *testing.B) {
	cl := newClient(b, benchCluster(b), 0)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if ts, err := cl.ListTopics(ctx); err != nil || len(ts) != 10000 {
			b.Fatalf("%v %d", err, len(ts))
		}
	}
}

// BenchmarkListTopicsCached is ListTopics within the cache's TTL.
func BenchmarkListTopicsCached(b *testing.B) {
	cl := newClient(b, benchCluster(b), time.Hour)
	ctx := context.Background()
	_, _ = cl.ListTopics(ctx)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := cl.ListTopics(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGroupsWithLag1000 is what listing 1,000 consumer groups with
// their lag asks of a cluster: one ListGroups, one DescribeGroups of all
// of them, their committed offsets (librdkafka takes one group per
// ListConsumerGroupOffsets call: sent side by side, at most 32 at once)
// and one ListOffsets for the end offsets of every partition they read.
func BenchmarkGroupsWithLag1000(b *testing.B) {
	ctx := context.Background()
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(6, "orders"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(c.Close)
	produceTo(b, c, "orders", 600)
	ids := make([]string, 1000)
	for i := range ids {
		ids[i] = fmt.Sprintf("edh-shared-scada-dev-group-%04d", i)
		commit(b, c, ids[i], "orders", map[int32]int64{0: int64(i % 100), 3: 5})
	}
	cl := newClient(b, c, 0)
	// A page of the list as the service makes it: all groups listed, then
	// the page's groups with members described (here none: the groups
	// have committed offsets and no member, so every one lists as Empty)
	// side by side with their committed offsets and the partitions' ends.
	for _, page := range []int{100, 1000} {
		b.Run(fmt.Sprintf("page=%d", page), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				all, err := cl.ListGroups(ctx)
				if err != nil || len(all) != 1000 {
					b.Fatalf("%d groups, %v", len(all), err)
				}
				var active []string
				for _, g := range all {
					if g.State != platform.GroupEmpty && g.State != platform.GroupDead && slices.Contains(ids[:page], g.ID) {
						active = append(active, g.ID)
					}
				}
				var both errgroup.Group
				both.Go(func() error {
					_, err := cl.DescribeGroups(ctx, active)
					return err
				})
				both.Go(func() error {
					committed, err := cl.GroupOffsets(ctx, ids[:page])
					if err != nil || len(committed) != page {
						return fmt.Errorf("%d offsets, %v", len(committed), err)
					}
					parts := []platform.TopicPartition{{Topic: "orders", Partition: 0}, {Topic: "orders", Partition: 3}}
					_, err = cl.Offsets(ctx, parts, platform.OffsetQuery{})
					return err
				})
				if err := both.Wait(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
