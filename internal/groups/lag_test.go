package groups_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/group"
	"github.com/edh-platform/rms-portal/internal/portal/record"
	"github.com/edh-platform/rms-portal/internal/servicetest"
)

// TestLagInTime: a group seen for the first time is still being learnt;
// once the ends have moved, the age of its oldest unconsumed record is
// known (at least, then exactly), and with a few minutes of its pace,
// when it catches up or that it falls behind; on the list, the detail
// and the topic's consumers alike.
func TestLagInTime(t *testing.T) {
	w := servicetest.New(t)
	sd := w.Seed(t, "scada", "dev")
	c := w.Clusters["edh-shared/dev"]
	dev := portal.Scope{BU: "scada", Stage: "dev"}
	ctx := servicetest.AsRole(portal.Viewer)
	groupID := "edh-shared-scada-dev-lagging"
	tp := platform.TopicPartition{Topic: sd.Topic, Partition: 0}
	c.AddGroup(groupID, nil, map[platform.TopicPartition]int64{tp: 1})
	now := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	w.Groups.SetClock(func() time.Time { return now })
	produce := func(n int) {
		t.Helper()
		recs := make([]record.OutRecord, n)
		for i := range recs {
			recs[i] = record.OutRecord{Value: ptr("x"), Partition: ptr(0)}
		}
		if _, err := w.Messages.Produce(servicetest.AsRole(portal.Developer), dev, sd.Topic, record.ProduceRequest{Records: recs}); err != nil {
			t.Fatal(err)
		}
	}
	commit := func(off int64) {
		t.Helper()
		if err := c.CommitGroupOffsets(t.Context(), groupID, []platform.GroupOffset{{TopicPartition: tp, Offset: off}}); err != nil {
			t.Fatal(err)
		}
	}
	late := func() group.LagTime {
		t.Helper()
		d, err := w.Groups.Get(ctx, dev, "lagging")
		if err != nil || len(d.Partitions) != 1 {
			t.Fatalf("detail %+v %v", d, err)
		}
		return d.Partitions[0].Late
	}

	if l := late(); l.Known || l.CatchUpKnown {
		t.Errorf("first sight: %+v", l)
	}
	// Every 10 s, 10 records are written (1 a second) and the group
	// commits 12 more: it catches up at 0.2 records a second.
	for i := 1; i <= 30; i++ {
		now = now.Add(10 * time.Second)
		produce(10)
		commit(int64(12 * i))
		late()
	}
	// The end went 100, 110, ... 400; the record at 360 was written when
	// the end reached 361, 39 s ago; 40 records at 0.2 a second take 200 s.
	l := late()
	if !l.Known || l.AtLeast || l.Age < 35*time.Second || l.Age > 45*time.Second || !l.CatchUpKnown || l.Falling ||
		l.CatchUp < 150*time.Second || l.CatchUp > 250*time.Second {
		t.Errorf("a group catching up: %+v", l)
	}
	// It stops: the age grows and it falls behind.
	for i := 0; i < 30; i++ {
		now = now.Add(10 * time.Second)
		produce(10)
		late()
	}
	l = late()
	if !l.Known || l.Age < 4*time.Minute || !l.Falling {
		t.Errorf("a group that stopped: %+v", l)
	}
	page, err := w.Groups.List(ctx, dev, portal.ListQuery{Search: "lagging"})
	if err != nil || len(page.Items) != 1 || page.Items[0].Late.Age != l.Age || !page.Items[0].Late.Falling {
		t.Errorf("the list: %+v %v", page.Items, err)
	}
	cons, err := w.Groups.Consumers(ctx, dev, sd.Topic)
	if err != nil {
		t.Fatal(err)
	}
	for _, cn := range cons {
		if strings.HasSuffix(cn.Group, "lagging") && (!cn.Late.Known || !cn.Late.Falling) {
			t.Errorf("the topic's consumers: %+v", cn)
		}
	}
}

// BenchmarkGroupsPageWithLagTime is a page of 100 groups, each reading 6
// partitions, with their lag in time, once the portal has an hour of
// their offsets: the service's own work over an in-memory cluster (the
// cluster's side of the same page is BenchmarkGroupsWithLag1000/page=100
// in kafkaadmin). The target is a warm page under 100 ms.
func BenchmarkGroupsPageWithLagTime(b *testing.B) {
	w := servicetest.New(b)
	c := w.Clusters["edh-shared/dev"]
	topic := "edh-shared-scada-dev-bench"
	if err := c.CreateTopic(b.Context(), platform.TopicSpec{Name: topic, Partitions: 6}); err != nil {
		b.Fatal(err)
	}
	for g := 0; g < 100; g++ {
		offs := map[platform.TopicPartition]int64{}
		for p := 0; p < 6; p++ {
			offs[platform.TopicPartition{Topic: topic, Partition: p}] = int64(g % 50)
		}
		c.AddGroup(fmt.Sprintf("edh-shared-scada-dev-g%03d", g), nil, offs)
	}
	now := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	w.Groups.SetClock(func() time.Time { return now })
	ctx, dev := servicetest.AsRole(portal.Viewer), portal.Scope{BU: "scada", Stage: "dev"}
	for i := 0; i < 360; i++ { // an hour of samples every 10 s
		now = now.Add(10 * time.Second)
		w.Groups.SampleLag(ctx)
		if _, err := w.Groups.List(ctx, dev, portal.ListQuery{PageSize: 100}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		page, err := w.Groups.List(ctx, dev, portal.ListQuery{PageSize: 100})
		if err != nil || len(page.Items) != 100 {
			b.Fatalf("%d groups, %v", len(page.Items), err)
		}
	}
}
