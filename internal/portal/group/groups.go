// Package group is the contract of consumer groups: their members and lag,
// offset resets, deletion, and the groups that read a topic.
package group

import (
	"context"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// ConsumerGroup is a consumer group of a business unit as listed.
type ConsumerGroup struct {
	// ID is the group id; Identifier is it without the unit's prefix.
	ID         string
	Identifier string
	// BusinessUnit owns the group by the naming convention ("" when none
	// does); set in whole-cluster views.
	BU string
	// State is Stable, Empty, PreparingRebalance, CompletingRebalance,
	// Dead or Unknown, as Kafka reports it.
	State    string
	Protocol string
	Members  int
	// Lag is the total over the partitions with a committed offset.
	Lag int64
	// Topics are the topics the group has committed offsets on.
	Topics []string
	// Late is the lag in time of the group's latest partition.
	Late LagTime
}

// LagTime is how late a group is in time on a partition (or, for a group,
// on its latest partition): the age of the oldest record it has not
// consumed, and when it catches up at its recent pace. The portal learns
// both from offsets it sees over time, so a group seen for the first time
// has neither yet.
type LagTime struct {
	// Known: Age is known; AtLeast: the record is older than what the
	// portal has seen (Age is a lower bound).
	Known   bool
	Age     time.Duration
	AtLeast bool
	// CatchUpKnown: the paces are known; then Falling says the group
	// consumes slower than records come, else CatchUp is the time left.
	CatchUpKnown bool
	CatchUp      time.Duration
	Falling      bool
}

// GroupMember is one member of a group.
type GroupMember struct {
	ID       string
	ClientID string
	Host     string
	// Partitions are "topic[partition]" strings, sorted.
	Partitions []string
}

// GroupPartition is a group's position on one partition.
type GroupPartition struct {
	Topic     string
	Partition int
	// Committed is the committed offset (-1 when none).
	Committed int64
	End       int64
	Lag       int64
	// Member is the client id of the member that holds the partition.
	Member string
	Late   LagTime
}

// GroupDetail is one group with its members and positions.
type GroupDetail struct {
	ConsumerGroup
	MemberList []GroupMember
	Partitions []GroupPartition
}

// Reset targets.
const (
	ResetEarliest  = "earliest"
	ResetLatest    = "latest"
	ResetTimestamp = "timestamp"
	ResetOffset    = "offset"
)

// OffsetReset moves a group's committed offsets on one topic (or, with
// Topic empty, on every topic it has offsets on).
type OffsetReset struct {
	Topic     string
	To        string
	Timestamp time.Time
	Offset    *int64
	// DryRun computes the new offsets without committing them.
	DryRun bool
}

// OffsetChange is one partition's committed offset before and after.
type OffsetChange struct {
	Topic     string
	Partition int
	// Before is -1 when the group had committed nothing there.
	Before int64
	After  int64
}

// ResetResult is what a reset did, or would do.
type ResetResult struct {
	Group   string
	DryRun  bool
	Changes []OffsetChange
}

// TopicConsumer is a group that consumes a topic, with its lag there.
type TopicConsumer struct {
	Group   string
	State   string
	Members int
	Lag     int64
	Late    LagTime
}

// GroupService manages a unit's consumer groups: those whose id carries
// the unit's prefix. Reading needs any role; resets and deletes need
// Developer (not in read-only stages, where Admins bypass).
type GroupService interface {
	// List returns the unit's groups with state, members and total lag,
	// from one round of requests. Errors: NotFound (unit, stage).
	List(ctx context.Context, scope portal.Scope, q portal.ListQuery) (portal.Page[ConsumerGroup], error)
	// Get returns one group. Errors: NotFound.
	Get(ctx context.Context, scope portal.Scope, id string) (GroupDetail, error)
	// ResetOffsets moves the group's offsets. Errors: Conflict (active
	// members), InvalidParameter, InsufficientRole, ReadOnlyEnvironment.
	ResetOffsets(ctx context.Context, scope portal.Scope, id string, r OffsetReset) (ResetResult, error)
	// Delete deletes an empty group. Errors: Conflict, NotFound.
	Delete(ctx context.Context, scope portal.Scope, id string) error
	// Consumers lists the unit's groups that consume a topic.
	Consumers(ctx context.Context, scope portal.Scope, topic string) ([]TopicConsumer, error)
}
