// Package topic is the contract of topics: lists, details, their links to
// connectors and subjects, and changes.
package topic

import (
	"context"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/schema"
)

// Topic limits.
const (
	MinPartitions = 1
	MaxPartitions = 100
)

// Topic is a topic as a list shows it.
type Topic struct {
	Name string
	// Identifier is the name without its scope prefix.
	Identifier string
	// BusinessUnit owns the topic by the naming convention; empty when the
	// topic is outside the convention (only a whole-cluster view shows those).
	BU                string
	Partitions        int
	OutsideConvention bool
	// Stats are set in lists that ask for them (ListQuery.Stats), nil
	// when the cluster did not give them.
	Stats *TopicStats
}

// TopicStats are a listed topic's size and life, from the page's batched
// requests.
type TopicStats struct {
	// Records is the latest minus the earliest offsets over the
	// partitions (records retained, counting compacted gaps).
	Records int64
	// RetentionMs is retention.ms in force ("-1" keeps forever);
	// CleanupPolicy is cleanup.policy (delete, compact or both).
	RetentionMs   string
	CleanupPolicy string
}

// Partition describes one partition of a topic.
type Partition struct {
	ID       int
	Leader   int
	Replicas []int
	ISR      []int
}

// TopicDetail is a topic with its settings.
type TopicDetail struct {
	Topic
	ReplicationFactor int
	// Config holds the settings overridden on the topic.
	Config map[string]string
	// Defaults holds every other setting with its inherited value; only
	// filled when asked for.
	Defaults      map[string]string
	PartitionList []Partition
	// Version changes whenever the partition count or an override does:
	// the ETag of reads, the If-Match of writes.
	Version string
}

// NewTopic is the input of Create.
type NewTopic struct {
	Name       string
	Partitions *int
	Config     map[string]string
}

// TopicState is the input of Replace: the desired partition count and the
// full set of overrides of editable settings.
type TopicState struct {
	Partitions *int
	Config     map[string]string
	// ConfigGiven distinguishes an absent config from an empty one.
	ConfigGiven bool
	// IfMatch, when set, refuses the change unless the topic is still at
	// that version (PreconditionFailed).
	IfMatch portal.IfMatch
}

// TopicPatch is the input of Patch: a nil value resets a setting.
type TopicPatch struct {
	Partitions *int
	Config     map[string]*string
	IfMatch    portal.IfMatch
}

// TopicService manages a business unit's Kafka topics. Names may be given
// as identifiers or full names; a Super Admin viewing the main unit of a
// shared landing zone sees and addresses the whole cluster.
type TopicService interface {
	// Links returns the unit's connectors and schema subjects of a topic,
	// from one list of each. Errors: NotFound, InvalidParameter.
	Links(ctx context.Context, scope portal.Scope, name string) (TopicLinks, error)
	// List returns one page of the unit's topics. Errors: InvalidParameter
	// (page_size, page_token, search).
	List(ctx context.Context, scope portal.Scope, q portal.ListQuery) (portal.Page[Topic], error)
	// Get returns a topic with its overrides, and with every inherited
	// setting when includeDefaults is set. Errors: NotFound, InvalidParameter.
	Get(ctx context.Context, scope portal.Scope, name string, includeDefaults bool) (TopicDetail, error)
	// Create creates a topic named by the convention. Errors:
	// InsufficientRole, ReadOnlyEnvironment, MissingParameter and
	// InvalidParameter (one per field), AlreadyExists.
	Create(ctx context.Context, scope portal.Scope, in NewTopic) (TopicDetail, error)
	// Replace sets the partition count and the full set of overrides,
	// as a whole with respect to every other change of the topic (on any
	// replica). Errors: as Create, NotFound, PreconditionFailed (IfMatch).
	Replace(ctx context.Context, scope portal.Scope, name string, in TopicState) (TopicDetail, error)
	// Patch merges changes: given settings are set, nil ones reset.
	// Errors: as Replace.
	Patch(ctx context.Context, scope portal.Scope, name string, in TopicPatch) (TopicDetail, error)
	// Delete deletes a topic and its data. With live dependants (Impact)
	// only an Admin deletes it, naming it and a reason. Errors:
	// InsufficientRole, ReadOnlyEnvironment, NotFound, PreconditionFailed
	// (IfMatch), Conflict (live dependants, no name or reason: each
	// dependant a problem of the record).
	Delete(ctx context.Context, scope portal.Scope, name string, opt portal.DeleteOptions) error
	// Impact lists what depends on a topic: consumer groups reading it
	// (by unit), other units' grants, connectors naming it, its subjects.
	// Errors: NotFound.
	Impact(ctx context.Context, scope portal.Scope, name string) (portal.Impact, error)
}

// TopicLinks are what else in the unit works with a topic: the connectors
// that write it (sources) or read it (sinks), and its schema subjects.
// Each part says why it is missing when its upstream cannot answer.
type TopicLinks struct {
	Connectors            []LinkedConnector
	ConnectorsUnavailable string
	Subjects              []schema.SchemaVersion
	SubjectsUnavailable   string
}

// LinkedConnector is a connector that names a topic in its configuration.
type LinkedConnector struct {
	Name       string
	Identifier string
	// Type is "source" (writes the topic) or "sink" (reads it).
	Type  string
	State string
}
