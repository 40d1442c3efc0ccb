// Package groups is the consumer groups service: a unit's groups with
// their lag in offsets and in time, one group's members and partitions,
// offset resets and deletes.
package groups

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/group"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
)

// Service manages a unit's consumer groups: the groups whose id carries
// the unit's prefix (the pattern its service accounts are granted).
type Service struct {
	guard *gate.Guard
	lag   *groupLag
}

var _ group.GroupService = (*Service)(nil)

// New returns the consumer group service.
func New(g *gate.Guard) *Service { return &Service{guard: g, lag: newGroupLag()} }

// groupsOf lists the groups of the call's scope, sorted by id.
func groupsOf(ctx context.Context, call *gate.Call, q portal.ListQuery) ([]platform.Group, error) {
	all, err := call.Env.Groups.ListGroups(ctx)
	if err != nil {
		return nil, err
	}
	var out []platform.Group
	for _, g := range all {
		switch {
		case call.WholeCluster && call.KeepUnit(q, call.Owner(g.ID, "").Unit):
			out = append(out, g)
		case !call.WholeCluster && call.Scope.Owns(g.ID):
			out = append(out, g)
		}
	}
	gate.SortByName(out, func(g platform.Group) string { return g.ID })
	return out, nil
}

// Positions reads the committed offsets of groups and the end offsets of
// every partition they have committed on: one offsets request per group
// (side by side) and one ListOffsets for all partitions.
func Positions(ctx context.Context, env *platform.Environment, ids []string) (map[string][]platform.GroupOffset, map[platform.TopicPartition]int64, error) {
	committed, err := env.Groups.GroupOffsets(ctx, ids)
	if err != nil {
		return nil, nil, err
	}
	seen := map[platform.TopicPartition]bool{}
	var parts []platform.TopicPartition
	for _, offs := range committed {
		for _, o := range offs {
			if !seen[o.TopicPartition] {
				seen[o.TopicPartition] = true
				parts = append(parts, o.TopicPartition)
			}
		}
	}
	ends, err := env.Groups.Offsets(ctx, parts, platform.OffsetQuery{})
	if err != nil {
		return nil, nil, err
	}
	return committed, ends, nil
}

func lagOf(committed, end int64) int64 { return max(0, end-committed) }

func (s *Service) summary(call *gate.Call, g platform.Group, offs []platform.GroupOffset, ends map[platform.TopicPartition]int64) group.ConsumerGroup {
	late := group.LagTime{}
	for _, o := range offs {
		late = latest(late, s.lag.estimate(call.Env, g.ID, o, ends[o.TopicPartition]))
	}
	out := group.ConsumerGroup{ID: g.ID, Identifier: strings.TrimPrefix(g.ID, call.Scope.Prefix()), State: g.State,
		Protocol: g.Protocol, Members: len(g.Members), Topics: []string{}}
	if call.WholeCluster {
		o := call.Owner(g.ID, "")
		out.BU, out.Identifier = o.Unit, o.Identifier
	}
	for _, o := range offs {
		out.Lag += lagOf(o.Offset, ends[o.TopicPartition])
		if !slices.Contains(out.Topics, o.Topic) {
			out.Topics = append(out.Topics, o.Topic)
		}
	}
	slices.Sort(out.Topics)
	out.Late = late
	return out
}

