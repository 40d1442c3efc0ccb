package wire

// SchemaItem is one version of a subject in a list.
type SchemaItem struct {
	Subject    string `json:"subject" example:"edh-shared-scada-dev-readings-value"`
	Version    int    `json:"version"`
	ID         int    `json:"id"`
	SchemaType string `json:"schema_type" enum:"AVRO,JSON,PROTOBUF"`
}

// SchemaReference is a schema another one refers to.
type SchemaReference struct {
	Name    string `json:"name" oa:"required" example:"scada.Money"`
	Subject string `json:"subject" oa:"required" doc:"Identifier or full name of the referenced subject."`
	Version int    `json:"version" oa:"required"`
}

// Schema is one version of a subject with its text.
type Schema struct {
	SchemaItem
	Schema     string            `json:"schema"`
	References []SchemaReference `json:"references"`
}

// SchemaUpdate is a new version of a subject, or one to check.
type SchemaUpdate struct {
	SchemaType string            `json:"schema_type" enum:"AVRO,JSON" doc:"Defaults to the subject's current type."`
	Schema     string            "json:\"schema\" oa:\"required\" doc:\"The schema text; a parser error is a 400 on `schema`.\""
	References []SchemaReference `json:"references"`
}

// SchemaCreate asks for a topic's key or value subject.
type SchemaCreate struct {
	Topic       string            `json:"topic" oa:"required" doc:"Identifier or full topic name."`
	SubjectType string            `json:"subject_type" oa:"required" enum:"key,value"`
	SchemaType  string            `json:"schema_type" oa:"required" enum:"AVRO,JSON"`
	Schema      string            "json:\"schema\" oa:\"required\" doc:\"The schema text; a parser error is a 400 on `schema`.\""
	References  []SchemaReference `json:"references"`
}

// Compatibility is whether a schema could be the subject's next version.
type Compatibility struct {
	Compatible bool     `json:"compatible"`
	Messages   []string `json:"messages"`
	Level      string   `json:"compatibility_level" example:"BACKWARD"`
}

// SchemaList is a page of SchemaItem.
type SchemaList = List[SchemaItem]

// SchemaVersionList is a page of Schema.
type SchemaVersionList = List[Schema]
