package wire

import "encoding/json"

// Topic is a topic in a list.
type Topic struct {
	Name              string `json:"name" example:"edh-shared-scada-dev-crm-orders"`
	Identifier        string `json:"identifier" example:"crm-orders" doc:"The name without its scope prefix."`
	BusinessUnit      string `json:"business_unit,omitempty" example:"scada" doc:"Owner by the naming convention; absent when outside it."`
	PartitionsCount   int    `json:"partitions_count" example:"6"`
	OutsideConvention bool   `json:"outside_convention"`
	// Stats with ?stats=true.
	Records       *int64 `json:"records,omitempty" format:"int64" doc:"With stats: the latest minus the earliest offsets over the partitions."`
	RetentionMs   string `json:"retention_ms,omitempty" example:"604800000" doc:"With stats: retention.ms in force (-1 keeps forever)."`
	CleanupPolicy string `json:"cleanup_policy,omitempty" example:"delete" doc:"With stats: cleanup.policy in force."`
}

// TopicDetail is one topic with its settings.
type TopicDetail struct {
	Topic
	ReplicationFactor int               `json:"replication_factor"`
	Config            TopicConfig       `json:"config"`
	Defaults          map[string]string `json:"defaults,omitempty"`
	Partitions        []TopicPartition  `json:"partitions"`
}

// TopicPartition is one partition of a topic.
type TopicPartition struct {
	Partition int   `json:"partition"`
	Leader    int   `json:"leader"`
	Replicas  []int `json:"replicas"`
	ISR       []int `json:"isr"`
}

// TopicCreate asks for a topic.
type TopicCreate struct {
	Name            string      `json:"name" oa:"required" example:"crm_orders" doc:"Identifier (or full name) of the topic."`
	PartitionsCount *int        `json:"partitions_count" oa:"min=1,max=100,default=1"`
	Config          TopicConfig `json:"config"`
}

// TopicReplace is the desired state. Fields that GET returns but
// that cannot be set are accepted and ignored, so a GET response can be
// edited and sent back.
type TopicReplace struct {
	PartitionsCount *int        `json:"partitions_count" oa:"required,min=1,max=100" doc:"May only grow."`
	Config          TopicConfig `json:"config" oa:"required"`

	Name              json.RawMessage `json:"name" oa:"readonly"`
	Identifier        json.RawMessage `json:"identifier" oa:"readonly"`
	BusinessUnit      json.RawMessage `json:"business_unit" oa:"readonly"`
	OutsideConvention json.RawMessage `json:"outside_convention" oa:"readonly"`
	ReplicationFactor json.RawMessage `json:"replication_factor" oa:"readonly"`
	Defaults          json.RawMessage `json:"defaults" oa:"readonly"`
	Partitions        json.RawMessage `json:"partitions" oa:"readonly"`
}

// TopicPatch changes some of a topic's settings; a null setting returns to the default.
type TopicPatch struct {
	PartitionsCount *int               `json:"partitions_count" oa:"min=1,max=100" doc:"May only grow."`
	Config          map[string]*string "json:\"config\" doc:\"Settings to set; `null` resets a setting to its default.\""
}

// TopicConfig is a topic's setting overrides; values are strings.
type TopicConfig map[string]string

// TopicList is a page of Topic.
type TopicList = List[Topic]
