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
	"github.com/twmb/franz-go/pkg/kversion"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// produceTo writes n records to topic over its partitions with kgo, a
// client independent of the one under test.
func produceTo(t testing.TB, c *kfake.Cluster, topic string, n int) {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()[0]), kgo.DefaultProduceTopic(topic),
		kgo.RecordPartitioner(kgo.RoundRobinPartitioner()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	var recs []*kgo.Record
	for i := range n {
		recs = append(recs, &kgo.Record{Key: []byte(fmt.Sprint("k", i)), Value: []byte(fmt.Sprintf(`{"seq":%d}`, i)),
			Headers: []kgo.RecordHeader{{Key: "source", Value: []byte("test")}}})
	}
	if err := cl.ProduceSync(context.Background(), recs...).FirstErr(); err != nil {
		t.Fatal(err)
	}
}

// commit sets a group's offsets as an administrator (generation -1).
func commit(t testing.TB, c *kfake.Cluster, group, topic string, offsets map[int32]int64) {
	t.Helper()
	// Before OffsetCommit v10, topics are named rather than given by id.
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()[0]), kgo.MaxVersions(kversion.V3_6_0()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	req := kmsg.NewPtrOffsetCommitRequest()
	req.Group, req.Generation = group, -1
	rt := kmsg.NewOffsetCommitRequestTopic()
	rt.Topic = topic
	for p, o := range offsets {
		rp := kmsg.NewOffsetCommitRequestTopicPartition()
		rp.Partition, rp.Offset = p, o
		rt.Partitions = append(rt.Partitions, rp)
	}
	req.Topics = append(req.Topics, rt)
	resp, err := req.RequestWith(context.Background(), cl)
	if err != nil {
		t.Fatal(err)
	}
	for _, rt := range resp.Topics {
		for _, rp := range rt.Partitions {
			if err := kerr.ErrorForCode(rp.ErrorCode); err != nil {
				t.Fatalf("commit %s %s[%d]: %v", group, topic, rp.Partition, err)
			}
		}
	}
}

