package platform

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

// SchemaDef is a schema to register or check.
type SchemaDef struct {
	Type       string
	Schema     string
	References []SchemaReference
}

// SchemaVersion is one registered version of a subject.
type SchemaVersion struct {
	Subject    string
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

// Schemas is the port to a Schema Registry. Errors are fault errors:
// NotFound, InvalidParameter (the schema does not parse), IncompatibleSchema.
type Schemas interface {
	// ListSchemas returns the versions of every subject starting with
	// prefix ("" for all), from one request; latestOnly keeps the latest.
	ListSchemas(ctx context.Context, prefix string, latestOnly bool) ([]SchemaVersion, error)
	// GetSchema returns a version; version 0 means the latest.
	GetSchema(ctx context.Context, subject string, version int) (SchemaVersion, error)
	Register(ctx context.Context, subject string, def SchemaDef) (SchemaVersion, error)
	CheckCompatibility(ctx context.Context, subject string, def SchemaDef) (Compatibility, error)
	DeleteVersion(ctx context.Context, subject string, version int, permanent bool) error
}
