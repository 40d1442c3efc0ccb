// Package topiccatalog is the contract of the topic catalog: what a topic
// holds, described for other units to find.
package topiccatalog

import (
	"context"
	"strconv"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// CatalogEntry is one topic of the zone as the catalog shows it: what
// its owner unit says about it, what the cluster and the registry say,
// and who reads it. Records stay behind the data-access switch.
type CatalogEntry struct {
	// Topic is the full name; Identifier the name in its owner unit.
	Topic, Identifier string
	// Owner is the unit that owns the topic.
	Owner       string
	Description string
	// Contact is who to ask about the topic.
	Contact string
	Tags    []string
	// Classification is the topic's (the platform's default when its
	// owner has not classified it: Classified is false then).
	Classification string
	Classified     bool
	Partitions     int
	// RetentionMs is retention.ms in force (an entry's detail only).
	RetentionMs string
	// KeySubject and ValueSubject are the topic's subjects that exist;
	// Fields the field names of their latest schemas.
	KeySubject, ValueSubject string
	Fields                   []string
	// Readers are the units with grants on the topic and, in an entry's
	// detail, the consumer groups that read it.
	Readers   []CatalogReader
	UpdatedBy string
	Updated   time.Time
	// Editable: the caller may describe the topic (a Developer or above
	// of its owner unit). MayAskWrite: the classification lets other
	// units ask for write access. MaxGrant and Approvals are what a
	// grant on it lasts at most and needs.
	Editable    bool
	MayAskWrite bool
	MaxGrant    time.Duration
	Approvals   int
}

// CatalogReader is a unit that reads a topic: through a grant, or with a
// consumer group that has committed offsets on it.
type CatalogReader struct {
	Unit string
	// Grant, Access, Principal and Expires describe a grant (Expires
	// zero: it does not expire).
	Grant, Access, Principal string
	Expires                  time.Time
	// Group, Members and Lag describe a consumer group.
	Group   string
	Members int
	Lag     int64
}

// CatalogQuery searches the catalog: Search (ListQuery's) matches the
// name, description, contact, tags, owner and field names; the others
// keep entries with a tag, a classification, an owner unit (or a
// contact containing it) or a schema field name.
type CatalogQuery struct {
	portal.ListQuery
	Tag, Classification, Owner, Field string
}

// CatalogService is the zone's catalog of topics.
type CatalogService interface {
	// Catalog lists one page of the zone's topics in the scope's stage.
	// Errors: InvalidParameter.
	Catalog(ctx context.Context, scope portal.Scope, q CatalogQuery) (portal.Page[CatalogEntry], error)
	// Entry is one topic with its retention and its readers (consumer
	// groups too). Errors: NotFound.
	Entry(ctx context.Context, scope portal.Scope, topic string) (CatalogEntry, error)
	// Describe replaces what the owner unit says about its topic.
	// Errors: InsufficientRole, ReadOnlyEnvironment, Validation, NotFound.
	Describe(ctx context.Context, scope portal.Scope, topic string, in portal.TopicMetadata) (CatalogEntry, error)
	// Classifications are the platform's, least strict first.
	Classifications() []portal.Classification
}

// FormatDuration writes a duration as people and requests give it, in
// its largest whole unit: days ("7d"), hours ("36h"), minutes ("90m"),
// else as Go writes durations ("1m30s").
func FormatDuration(d time.Duration) string {
	switch {
	case d <= 0:
		return d.String()
	case d%(24*time.Hour) == 0:
		return strconv.Itoa(int(d/(24*time.Hour))) + "d"
	case d%time.Hour == 0:
		return strconv.Itoa(int(d/time.Hour)) + "h"
	case d%time.Minute == 0:
		return strconv.Itoa(int(d/time.Minute)) + "m"
	}
	return d.String()
}