// TestGroupsAndOffsets: groups are listed and described in batches, their
// committed offsets fetched, end offsets and offsets by time read in one
// request, offsets reset while empty and refused with a member, and an
// empty group deleted.
func TestGroupsAndOffsets(t *testing.T) {
	ctx := context.Background()
	c := newCluster(t)
	cl := newClient(t, c, 0)
	if err := cl.CreateTopic(ctx, platform.TopicSpec{Name: "orders", Partitions: 2}); err != nil {
		t.Fatal(err)
	}
	produceTo(t, c, "orders", 20)
	commit(t, c, "replay", "orders", map[int32]int64{0: 3, 1: 4})

	groups, err := cl.ListGroups(ctx)
	if err != nil || !slices.ContainsFunc(groups, func(g platform.Group) bool { return g.ID == "replay" }) {
		t.Fatalf("groups %+v %v", groups, err)
	}
	desc, err := cl.DescribeGroups(ctx, []string{"replay", "nope"})
	if err != nil || len(desc) == 0 || desc[0].ID != "replay" || len(desc[0].Members) != 0 {
		t.Fatalf("describe %+v %v", desc, err)
	}
	offsets, err := cl.GroupOffsets(ctx, []string{"replay", "nope"})
	if err != nil || len(offsets["replay"]) != 2 || len(offsets["nope"]) != 0 {
		t.Fatalf("offsets %+v %v", offsets, err)
	}
	parts := []platform.TopicPartition{{Topic: "orders", Partition: 0}, {Topic: "orders", Partition: 1}}
	end, err := cl.Offsets(ctx, parts, platform.OffsetQuery{})
	if err != nil || end[parts[0]] != 10 || end[parts[1]] != 10 {
		t.Fatalf("end offsets %v %v", end, err)
	}
	future, err := cl.Offsets(ctx, parts, platform.OffsetQuery{At: time.Now().Add(time.Hour)})
	if err != nil || future[parts[0]] != 10 {
		t.Errorf("offsets after the last record: %v %v", future, err)
	}
	past, err := cl.Offsets(ctx, parts, platform.OffsetQuery{At: time.Now().Add(-time.Hour)})
	if err != nil || past[parts[0]] != 0 {
		t.Errorf("offsets before the first record: %v %v", past, err)
	}

	if err := cl.CommitGroupOffsets(ctx, "replay", []platform.GroupOffset{{TopicPartition: parts[0], Offset: 0}, {TopicPartition: parts[1], Offset: 0}}); err != nil {
		t.Fatal(err)
	}
	if o, _ := cl.GroupOffsets(ctx, []string{"replay"}); o["replay"][0].Offset != 0 || o["replay"][1].Offset != 0 {
		t.Errorf("after the reset: %+v", o)
	}

	// An active member: the reset and the delete are refused.
	member, err := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()[0]), kgo.ConsumerGroup("live"), kgo.ConsumeTopics("orders"), kgo.ClientID("live-client"))
	if err != nil {
		t.Fatal(err)
	}
	defer member.Close()
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	member.PollFetches(pctx)
	cancel()
	live, err := cl.DescribeGroups(ctx, []string{"live"})
	if err != nil || len(live) != 1 || len(live[0].Members) != 1 || live[0].Members[0].ClientID != "live-client" || live[0].State != platform.GroupStable {
		t.Fatalf("live group %+v %v", live, err)
	}
	if err := cl.CommitGroupOffsets(ctx, "live", []platform.GroupOffset{{TopicPartition: parts[0], Offset: 0}}); !portal.Is(err, portal.Conflict) {
		t.Errorf("reset with a member: %v", err)
	}
	if err := cl.DeleteGroup(ctx, "live"); !portal.Is(err, portal.Conflict) {
		t.Errorf("delete with a member: %v", err)
	}
	if err := cl.DeleteGroup(ctx, "replay"); err != nil {
		t.Errorf("delete an empty group: %v", err)
	}
	if err := cl.DeleteGroup(ctx, "replay"); !portal.Is(err, portal.NotFound) {
		t.Errorf("delete again: %v", err)
	}
}

// TestReadMessages: the latest records of each partition with keys,
// values and headers; a byte bound; and no group left behind.
func TestReadMessages(t *testing.T) {
	ctx := context.Background()
	c := newCluster(t)
	cl := newClient(t, c, 0)
	if err := cl.CreateTopic(ctx, platform.TopicSpec{Name: "readings", Partitions: 2}); err != nil {
		t.Fatal(err)
	}
	produceTo(t, c, "readings", 30)
	msgs, err := cl.ReadMessages(ctx, "readings", []platform.ReadRange{{Partition: 0, From: 10, Count: 5}, {Partition: 1, From: 13, Count: 5}}, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	byPart := map[int][]int64{}
	for _, m := range msgs {
		byPart[m.Partition] = append(byPart[m.Partition], m.Offset)
		if len(m.Headers) != 1 || m.Headers[0].Key != "source" || len(m.Key) == 0 || m.Timestamp.IsZero() {
			t.Errorf("message %+v", m)
		}
	}
	if !slices.Equal(byPart[0], []int64{10, 11, 12, 13, 14}) || !slices.Equal(byPart[1], []int64{13, 14}) {
		t.Errorf("offsets read %v", byPart)
	}
	few, err := cl.ReadMessages(ctx, "readings", []platform.ReadRange{{Partition: 0, From: 0, Count: 15}}, 30)
	if err != nil || len(few) == 0 || len(few) > 5 {
		t.Errorf("byte bound: %d messages, %v", len(few), err)
	}
	groups, _ := cl.ListGroups(ctx)
	for _, g := range groups {
		t.Errorf("browsing left group %s behind", g.ID)
	}
}