// List returns a page of the unit's groups with state, members and lag.
// Only the page's groups are described and measured.
func (s *Service) List(ctx context.Context, scope portal.Scope, q portal.ListQuery) (portal.Page[group.ConsumerGroup], error) {
	ctx, call, err := s.guard.Enter(ctx, scope, access.Read, "list consumer groups")
	if err != nil {
		return portal.Page[group.ConsumerGroup]{}, err
	}
	if call.WholeCluster && q.Unit != "" && q.Unit != portal.UnitNone {
		if u, ok := s.guard.Tenancy().Unit(q.Unit); !ok || u.LandingZone.ID != call.Scope.Zone().ID {
			return portal.Page[group.ConsumerGroup]{}, portal.Invalid("unit", "%s is not a business unit of %s", q.Unit, call.Scope.Zone().ID)
		}
	}
	all, err := groupsOf(ctx, call, q)
	if err != nil {
		return portal.Page[group.ConsumerGroup]{}, err
	}
	page, err := gate.Paginate(s.guard.Pages(), "groups "+call.Scope.String()+" "+q.Unit, all, func(g platform.Group) string { return g.ID }, q)
	if err != nil {
		return portal.Page[group.ConsumerGroup]{}, err
	}
	ids := make([]string, len(page.Items))
	// A group the list says is Empty or Dead has no members to describe:
	// its protocol and members are none, so only the others are asked.
	var active []string
	for i, g := range page.Items {
		ids[i] = g.ID
		if g.State != platform.GroupEmpty && g.State != platform.GroupDead {
			active = append(active, g.ID)
		}
	}
	// The descriptions and the positions are independent: asked side by
	// side, a page costs the longer of the two, not their sum.
	var described []platform.Group
	var committed map[string][]platform.GroupOffset
	var ends map[platform.TopicPartition]int64
	both, bctx := errgroup.WithContext(ctx)
	both.Go(func() (err error) {
		described, err = call.Env.Groups.DescribeGroups(bctx, active)
		return err
	})
	both.Go(func() (err error) {
		committed, ends, err = Positions(bctx, call.Env, ids)
		return err
	})
	if err := both.Wait(); err != nil {
		return portal.Page[group.ConsumerGroup]{}, err
	}
	byID := map[string]platform.Group{}
	for _, g := range described {
		byID[g.ID] = g
	}
	s.lag.observe(call.Env, committed, ends)
	out := portal.Page[group.ConsumerGroup]{Total: page.Total, NextPageToken: page.NextPageToken, Items: make([]group.ConsumerGroup, len(ids))}
	for i, g := range page.Items {
		if d, ok := byID[g.ID]; ok {
			g = d
		}
		out.Items[i] = s.summary(call, g, committed[g.ID], ends)
	}
	return out, nil
}

// qualify gives a group's full id from an identifier or a full id.
func qualify(call *gate.Call, id string) string {
	if call.WholeCluster || strings.HasPrefix(id, call.Scope.Prefix()) {
		return id
	}
	return call.Scope.Prefix() + id
}

// group finds one of the unit's groups, described.
func (s *Service) group(ctx context.Context, call *gate.Call, id string) (platform.Group, error) {
	full := qualify(call, id)
	if !call.WholeCluster && !call.Scope.Owns(full) {
		return platform.Group{}, groupMissing(id)
	}
	described, err := call.Env.Groups.DescribeGroups(ctx, []string{full})
	if err != nil {
		return platform.Group{}, err
	}
	for _, g := range described {
		if g.ID == full && g.State != platform.GroupDead {
			return g, nil
		}
	}
	return platform.Group{}, groupMissing(id)
}

func groupMissing(id string) error {
	e := portal.New(portal.NotFound, "consumer group %s not found", id)
	e.Field = "id"
	return e
}

