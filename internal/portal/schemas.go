package portal

import "context"

// Schema types.
const (
	SchemaAvro     = "AVRO"
	SchemaJSON     = "JSON"
	SchemaProtobuf = "PROTOBUF"
)

// SchemaReference names a schema that another one uses.
type SchemaReference struct {
	Name    string
	Subject string
	Version int
}

// SchemaVersion is one registered version of a subject.
type SchemaVersion struct {
	Subject string
	// BusinessUnit owns the subject by the naming convention ("" when
	// none does); set by lists, shown in whole-cluster views.
	BU         string
	Version    int
	ID         int
	Type       string
	Schema     string
	References []SchemaReference
}

// Compatibility is the outcome of a compatibility check.
type Compatibility struct {
	Compatible bool
	Messages   []string
	Level      string
}

// SchemaDef is a schema's type, text and references, as callers send it.
type SchemaDef struct {
	SchemaType string
	Schema     string
	References []SchemaReference
}

// NewSchema is the input of Create: the subject follows the
// TopicNameStrategy, "{topic}-key" or "{topic}-value".
type NewSchema struct {
	Topic       string
	SubjectType string
	SchemaDef
}

// SchemaService manages a business unit's Schema Registry subjects.
// Writes need the Developer role and a writable stage.
type SchemaService interface {
	// List returns the latest version of each subject, or every version.
	List(ctx context.Context, scope Scope, latestOnly bool, q ListQuery) (Page[SchemaVersion], error)
	// Impact lists what depends on a subject: the schemas referencing it,
	// its topic and the groups reading that. Errors: NotFound.
	Impact(ctx context.Context, scope Scope, subject string) (Impact, error)
	// Get returns a version ("latest" or a number). Errors: NotFound,
	// InvalidParameter.
	Get(ctx context.Context, scope Scope, subject, version string) (SchemaVersion, error)
	// Versions returns every version of a subject, oldest first.
	Versions(ctx context.Context, scope Scope, subject string) ([]SchemaVersion, error)
	// Create registers a new subject. Errors: AlreadyExists,
	// InvalidParameter (the schema does not parse), MissingParameter.
	Create(ctx context.Context, scope Scope, in NewSchema) (SchemaVersion, error)
	// Update registers a new version. Errors: IncompatibleSchema (with
	// the reasons), NotFound, InvalidParameter.
	Update(ctx context.Context, scope Scope, subject string, in SchemaDef) (SchemaVersion, error)
	// Check tells whether a schema could be the next version; read-only.
	Check(ctx context.Context, scope Scope, subject string, in SchemaDef) (Compatibility, error)
	// Delete deletes a version softly, or for good once soft-deleted.
	Delete(ctx context.Context, scope Scope, subject, version string, permanent bool) error
}

// The schema's actions; its KindInfo declares their past tenses.
var (
	ActSchemaCreate  = Action{"schema.create", "created"}
	ActSchemaVersion = Action{"schema.version", "versioned"}
	ActSchemaDelete  = Action{"schema.delete", "deleted"}
)
