package kafkaadmin

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
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
	release, err := cl.acquire(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	defer release()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		md, err := cl.h().admin.GetMetadata(nil, true, 5000)
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
// their lag asks of a cluster: one ListGroups, a describe of those with
// members, their committed offsets (librdkafka takes one group per
// ListConsumerGroupOffsets call: sent side by side, at most 32 at once)
// and one ListOffsets for the end offsets of every partition they read.
// members=false: the groups have committed offsets and no member (Empty,
// not described); members=true: one member each (Stable, described).
// librdkafka looks each group's coordinator up again for each call and
// describes one group per DescribeGroups request, so a page of 1,000
// groups with members is about 5,000 requests, which kfake answers one at
// a time; a real cluster spreads them over its brokers.
func BenchmarkGroupsWithLag1000(b *testing.B) {
	for _, members := range []bool{false, true} {
		b.Run(fmt.Sprintf("members=%v", members), func(b *testing.B) { groupsWithLag(b, members) })
	}
}

// groupsWithLag is BenchmarkGroupsWithLag1000 with groups that have no
// member (they list as Empty and are not described) or one member each
// (Stable, described).
func groupsWithLag(b *testing.B, members bool) {
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
	if members {
		joinGroups(b, c, ids, "orders")
	}
	cl := newClient(b, c, 0)
	// A page of the list as the service makes it: all groups listed, then
	// the page's groups with members described side by side with their
	// committed offsets and the partitions' ends.
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
				if members != (len(active) == page) {
					b.Fatalf("%d of %d groups have members", len(active), page)
				}
				var both errgroup.Group
				both.Go(func() error {
					described, err := cl.DescribeGroups(ctx, active)
					if err == nil && len(described) != len(active) {
						err = fmt.Errorf("%d of %d groups described", len(described), len(active))
					}
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

// joinGroups gives each group one member that reads topic (a join and a
// sync, as a consumer's first poll makes them; the member's session lasts
// five minutes without heartbeats), so that every group lists as Stable.
func joinGroups(b testing.TB, c *kfake.Cluster, groups []string, topic string) {
	b.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()[0]))
	if err != nil {
		b.Fatal(err)
	}
	defer cl.Close()
	ctx := context.Background()
	meta := kmsg.ConsumerMemberMetadata{Topics: []string{topic}}
	assignment := kmsg.ConsumerMemberAssignment{Topics: []kmsg.ConsumerMemberAssignmentTopic{{Topic: topic, Partitions: []int32{0, 3}}}}
	for _, group := range groups {
		join := kmsg.NewPtrJoinGroupRequest()
		join.Group, join.ProtocolType = group, "consumer"
		join.SessionTimeoutMillis, join.RebalanceTimeoutMillis = 300000, 300000
		p := kmsg.NewJoinGroupRequestProtocol()
		p.Name, p.Metadata = "range", meta.AppendTo(nil)
		join.Protocols = append(join.Protocols, p)
		var joined *kmsg.JoinGroupResponse
		for range 2 { // the first join is answered with a member id to join with
			if joined, err = join.RequestWith(ctx, cl); err != nil {
				b.Fatal(err)
			}
			if joined.ErrorCode != kerr.MemberIDRequired.Code {
				break
			}
			join.MemberID = joined.MemberID
		}
		if err := kerr.ErrorForCode(joined.ErrorCode); err != nil {
			b.Fatalf("join %s: %v", group, err)
		}
		sync := kmsg.NewPtrSyncGroupRequest()
		sync.Group, sync.Generation, sync.MemberID = group, joined.Generation, joined.MemberID
		sync.ProtocolType, sync.Protocol = kmsg.StringPtr("consumer"), kmsg.StringPtr("range")
		a := kmsg.NewSyncGroupRequestGroupAssignment()
		a.MemberID, a.MemberAssignment = joined.MemberID, assignment.AppendTo(nil)
		sync.GroupAssignment = append(sync.GroupAssignment, a)
		synced, err := sync.RequestWith(ctx, cl)
		if err != nil {
			b.Fatal(err)
		}
		if err := kerr.ErrorForCode(synced.ErrorCode); err != nil {
			b.Fatalf("sync %s: %v", group, err)
		}
	}
}

// BenchmarkDescribeTopic is a topic's page (and every produce's check of
// its topic's limits): its partitions and its settings, two requests.
func BenchmarkDescribeTopic(b *testing.B) {
	cl := newClient(b, newCluster(b), 0)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if d, err := cl.DescribeTopic(ctx, "legacy-orders"); err != nil || len(d.Config) == 0 {
			b.Fatalf("%+v %v", d, err)
		}
	}
}
