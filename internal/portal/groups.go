package portal

import (
	"context"
	"time"
)

// ConsumerGroup is a consumer group of a business unit as listed.
type ConsumerGroup struct {
	// ID is the group id; Identifier is it without the unit's prefix.
	ID         string
	Identifier string
	// BusinessUnit owns the group by the naming convention ("" when none
	// does); set in whole-cluster views.
	BusinessUnit string
	// State is Stable, Empty, PreparingRebalance, CompletingRebalance,
	// Dead or Unknown, as Kafka reports it.
	State    string
	Protocol string
	Members  int
	// Lag is the total over the partitions with a committed offset.
	Lag int64
	// Topics are the topics the group has committed offsets on.
	Topics []string
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
}

// GroupService manages a unit's consumer groups: those whose id carries
// the unit's prefix. Reading needs any role; resets and deletes need
// Developer (not in read-only stages, where Admins bypass).
type GroupService interface {
	// List returns the unit's groups with state, members and total lag,
	// from one round of requests. Errors: NotFound (unit, stage).
	List(ctx context.Context, scope Scope, q ListQuery) (Page[ConsumerGroup], error)
	// Get returns one group. Errors: NotFound.
	Get(ctx context.Context, scope Scope, id string) (GroupDetail, error)
	// ResetOffsets moves the group's offsets. Errors: Conflict (active
	// members), InvalidParameter, InsufficientRole, ReadOnlyEnvironment.
	ResetOffsets(ctx context.Context, scope Scope, id string, r OffsetReset) (ResetResult, error)
	// Delete deletes an empty group. Errors: Conflict, NotFound.
	Delete(ctx context.Context, scope Scope, id string) error
	// Consumers lists the unit's groups that consume a topic.
	Consumers(ctx context.Context, scope Scope, topic string) ([]TopicConsumer, error)
}

// MessageQuery selects records to read: the latest Limit (at most
// MaxMessages), or from an offset or a time, in one partition or all.
type MessageQuery struct {
	Limit     int
	Partition *int
	Offset    *int64
	Timestamp time.Time
}

// MaxMessages bounds one read.
const MaxMessages = 100

// Encodings of a browsed key or value.
const (
	EncodingText = "text"
	EncodingHex  = "hex"
	EncodingAvro = "avro"
	EncodingJSON = "json"
	EncodingNone = "null"
)

// BrowsedMessage is a record as people read it: the key and value decoded
// (with the Schema Registry schema they name, as UTF-8 text, or hex).
type BrowsedMessage struct {
	Partition     int
	Offset        int64
	Timestamp     time.Time
	Key           string
	KeyEncoding   string
	Value         string
	ValueEncoding string
	// SchemaID is the Schema Registry id the value named (0 for none).
	SchemaID  int
	Headers   []MessageHeader
	Truncated bool
	// DecodeError says why a value that named a schema stayed undecoded.
	DecodeError string
}

// MessageHeader is one record header, as text or hex.
type MessageHeader struct {
	Key      string
	Value    string
	Encoding string
}

// MessageService reads a topic's records. Whether anyone may is a
// per-stage switch (data_access: off, developers, viewers); every read is
// audited (who read which range, not the data).
type MessageService interface {
	// Read errors: DataAccessDisabled, InsufficientRole, NotFound,
	// InvalidParameter.
	Read(ctx context.Context, scope Scope, topic string, q MessageQuery) ([]BrowsedMessage, error)
	// Produce writes records by hand, allowed per stage by its produce
	// switch (off, developers, admins) and audited with the partitions,
	// offsets and sizes, never the data. Every record is checked first: a
	// problem in one refuses them all, with the record's field. Errors:
	// DataAccessDisabled, InsufficientRole, ReadOnlyEnvironment,
	// NotFound, InvalidParameter.
	Produce(ctx context.Context, scope Scope, topic string, req ProduceRequest) (ProduceResult, error)
}
