// Package schema is the contract of schemas: subjects, their versions and
// compatibility checks.
package schema

import (
	"context"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// Schema types.
const (
	SchemaAvro     = "AVRO"
	SchemaJSON     = "JSON"
	SchemaProtobuf = "PROTOBUF"
)

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
	References []portal.SchemaReference
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
	References []portal.SchemaReference
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
	List(ctx context.Context, scope portal.Scope, latestOnly bool, q portal.ListQuery) (portal.Page[SchemaVersion], error)
	// Impact lists what depends on a subject: the schemas referencing it,
	// its topic and the groups reading that. Errors: NotFound.
	Impact(ctx context.Context, scope portal.Scope, subject string) (portal.Impact, error)
	// Get returns a version ("latest" or a number). Errors: NotFound,
	// InvalidParameter.
	Get(ctx context.Context, scope portal.Scope, subject, version string) (SchemaVersion, error)
	// Versions returns every version of a subject, oldest first.
	Versions(ctx context.Context, scope portal.Scope, subject string) ([]SchemaVersion, error)
	// Create registers a new subject. Errors: AlreadyExists,
	// InvalidParameter (the schema does not parse), MissingParameter.
	Create(ctx context.Context, scope portal.Scope, in NewSchema) (SchemaVersion, error)
	// Update registers a new version. Errors: IncompatibleSchema (with
	// the reasons), NotFound, InvalidParameter.
	Update(ctx context.Context, scope portal.Scope, subject string, in SchemaDef) (SchemaVersion, error)
	// Check tells whether a schema could be the next version; read-only.
	Check(ctx context.Context, scope portal.Scope, subject string, in SchemaDef) (Compatibility, error)
	// Delete deletes a version softly, or for good once soft-deleted.
	Delete(ctx context.Context, scope portal.Scope, subject, version string, permanent bool) error
}
