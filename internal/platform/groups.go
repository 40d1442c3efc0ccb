package platform

import (
	"context"
	"time"
)

// GroupState names a consumer group's state as Kafka reports it.
const (
	GroupEmpty  = "Empty"
	GroupStable = "Stable"
	GroupDead   = "Dead"
)

// Group is a consumer group as listed and described.
type Group struct {
	ID       string
	State    string
	Protocol string
	Simple   bool
	Members  []GroupMember
}

// GroupMember is one member of a group, with the partitions it holds.
type GroupMember struct {
	ID       string
	ClientID string
	Host     string
	Assigned []TopicPartition
}

// TopicPartition names one partition.
type TopicPartition struct {
	Topic     string
	Partition int
}

// GroupOffset is a group's committed offset on one partition.
type GroupOffset struct {
	TopicPartition
	Offset int64
}

// OffsetQuery asks for the offsets of partitions: the earliest, the
// latest, or the first at or after a time.
type OffsetQuery struct {
	Earliest bool
	// At, when set, asks for the first offset whose timestamp is at or
	// after it (the latest offset when there is none).
	At time.Time
}

// Groups administers a cluster's consumer groups.
type Groups interface {
	// ListGroups lists every consumer group of the cluster (one request
	// per broker).
	ListGroups(ctx context.Context) ([]Group, error)
	// DescribeGroups describes many groups in one batch, with members.
	DescribeGroups(ctx context.Context, ids []string) ([]Group, error)
	// GroupOffsets returns the committed offsets of many groups.
	GroupOffsets(ctx context.Context, ids []string) (map[string][]GroupOffset, error)
	// Offsets returns the offsets of many partitions in one request.
	Offsets(ctx context.Context, parts []TopicPartition, q OffsetQuery) (map[TopicPartition]int64, error)
	// CommitGroupOffsets sets a group's committed offsets; the group must
	// have no active member.
	CommitGroupOffsets(ctx context.Context, id string, offsets []GroupOffset) error
	// DeleteGroup deletes an empty group.
	DeleteGroup(ctx context.Context, id string) error
}

// Message is one record read from a topic.
type Message struct {
	Partition int
	Offset    int64
	Timestamp time.Time
	Key       []byte
	Value     []byte
	Headers   []Header
	// Truncated: the value was longer than the read's byte bound.
	Truncated bool
}

// Header is one record header.
type Header struct {
	Key   string
	Value []byte
}

// ReadRange is where a read starts in one partition and how many records
// it takes.
type ReadRange struct {
	Partition int
	From      int64
	Count     int
}

// Messages reads records without joining or committing any group, and
// writes records people send.
type Messages interface {
	// ReadMessages reads up to each range's count from its offset,
	// stopping at maxBytes in all or when ctx ends, whichever comes first.
	ReadMessages(ctx context.Context, topic string, ranges []ReadRange, maxBytes int) ([]Message, error)
	// Produce writes records in order and reports where each landed;
	// Partition -1 lets the partitioner choose. A record that was not
	// written has its Err set; the call's error is for a failure of
	// them all (the topic missing, the cluster unreachable).
	Produce(ctx context.Context, topic string, records []OutMessage) ([]Delivery, error)
}

// OutMessage is a record to write.
type OutMessage struct {
	Partition int
	Key       []byte
	Value     []byte
	Headers   []Header
}

// Delivery is where a record landed, or why it did not.
type Delivery struct {
	Partition int
	Offset    int64
	Err       error
}

// Retained gives the partitions' earliest and latest offsets: the records
// they keep lie between.
func Retained(ctx context.Context, g Groups, parts []TopicPartition) (earliest, latest map[TopicPartition]int64, err error) {
	if earliest, err = g.Offsets(ctx, parts, OffsetQuery{Earliest: true}); err != nil {
		return nil, nil, err
	}
	if latest, err = g.Offsets(ctx, parts, OffsetQuery{}); err != nil {
		return nil, nil, err
	}
	return earliest, latest, nil
}