// Get returns a group with its members and, per partition, the committed
// offset, the end offset and the lag.
func (s *Service) Get(ctx context.Context, scope portal.Scope, id string) (group.GroupDetail, error) {
	ctx, call, err := s.guard.Enter(ctx, scope, access.Read, "read consumer groups")
	if err != nil {
		return group.GroupDetail{}, err
	}
	g, err := s.group(ctx, call, id)
	if err != nil {
		return group.GroupDetail{}, err
	}
	committed, ends, err := Positions(ctx, call.Env, []string{g.ID})
	if err != nil {
		return group.GroupDetail{}, err
	}
	s.lag.observe(call.Env, committed, ends)
	out := group.GroupDetail{ConsumerGroup: s.summary(call, g, committed[g.ID], ends)}
	holder := map[platform.TopicPartition]string{}
	for _, m := range g.Members {
		gm := group.GroupMember{ID: m.ID, ClientID: m.ClientID, Host: m.Host, Partitions: []string{}}
		for _, tp := range m.Assigned {
			gm.Partitions = append(gm.Partitions, fmt.Sprintf("%s[%d]", tp.Topic, tp.Partition))
			holder[tp] = m.ClientID
		}
		slices.Sort(gm.Partitions)
		out.MemberList = append(out.MemberList, gm)
	}
	for _, o := range committed[g.ID] {
		end := ends[o.TopicPartition]
		out.Partitions = append(out.Partitions, group.GroupPartition{Topic: o.Topic, Partition: o.Partition, Committed: o.Offset,
			End: end, Lag: lagOf(o.Offset, end), Member: holder[o.TopicPartition], Late: s.lag.estimate(call.Env, g.ID, o, end)})
	}
	slices.SortFunc(out.Partitions, func(a, b group.GroupPartition) int {
		if c := strings.Compare(a.Topic, b.Topic); c != 0 {
			return c
		}
		return a.Partition - b.Partition
	})
	return out, nil
}

// Consumers lists the unit's groups that have committed offsets on a
// topic, with their lag there.
func (s *Service) Consumers(ctx context.Context, scope portal.Scope, topic string) ([]group.TopicConsumer, error) {
	ctx, call, err := s.guard.Enter(ctx, scope, access.Read, "read consumer groups")
	if err != nil {
		return nil, err
	}
	all, err := groupsOf(ctx, call, portal.ListQuery{})
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(all))
	for i, g := range all {
		ids[i] = g.ID
	}
	committed, err := call.Env.Groups.GroupOffsets(ctx, ids)
	if err != nil {
		return nil, err
	}
	var parts []platform.TopicPartition
	var consuming []string
	for _, id := range ids {
		on := false
		for _, o := range committed[id] {
			if o.Topic == topic {
				on = true
				if !slices.Contains(parts, o.TopicPartition) {
					parts = append(parts, o.TopicPartition)
				}
			}
		}
		if on {
			consuming = append(consuming, id)
		}
	}
	out := []group.TopicConsumer{}
	if len(consuming) == 0 {
		return out, nil
	}
	ends, err := call.Env.Groups.Offsets(ctx, parts, platform.OffsetQuery{})
	if err != nil {
		return nil, err
	}
	described, err := call.Env.Groups.DescribeGroups(ctx, consuming)
	if err != nil {
		return nil, err
	}
	onTopic := map[string][]platform.GroupOffset{}
	for _, id := range consuming {
		onTopic[id] = committed[id]
	}
	s.lag.observe(call.Env, onTopic, ends)
	for _, g := range described {
		c := group.TopicConsumer{Group: g.ID, State: g.State, Members: len(g.Members)}
		for _, o := range committed[g.ID] {
			if o.Topic == topic {
				c.Lag += lagOf(o.Offset, ends[o.TopicPartition])
				c.Late = latest(c.Late, s.lag.estimate(call.Env, g.ID, o, ends[o.TopicPartition]))
			}
		}
		out = append(out, c)
	}
	return out, nil
}

// Delete deletes an empty group; one with members is refused (409).
func (s *Service) Delete(ctx context.Context, scope portal.Scope, id string) error {
	return s.guard.Writing(ctx, scope, access.Write, "delete consumer groups", portal.ActConsumerGroupDelete, id, func(ctx context.Context, call *gate.Call) (err error) {
		g, err := s.group(ctx, call, id)
		if err != nil {
			return err
		}
		if len(g.Members) > 0 {
			err = activeMembers(g)
			s.guard.Record(ctx, call, portal.ActConsumerGroupDelete, g.ID, err)
			return err
		}
		return s.guard.Write(ctx, call, gate.Change{Event: portal.ActConsumerGroupDelete, Resource: g.ID,
			Do: func(ctx context.Context) error { return call.Env.Groups.DeleteGroup(ctx, g.ID) }})
	})
}

