package schemareg

import (
	"context"
	"net/http"
	"net/url"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/schema"
	"github.com/edh-platform/rms-portal/internal/upstream"
)

// The exported methods run every request through the registry's upstream
// (circuit breaker, health, metrics); the unexported ones do the work.

// costly are the calls whose time follows what the caller sends or asks
// for (a schema of any size, every subject of a registry): their timeout
// is the caller's, not a sign that the registry is unwell.
var costly = map[string]bool{"register": true, "check_compatibility": true, "list_schemas": true}

func (r *Registry) call(ctx context.Context, op string, fn func(ctx context.Context) error) error {
	guarded := func(ctx context.Context) error {
		err := fn(ctx)
		if costly[op] && portal.Is(err, portal.UpstreamTimeout) {
			err = upstream.Answered(err)
		}
		return err
	}
	if r.up == nil {
		return guarded(ctx)
	}
	return r.up.Call(ctx, op, guarded)
}

// ListSchemas returns the versions of every subject starting with prefix
// ("" for all), from one request; latestOnly keeps the latest.
func (r *Registry) ListSchemas(ctx context.Context, prefix string, latestOnly bool) (out []schema.SchemaVersion, err error) {
	err = r.call(ctx, "list_schemas", func(ctx context.Context) error {
		out, err = r.listSchemas(ctx, prefix, latestOnly)
		return err
	})
	return out, err
}

// GetSchema returns a version; version 0 means the latest.
func (r *Registry) GetSchema(ctx context.Context, subject string, version int) (v schema.SchemaVersion, err error) {
	err = r.call(ctx, "get_schema", func(ctx context.Context) error {
		v, err = r.getSchema(ctx, subject, version)
		return err
	})
	return v, err
}

// Register registers a schema under a subject.
func (r *Registry) Register(ctx context.Context, subject string, def platform.SchemaDef) (v schema.SchemaVersion, err error) {
	err = r.call(ctx, "register", func(ctx context.Context) error {
		v, err = r.register(ctx, subject, def)
		return err
	})
	return v, err
}

// CheckCompatibility tells whether a schema could be the subject's next version.
func (r *Registry) CheckCompatibility(ctx context.Context, subject string, def platform.SchemaDef) (c schema.Compatibility, err error) {
	err = r.call(ctx, "check_compatibility", func(ctx context.Context) error {
		c, err = r.checkCompatibility(ctx, subject, def)
		return err
	})
	return c, err
}

// Compatibility reads GET /config/{subject}?defaultToGlobal=true: the
// subject's level, or the registry's when it has none.
func (r *Registry) Compatibility(ctx context.Context, subject string) (level string, err error) {
	err = r.call(ctx, "get_config", func(ctx context.Context) error {
		var out struct {
			CompatibilityLevel string `json:"compatibilityLevel"`
		}
		if err := r.raw(ctx, http.MethodGet, "/config/"+url.PathEscape(subject)+"?defaultToGlobal=true", nil, &out); err != nil {
			return r.translate(err, subject)
		}
		level = out.CompatibilityLevel
		return nil
	})
	return level, err
}

// DeleteVersion deletes a version, softly or for good.
func (r *Registry) DeleteVersion(ctx context.Context, subject string, version int, permanent bool) error {
	return r.call(ctx, "delete_version", func(ctx context.Context) error { return r.deleteVersion(ctx, subject, version, permanent) })
}

// SchemaByID returns a schema by its global id.
func (r *Registry) SchemaByID(ctx context.Context, id int) (v schema.SchemaVersion, err error) {
	err = r.call(ctx, "schema_by_id", func(ctx context.Context) error {
		v, err = r.schemaByID(ctx, id)
		return err
	})
	return v, err
}
