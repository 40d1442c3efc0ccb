package portal

import "time"

// KindTopic is the topic as documents and policies name it.
const KindTopic = "Topic"

// The topic's actions, with the past tenses that name their CloudEvents
// (topicKind lists them).
var (
	ActTopicCreate      = Action{"topic.create", "created"}
	ActTopicUpdate      = Action{"topic.update", "updated"}
	ActTopicConfig      = Action{"topic.config", "configured"}
	ActTopicPartitions  = Action{"topic.partitions", "repartitioned"}
	ActTopicDelete      = Action{"topic.delete", "deleted"}
	ActTopicDescribe    = Action{"topic.describe", "described"}
	ActTopicProduce     = Action{"topic.produce", "produced"}
	ActTopicReadRecords = Action{"topic.read-records", "read-records"}
)

// topicKind declares the topic: see KindInfo.
var topicKind = KindInfo{
	Document: KindTopic, Change: "topic", Title: "Topic", Titles: "Topics",
	Plural: "topics", Item: "topic", Readable: true,
	Columns: []string{"name", "partitions_count"},
	Nav:     1, Icon: "topics",
	Decl: (*TopicDecl)(nil), Policy: KindTopic, PolicyView: (*TopicView)(nil),
	About: "A Kafka topic of the unit.",
	Verbs: []Action{ActTopicCreate, ActTopicUpdate, ActTopicConfig, ActTopicPartitions, ActTopicDelete, ActTopicDescribe, ActTopicProduce, ActTopicReadRecords},
}

// TopicDecl is a topic's desired state: Config is the full set of
// overrides of editable settings (others are reset). Nil Partitions keeps
// the current count (1 for a new topic).
type TopicDecl struct {
	Partitions *int
	Config     map[string]string
	// Catalog is what the owner says about the topic in the zone's
	// catalog, replaced whole; nil when the document says nothing of it
	// (the entry is left as it is).
	Catalog *TopicMetadata
}

// TopicMetadata is what an owner says about a topic (each field replaced
// whole).
type TopicMetadata struct {
	Description    string
	Contact        string
	Tags           []string
	Classification string
}

// Classification is a data classification as the platform configures
// it.
type Classification struct {
	Name      string
	MaxGrant  time.Duration
	Write     bool
	Approvals int
	Default   bool
}

// TopicView is a topic as policies see it (resource and before).
type TopicView struct {
	// Name is the full name upstream; Identifier the name within the unit.
	Name       string            `cel:"name" json:"name"`
	Identifier string            `cel:"identifier" json:"identifier"`
	Partitions int               `cel:"partitions" json:"partitions"`
	Config     map[string]string `cel:"config" json:"config"`
}