func activeMembers(g platform.Group) error {
	return portal.New(portal.Conflict, "consumer group %s has %d active member(s) (%s); stop its consumers first", g.ID, len(g.Members),
		strings.Join(clientIDs(g), ", "))
}

func clientIDs(g platform.Group) []string {
	var out []string
	for _, m := range g.Members {
		out = append(out, m.ClientID)
	}
	return out
}

// ResetOffsets moves a group's committed offsets on a topic (or all its
// topics) to the earliest, the latest, the first at a time, or a given
// offset; a dry run shows the plan without committing it. The group must
// have no active member: Kafka would refuse, and the members would
// overwrite the offsets anyway.
func (s *Service) ResetOffsets(ctx context.Context, scope portal.Scope, id string, r group.OffsetReset) (_ group.ResetResult, err error) {
	// A dry run needs the same role as the reset, so that it never
	// promises what the caller may not do; only the reset is audited.
	var call *gate.Call
	if r.DryRun {
		ctx, call, err = s.guard.Enter(ctx, scope, access.Write, "reset consumer group offsets")
	} else {
		ctx, call, err = s.guard.EnterWrite(ctx, scope, access.Write, "reset consumer group offsets", portal.ActConsumerGroupResetOffsets, id)
	}
	if err != nil {
		return group.ResetResult{}, err
	}
	defer s.guard.Settle(ctx, call, &err)
	var v portal.Validation
	switch r.To {
	case group.ResetEarliest, group.ResetLatest:
	case group.ResetTimestamp:
		if r.Timestamp.IsZero() {
			v.Add(portal.Missing("timestamp"))
		}
	case group.ResetOffset:
		if r.Offset == nil {
			v.Add(portal.Missing("offset"))
		} else if *r.Offset < 0 {
			v.Add(portal.Invalid("offset", "must not be negative"))
		}
	case "":
		v.Add(portal.Missing("to"))
	default:
		v.Add(portal.Invalid("to", "must be earliest, latest, timestamp or offset, not %q", r.To))
	}
	if err := v.Err(); err != nil {
		return group.ResetResult{}, s.refused(ctx, call, r, id, err)
	}
	g, err := s.group(ctx, call, id)
	if err != nil {
		return group.ResetResult{}, s.refused(ctx, call, r, id, err)
	}
	// Two people's resets of one group, on any replica, must not
	// interleave their reads and commits.
	unlock, err := s.guard.Lock(ctx, "consumer-group "+call.Env.Name()+" "+g.ID)
	if err != nil {
		return group.ResetResult{}, s.refused(ctx, call, r, g.ID, err)
	}
	defer unlock()
	if len(g.Members) > 0 {
		return group.ResetResult{}, s.refused(ctx, call, r, g.ID, activeMembers(g))
	}
	plan, err := s.plan(ctx, call, g, r)
	if err != nil {
		return group.ResetResult{}, s.refused(ctx, call, r, g.ID, err)
	}
	out := group.ResetResult{Group: g.ID, DryRun: r.DryRun, Changes: plan}
	if r.DryRun {
		return out, nil
	}
	offsets := make([]platform.GroupOffset, len(plan))
	changes := make([]trail.Change, len(plan))
	for i, c := range plan {
		offsets[i] = platform.GroupOffset{TopicPartition: platform.TopicPartition{Topic: c.Topic, Partition: c.Partition}, Offset: c.After}
		before := strconv.FormatInt(c.Before, 10)
		if c.Before < 0 {
			before = "none"
		}
		changes[i] = trail.Change{Field: fmt.Sprintf("%s[%d]", c.Topic, c.Partition), Before: before, After: strconv.FormatInt(c.After, 10)}
	}
	err = s.guard.Write(ctx, call, gate.Change{Event: portal.ActConsumerGroupResetOffsets, Resource: g.ID, Changes: changes,
		Do: func(ctx context.Context) error { return call.Env.Groups.CommitGroupOffsets(ctx, g.ID, offsets) }})
	if err != nil {
		return group.ResetResult{}, err
	}
	return out, nil
}

