package wire

// CatalogEntry is a topic of the zone's catalog: its owner, metadata, fields and readers.
type CatalogEntry struct {
	Topic          string          `json:"topic" example:"edh-shared-scada-dev-orders"`
	Identifier     string          `json:"identifier" example:"orders"`
	Owner          string          `json:"owner" example:"scada" doc:"The unit that owns the topic."`
	Description    string          `json:"description"`
	Contact        string          `json:"owner_contact"`
	Tags           []string        `json:"tags"`
	Classification string          `json:"classification"`
	Classified     bool            `json:"classified" doc:"False when the owner has not classified it (the platform's default applies)."`
	Partitions     int             `json:"partitions"`
	RetentionMs    string          `json:"retention_ms,omitempty" doc:"One entry's detail only."`
	KeySubject     string          `json:"key_subject,omitempty"`
	ValueSubject   string          `json:"value_subject,omitempty"`
	Fields         []string        `json:"fields" doc:"Field names of the latest key and value schemas (lower case)."`
	Readers        []CatalogReader `json:"readers" doc:"Units with grants; in an entry's detail, consumer groups too."`
	UpdatedBy      string          `json:"updated_by,omitempty"`
	Updated        string          `json:"updated_at,omitempty" format:"date-time"`
	Editable       bool            `json:"editable" doc:"You may describe it."`
	MayAskWrite    bool            `json:"write_requests" doc:"Other units may ask for write access."`
	MaxGrant       string          `json:"max_grant" example:"90d"`
	Approvals      int             `json:"approvals"`
}

// CatalogReader is a unit that reads a catalog entry's topic.
type CatalogReader struct {
	Unit      string `json:"unit"`
	Grant     string `json:"grant,omitempty"`
	Access    string `json:"access,omitempty" enum:"read,write"`
	Principal string `json:"principal,omitempty"`
	Expires   string `json:"expires_at,omitempty" format:"date-time"`
	Group     string `json:"consumer_group,omitempty"`
	Members   int    `json:"members,omitempty"`
	Lag       int64  `json:"lag,omitempty" format:"int64"`
}

// Classification is one of the platform's topic classifications and its grant rules.
type Classification struct {
	Name      string `json:"name"`
	MaxGrant  string `json:"max_grant" example:"7d"`
	Write     bool   `json:"write_requests"`
	Approvals int    `json:"approvals"`
	Default   bool   `json:"default"`
}

// TopicMetadata is what a topic's owner says about it.
type TopicMetadata struct {
	Description    string   `json:"description" oa:"maxlen=2000"`
	Contact        string   `json:"owner_contact" oa:"maxlen=200" doc:"A team, mail address or channel."`
	Tags           []string `json:"tags" oa:"maxitems=20" pattern:"^[a-z0-9._-]{1,40}$"`
	Classification string   `json:"classification" doc:"One of the platform's classifications (GET /classifications); empty for the default."`
}

// ClassificationList is a page of Classification.
type ClassificationList = List[Classification]

// CatalogEntryList is a page of CatalogEntry.
type CatalogEntryList = List[CatalogEntry]
