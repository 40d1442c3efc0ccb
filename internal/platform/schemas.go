package platform

import (
	"context"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/schema"
)

// SchemaDef is a schema to register or check.
type SchemaDef struct {
	Type       string
	Schema     string
	References []portal.SchemaReference
}

// Schemas is the port to a Schema Registry. Errors are fault errors:
// NotFound, InvalidParameter (the schema does not parse), IncompatibleSchema.
type Schemas interface {
	// ListSchemas returns the versions of every subject starting with
	// prefix ("" for all), from one request; latestOnly keeps the latest.
	ListSchemas(ctx context.Context, prefix string, latestOnly bool) ([]schema.SchemaVersion, error)
	// GetSchema returns a version; version 0 means the latest.
	GetSchema(ctx context.Context, subject string, version int) (schema.SchemaVersion, error)
	Register(ctx context.Context, subject string, def SchemaDef) (schema.SchemaVersion, error)
	CheckCompatibility(ctx context.Context, subject string, def SchemaDef) (schema.Compatibility, error)
	DeleteVersion(ctx context.Context, subject string, version int, permanent bool) error
	// Compatibility is the compatibility level in force for a subject
	// (its own, or the registry's default).
	Compatibility(ctx context.Context, subject string) (string, error)
	// SchemaByID returns the schema a record's wire format names (type
	// and text; no subject). Errors: NotFound.
	SchemaByID(ctx context.Context, id int) (schema.SchemaVersion, error)
}