// refused audits a refused reset (not a dry run) and returns err.
func (s *Service) refused(ctx context.Context, call *gate.Call, r group.OffsetReset, id string, err error) error {
	if !r.DryRun {
		s.guard.Record(ctx, call, portal.ActConsumerGroupResetOffsets, id, err)
	}
	return err
}

// plan computes the new offsets of a reset.
func (s *Service) plan(ctx context.Context, call *gate.Call, g platform.Group, r group.OffsetReset) ([]group.OffsetChange, error) {
	committed, err := call.Env.Groups.GroupOffsets(ctx, []string{g.ID})
	if err != nil {
		return nil, err
	}
	before := map[platform.TopicPartition]int64{}
	var parts []platform.TopicPartition
	for _, o := range committed[g.ID] {
		if r.Topic == "" || o.Topic == r.Topic {
			before[o.TopicPartition] = o.Offset
			parts = append(parts, o.TopicPartition)
		}
	}
	if r.Topic != "" && len(parts) == 0 {
		// A topic the group has not read yet: every partition of it, if
		// the unit may see the topic.
		if !call.WholeCluster && !call.Scope.Owns(r.Topic) {
			e := portal.New(portal.InvalidParameter, "consumer group %s has no offsets on %s, which is not a topic of %s", g.ID, r.Topic, call.Scope)
			e.Field = "topic"
			return nil, e
		}
		d, err := call.Env.Topics.DescribeTopic(ctx, r.Topic)
		if err != nil {
			return nil, err
		}
		for _, p := range d.Partitions {
			tp := platform.TopicPartition{Topic: r.Topic, Partition: p.ID}
			before[tp] = -1
			parts = append(parts, tp)
		}
	}
	if len(parts) == 0 {
		return nil, portal.New(portal.Conflict, "consumer group %s has no committed offsets to reset; name a topic", g.ID)
	}
	earliest, latest, err := platform.Retained(ctx, call.Env.Groups, parts)
	if err != nil {
		return nil, err
	}
	target := map[platform.TopicPartition]int64{}
	switch r.To {
	case group.ResetEarliest:
		target = earliest
	case group.ResetLatest:
		target = latest
	case group.ResetTimestamp:
		if target, err = call.Env.Groups.Offsets(ctx, parts, platform.OffsetQuery{At: r.Timestamp}); err != nil {
			return nil, err
		}
	case group.ResetOffset:
		var v portal.Validation
		for _, tp := range parts {
			if *r.Offset < earliest[tp] || *r.Offset > latest[tp] {
				v.Add(portal.Invalid("offset", "%d is outside %s[%d], which holds offsets %d to %d", *r.Offset, tp.Topic, tp.Partition, earliest[tp], latest[tp]))
			}
			target[tp] = *r.Offset
		}
		if err := v.Err(); err != nil {
			return nil, err
		}
	}
	out := make([]group.OffsetChange, 0, len(parts))
	for _, tp := range parts {
		out = append(out, group.OffsetChange{Topic: tp.Topic, Partition: tp.Partition, Before: before[tp], After: target[tp]})
	}
	slices.SortFunc(out, func(a, b group.OffsetChange) int {
		if c := strings.Compare(a.Topic, b.Topic); c != 0 {
			return c
		}
		return a.Partition - b.Partition
	})
	return out, nil
}

// Observe records the positions a round read (Positions), from which the
// groups' lag in time is learnt.
func (s *Service) Observe(env *platform.Environment, committed map[string][]platform.GroupOffset, ends map[platform.TopicPartition]int64) {
	s.lag.observe(env, committed, ends)
}

// Lateness is how late a group is on a partition in time, from what was
// observed; unknown until the portal has seen it move.
func (s *Service) Lateness(env *platform.Environment, group string, o platform.GroupOffset, end int64) group.LagTime {
	return s.lag.estimate(env, group, o, end)
}
