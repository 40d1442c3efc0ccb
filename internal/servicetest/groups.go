package servicetest

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// fakeGroup is a consumer group of the fake cluster.
type fakeGroup struct {
	members []platform.GroupMember
	offsets map[platform.TopicPartition]int64
}

// AddGroup adds a group with active members (client ids) and committed
// offsets.
func (f *Cluster) AddGroup(id string, members []string, offsets map[platform.TopicPartition]int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	g := &fakeGroup{offsets: map[platform.TopicPartition]int64{}}
	for i, m := range members {
		g.members = append(g.members, platform.GroupMember{ID: fmt.Sprintf("member-%d", i), ClientID: m, Host: "/10.0.0.1"})
	}
	for tp, o := range offsets {
		g.offsets[tp] = o
	}
	f.groups[id] = g
}

// Committed returns a group's committed offsets.
func (f *Cluster) Committed(id string) map[platform.TopicPartition]int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[platform.TopicPartition]int64{}
	if g, ok := f.groups[id]; ok {
		for tp, o := range g.offsets {
			out[tp] = o
		}
	}
	return out
}

func (g *fakeGroup) describe(id string) platform.Group {
	state := platform.GroupEmpty
	if len(g.members) > 0 {
		state = platform.GroupStable
	}
	return platform.Group{ID: id, State: state, Protocol: "range", Members: g.members}
}

// ListGroups implements platform.Groups.
func (f *Cluster) ListGroups(context.Context) ([]platform.Group, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	var out []platform.Group
	for id, g := range f.groups {
		d := g.describe(id)
		d.Members = nil
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// DescribeGroups implements platform.Groups.
func (f *Cluster) DescribeGroups(_ context.Context, ids []string) ([]platform.Group, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	var out []platform.Group
	for _, id := range ids {
		if g, ok := f.groups[id]; ok {
			out = append(out, g.describe(id))
		} else {
			out = append(out, platform.Group{ID: id, State: platform.GroupDead})
		}
	}
	return out, nil
}

// GroupOffsets implements platform.Groups.
func (f *Cluster) GroupOffsets(_ context.Context, ids []string) (map[string][]platform.GroupOffset, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	out := map[string][]platform.GroupOffset{}
	for _, id := range ids {
		if g, ok := f.groups[id]; ok {
			for tp, o := range g.offsets {
				out[id] = append(out[id], platform.GroupOffset{TopicPartition: tp, Offset: o})
			}
		}
	}
	return out, nil
}

// Offsets implements platform.Groups, with the offsets of TopicOffsets
// (earliest 10, latest 100 × (partition+1)) and 50 for any time.
func (f *Cluster) Offsets(_ context.Context, parts []platform.TopicPartition, q platform.OffsetQuery) (map[platform.TopicPartition]int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	out := map[platform.TopicPartition]int64{}
	for _, p := range parts {
		if _, ok := f.topics[p.Topic]; !ok {
			return nil, portal.New(portal.NotFound, "topic %s not found", p.Topic)
		}
		switch {
		case q.Earliest:
			out[p] = 10
		case !q.At.IsZero():
			out[p] = 50
		default:
			out[p] = int64(100 * (p.Partition + 1))
			for _, m := range f.records[p.Topic] {
				if m.Partition == p.Partition {
					out[p] = max(out[p], m.Offset+1)
				}
			}
		}
	}
	return out, nil
}

// CommitGroupOffsets implements platform.Groups.
func (f *Cluster) CommitGroupOffsets(_ context.Context, id string, offsets []platform.GroupOffset) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	g, ok := f.groups[id]
	if !ok {
		g = &fakeGroup{offsets: map[platform.TopicPartition]int64{}}
		f.groups[id] = g
	}
	if len(g.members) > 0 {
		return portal.New(portal.Conflict, "consumer group %s has active members", id)
	}
	f.writes++
	for _, o := range offsets {
		g.offsets[o.TopicPartition] = o.Offset
	}
	return nil
}

// DeleteGroup implements platform.Groups.
func (f *Cluster) DeleteGroup(_ context.Context, id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	g, ok := f.groups[id]
	switch {
	case !ok:
		return portal.New(portal.NotFound, "consumer group %s not found", id)
	case len(g.members) > 0:
		return portal.New(portal.Conflict, "consumer group %s has active members", id)
	}
	f.writes++
	delete(f.groups, id)
	return nil
}

// ReadMessages implements platform.Messages with records whose value is
// {"offset":N}, up to the partition's latest offset.
func (f *Cluster) ReadMessages(_ context.Context, topic string, ranges []platform.ReadRange, maxBytes int) ([]platform.Message, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if _, ok := f.topics[topic]; !ok {
		return nil, portal.New(portal.NotFound, "topic %s not found", topic)
	}
	var out []platform.Message
	if recs, ok := f.records[topic]; ok {
		for _, r := range ranges {
			for _, m := range recs {
				if m.Partition == r.Partition && m.Offset >= r.From && m.Offset < r.From+int64(r.Count) {
					out = append(out, m)
				}
			}
		}
		return out, nil
	}
	bytes := 0
	for _, r := range ranges {
		latest := int64(100 * (r.Partition + 1))
		for o := r.From; o < latest && o < r.From+int64(r.Count) && bytes < maxBytes; o++ {
			v := []byte(fmt.Sprintf(`{"offset":%d}`, o))
			bytes += len(v)
			out = append(out, platform.Message{Partition: r.Partition, Offset: o, Timestamp: time.Unix(1700000000+o, 0),
				Key: []byte(fmt.Sprint("k", o)), Value: v})
		}
	}
	return out, nil
}

// PutRecords makes ReadMessages read these records from a topic.
func (f *Cluster) PutRecords(topic string, recs []platform.Message) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.records[topic] = recs
}

// Produce implements platform.Messages: records are appended after the
// partition's latest offset (the first write hides the generated
// records), partition -1 going to partition 0.
func (f *Cluster) Produce(_ context.Context, topic string, recs []platform.OutMessage) ([]platform.Delivery, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	t, ok := f.topics[topic]
	if !ok {
		return nil, portal.New(portal.NotFound, "topic %s not found", topic)
	}
	f.writes++
	out := make([]platform.Delivery, len(recs))
	for i, r := range recs {
		p := max(r.Partition, 0)
		if p >= t.partitions {
			out[i] = platform.Delivery{Partition: p, Offset: -1, Err: portal.New(portal.InvalidParameter, "partition %d does not exist", p)}
			continue
		}
		next := int64(100 * (p + 1))
		for _, m := range f.records[topic] {
			if m.Partition == p {
				next = max(next, m.Offset+1)
			}
		}
		f.records[topic] = append(f.records[topic], platform.Message{Partition: p, Offset: next, Timestamp: time.Now(),
			Key: r.Key, Value: r.Value, Headers: r.Headers})
		out[i] = platform.Delivery{Partition: p, Offset: next}
	}
	return out, nil
}
