package portal

// KindSchema is the schema (a subject) as documents and policies name it.
const KindSchema = "Schema"

// The schema's actions, with the past tenses that name their CloudEvents
// (schemaKind lists them).
var (
	ActSchemaCreate  = Action{"schema.create", "created"}
	ActSchemaVersion = Action{"schema.version", "versioned"}
	ActSchemaDelete  = Action{"schema.delete", "deleted"}
)

// schemaKind declares the schema (a subject): see KindInfo.
var schemaKind = KindInfo{
	Document: KindSchema, Change: "schema", Title: "Schema", Titles: "Schemas",
	Plural: "schemas", Item: "schema", Readable: true, Aliases: []string{"subject", "subjects"},
	Columns: []string{"subject", "version", "id", "schema_type"},
	Nav:     4, Icon: "document",
	Decl: (*SchemaDecl)(nil), Policy: KindSchema, PolicyView: (*SchemaView)(nil),
	About: "A Schema Registry subject of the unit, named <topic>-key or <topic>-value; its latest version is the schema given.",
	Verbs: []Action{ActSchemaCreate, ActSchemaVersion, ActSchemaDelete},
}

// SchemaDecl is a subject's desired latest version. The subject is the
// resource's name, "{topic}-key" or "{topic}-value"; Topic and SubjectType
// may repeat it and must agree. SchemaFile is resolved by the client into
// Schema before the document is sent.
type SchemaDecl struct {
	Topic       string
	SubjectType string
	SchemaType  string
	Schema      string
	SchemaFile  string
	References  []SchemaReference
}

// SchemaReference names a schema that another one uses.
type SchemaReference struct {
	Name    string
	Subject string
	Version int
}

// SchemaView is a subject's new version as policies see it.
type SchemaView struct {
	Subject       string `cel:"subject" json:"subject"`
	Topic         string `cel:"topic" json:"topic"`
	SubjectType   string `cel:"subject_type" json:"subject_type"`
	SchemaType    string `cel:"schema_type" json:"schema_type"`
	Compatibility string `cel:"compatibility" json:"compatibility"`
	Schema        string `cel:"schema" json:"schema"`
}
