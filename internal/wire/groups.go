package wire

// ConsumerGroup is a consumer group of the unit with its lag.
type ConsumerGroup struct {
	ID           string   `json:"id" example:"edh-shared-scada-dev-billing"`
	Identifier   string   `json:"identifier" example:"billing"`
	BusinessUnit string   `json:"business_unit,omitempty"`
	State        string   `json:"state" enum:"Stable,Empty,PreparingRebalance,CompletingRebalance,Dead,Unknown"`
	Protocol     string   `json:"protocol" example:"range"`
	Members      int      `json:"members"`
	Lag          int64    `json:"lag" format:"int64" doc:"Total over the partitions with a committed offset."`
	Topics       []string `json:"topics"`
	// LagTime is the group's latest partition's.
	LagTime LagTime `json:"lag_time"`
}

// LagTime is a lag in time: the oldest record not consumed is
// age_seconds old (at least that, with at_least); the group catches up in
// catch_up_seconds, or is falling_behind. Null values are not known yet.
type LagTime struct {
	AgeSeconds     *float64 `json:"age_seconds"`
	AtLeast        bool     `json:"at_least,omitempty" doc:"The record is older than the portal's history reaches; age_seconds is a lower bound."`
	CatchUpSeconds *float64 `json:"catch_up_seconds" doc:"At the pace of the last 5 minutes, less the pace of writes."`
	FallingBehind  bool     `json:"falling_behind,omitempty" doc:"The group consumes slower than records come."`
}

// ConsumerGroupDetail is a consumer group with its members and partitions.
type ConsumerGroupDetail struct {
	ConsumerGroup
	MemberList []GroupMember    `json:"member_list"`
	Partitions []GroupPartition `json:"partitions"`
}

// GroupMember is one member of a consumer group.
type GroupMember struct {
	ID         string   `json:"id"`
	ClientID   string   `json:"client_id"`
	Host       string   `json:"host"`
	Partitions []string `json:"partitions"`
}

// GroupPartition is a consumer group's position on one partition.
type GroupPartition struct {
	Topic     string `json:"topic"`
	Partition int    `json:"partition"`
	Committed int64  `json:"committed_offset" format:"int64"`
	End       int64  `json:"end_offset" format:"int64"`
	Lag       int64  `json:"lag" format:"int64"`
	Member    string `json:"member,omitempty" doc:"The client id of the member that holds the partition."`
	// LagTime is the group's lag in time on the partition.
	LagTime LagTime `json:"lag_time"`
}

// Record is one record read from a topic.
type Record struct {
	Partition     int            `json:"partition"`
	Offset        int64          `json:"offset" format:"int64"`
	Timestamp     string         `json:"timestamp" format:"date-time"`
	Key           *string        `json:"key"`
	KeyEncoding   string         `json:"key_encoding" enum:"text,hex,null"`
	Value         *string        `json:"value"`
	ValueEncoding string         `json:"value_encoding" enum:"text,hex,avro,json,null"`
	SchemaID      int            `json:"schema_id,omitempty"`
	Headers       []RecordHeader `json:"headers"`
	Truncated     bool           `json:"truncated,omitempty" doc:"The key or value was longer than 64 KiB and is cut."`
	DecodeError   string         `json:"decode_error,omitempty"`
	// MaskedFields are the value's fields whose content is masked.
	MaskedFields []string `json:"masked_fields,omitempty" doc:"Fields of the value whose content is masked (\"customer.email\", \"items[].note\"): the schema tags them (confluent:tags, one of masking.tags), the stage masks (stages[].masking: tags) and your role on the unit is below masking.unmasked_role. A masked value keeps its type and the class of its length, never its content."`
	// ValueMasked says the value is masked whole.
	ValueMasked bool `json:"value_masked,omitempty" doc:"The value is masked whole: it is not in the Schema Registry's format (plain text, JSON without a registered schema), so masking cannot tell which of it is sensitive (stages[].masking_unclassified: mask, the default; refuse refuses such reads). Its encoding and the class of its length are kept, never its content."`
}

// RecordHeader is one header of a record read.
type RecordHeader struct {
	Key      string `json:"key"`
	Value    string `json:"value"`
	Encoding string `json:"encoding" enum:"text,hex,null"`
}

// OffsetReset is what an offset reset did, or with dry_run would do.
type OffsetReset struct {
	Group   string         `json:"group"`
	DryRun  bool           `json:"dry_run"`
	Changes []OffsetChange `json:"changes"`
}

// OffsetChange is one partition's committed offset before and after a reset.
type OffsetChange struct {
	Topic     string `json:"topic"`
	Partition int    `json:"partition"`
	Before    *int64 `json:"before" format:"int64" doc:"Null when nothing was committed."`
	After     int64  `json:"after" format:"int64"`
}

// RecordPage is one read of a topic's records.
type RecordPage struct {
	Items   []Record `json:"items"`
	Scanned int      `json:"scanned" doc:"Records looked at."`
	// After is where a tail continues: ?after= on the next read.
	After string `json:"after" doc:"The partitions' end offsets when read: ?after= continues from here."`
}

// OffsetResetRequest moves a group's committed offsets.
type OffsetResetRequest struct {
	Topic     string `json:"topic" doc:"Omitted for every topic the group has offsets on."`
	To        string `json:"to" oa:"required" enum:"earliest,latest,timestamp,offset"`
	Timestamp string `json:"timestamp" format:"date-time"`
	Offset    *int64 `json:"offset,omitempty" oa:"min=0" format:"int64"`
}

// ConsumerGroupList is a page of ConsumerGroup.
type ConsumerGroupList = List[ConsumerGroup]
