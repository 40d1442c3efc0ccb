// Package schemas is the Schema Registry subjects service: versions,
// compatibility, references, the impact of a delete, and their part of
// resources as code.
package schemas

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/guardrails/rules"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/schema"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// Service manages a business unit's Schema Registry subjects.
type Service struct {
	guard *gate.Guard
}

// New returns the schema service.
func New(g *gate.Guard) *Service { return &Service{guard: g} }

// schemaKey orders versions by subject, then version, for paging.
func schemaKey(v schema.SchemaVersion) string {
	return fmt.Sprintf("%s@%010d", v.Subject, v.Version)
}

// List returns the unit's subjects: the latest version of each, or every
// version, from one request.
func (s *Service) List(ctx context.Context, scope portal.Scope, latestOnly bool, q portal.ListQuery) (portal.Page[schema.SchemaVersion], error) {
	ctx, call, err := s.guard.Enter(ctx, scope, access.Read, "list schemas")
	if err != nil {
		return portal.Page[schema.SchemaVersion]{}, err
	}
	prefix := call.Scope.Prefix()
	if call.WholeCluster {
		prefix = ""
	}
	all, err := call.Env.Schemas.ListSchemas(ctx, prefix, latestOnly)
	if err != nil {
		return portal.Page[schema.SchemaVersion]{}, err
	}
	kept := make([]schema.SchemaVersion, 0, len(all))
	for _, v := range all {
		if v.BU = call.Owner(v.Subject, "").Unit; call.KeepUnit(q, v.BU) {
			kept = append(kept, v)
		}
	}
	return gate.Paginate(s.guard.Pages(), "schemas "+call.Scope.String(), kept, schemaKey, q)
}

// Get returns one version of a subject ("latest" or a number).
func (s *Service) Get(ctx context.Context, scope portal.Scope, subject, version string) (schema.SchemaVersion, error) {
	ctx, call, err := s.guard.Enter(ctx, scope, access.Read, "read schemas")
	if err != nil {
		return schema.SchemaVersion{}, err
	}
	full, err := call.Subject(subject)
	if err != nil {
		return schema.SchemaVersion{}, err
	}
	n, err := portal.ParseSchemaVersion(version)
	if err != nil {
		return schema.SchemaVersion{}, err
	}
	return call.Env.Schemas.GetSchema(ctx, full, n)
}

// Versions returns every version of one subject, oldest first.
func (s *Service) Versions(ctx context.Context, scope portal.Scope, subject string) ([]schema.SchemaVersion, error) {
	ctx, call, err := s.guard.Enter(ctx, scope, access.Read, "read schemas")
	if err != nil {
		return nil, err
	}
	full, err := call.Subject(subject)
	if err != nil {
		return nil, err
	}
	all, err := call.Env.Schemas.ListSchemas(ctx, full, false)
	if err != nil {
		return nil, err
	}
	var out []schema.SchemaVersion
	for _, v := range all {
		if v.Subject == full {
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		return nil, portal.New(portal.NotFound, "subject %s not found", full)
	}
	return out, nil
}

// checkDef validates a schema definition before anything goes upstream.
func (s *Service) checkDef(call *gate.Call, d *schema.SchemaDef, v *portal.Validation, defaultType string) platform.SchemaDef {
	if d.SchemaType == "" {
		d.SchemaType = defaultType
	}
	switch strings.ToUpper(d.SchemaType) {
	case "":
		v.Add(portal.Missing("schema_type"))
	case schema.SchemaAvro, schema.SchemaJSON:
		d.SchemaType = strings.ToUpper(d.SchemaType)
	case schema.SchemaProtobuf:
		v.Add(portal.Invalid("schema_type", "PROTOBUF schemas are not supported yet; use AVRO or JSON"))
	default:
		v.Add(portal.Invalid("schema_type", "schema_type must be AVRO or JSON, not %q", d.SchemaType))
	}
	if strings.TrimSpace(d.Schema) == "" {
		v.Add(portal.Missing("schema"))
	}
	def := platform.SchemaDef{Type: d.SchemaType, Schema: d.Schema}
	for i, r := range d.References {
		field := fmt.Sprintf("references[%d]", i)
		switch {
		case r.Name == "" || r.Subject == "":
			v.Add(portal.Invalid(field, "a reference needs a name, a subject and a version"))
			continue
		case r.Version < 1:
			v.Add(portal.Invalid(field+".version", "version must be 1 or more"))
		}
		sub := r.Subject
		if !call.WholeCluster {
			sub = call.Scope.Qualify(r.Subject)
		}
		def.References = append(def.References, portal.SchemaReference{Name: r.Name, Subject: sub, Version: r.Version})
	}
	return def
}

// Create registers the first version of a topic's key or value subject.
func (s *Service) Create(ctx context.Context, scope portal.Scope, in schema.NewSchema) (schema.SchemaVersion, error) {
	return gate.Writing(ctx, s.guard, scope, access.Write, "register schemas", portal.ActSchemaCreate, in.Topic+"-"+in.SubjectType, func(ctx context.Context, call *gate.Call) (_ schema.SchemaVersion, err error) {
		var v portal.Validation
		topic := ""
		switch {
		case !gate.Identifier(&v, "topic", "topic", in.Topic):
		case call.WholeCluster && !strings.HasPrefix(tenancy.Normalise(in.Topic), call.Scope.Prefix()):
			topic = tenancy.Normalise(in.Topic)
		default:
			topic = call.Scope.Qualify(in.Topic)
		}
		switch in.SubjectType {
		case "key", "value":
		case "":
			v.Add(portal.Missing("subject_type"))
		default:
			v.Add(portal.Invalid("subject_type", "subject_type must be key or value, not %q", in.SubjectType))
		}
		def := s.checkDef(call, &in.SchemaDef, &v, "")
		if err := v.Err(); err != nil {
			return schema.SchemaVersion{}, err
		}
		subject := tenancy.SubjectName(topic, in.SubjectType)
		// Identical creates on any replica give one 201 and 409s (the
		// registry itself answers every one of them with the same version).
		unlock, err := s.guard.Lock(ctx, "subject "+call.Env.Name()+" "+subject)
		if err != nil {
			return schema.SchemaVersion{}, err
		}
		defer unlock()
		if cur, err := call.Env.Schemas.GetSchema(ctx, subject, 0); err == nil {
			return schema.SchemaVersion{}, portal.New(portal.AlreadyExists,
				"subject %s already exists (latest version %d); register a new version with PUT", subject, cur.Version)
		} else if !portal.Is(err, portal.NotFound) {
			return schema.SchemaVersion{}, err
		}
		var out schema.SchemaVersion
		ch := s.register(call, subject, def, &out)
		ch.Event, ch.Rule = portal.ActSchemaCreate, rules.NewChange(rules.KindSchema, rules.OpCreate, subject, schemaRule(ctx, call, subject, def), nil)
		err = s.guard.Write(ctx, call, ch)
		return out, err
	})
}

// Update registers a new version of an existing subject; the registry
// checks compatibility, and an incompatible schema is refused with why.
func (s *Service) Update(ctx context.Context, scope portal.Scope, subject string, in schema.SchemaDef) (schema.SchemaVersion, error) {
	return gate.Writing(ctx, s.guard, scope, access.Write, "register schemas", portal.ActSchemaVersion, subject, func(ctx context.Context, call *gate.Call) (_ schema.SchemaVersion, err error) {
		full, def, err := s.prepareVersion(ctx, call, subject, in)
		if err != nil {
			return schema.SchemaVersion{}, err
		}
		if err := s.checkVersion(ctx, call, portal.ActSchemaVersion, rules.OpUpdate, full, &def, 0); err != nil {
			return schema.SchemaVersion{}, err
		}
		var out schema.SchemaVersion
		ch := s.register(call, full, def, &out)
		ch.Event = portal.ActSchemaVersion
		err = s.guard.Write(ctx, call, ch)
		return out, err
	})
}

// prepareVersion resolves an existing subject and checks a new version's
// definition; the type defaults to the subject's current one.
func (s *Service) prepareVersion(ctx context.Context, call *gate.Call, subject string, in schema.SchemaDef) (string, platform.SchemaDef, error) {
	full, err := call.Subject(subject)
	if err != nil {
		return "", platform.SchemaDef{}, err
	}
	cur, err := call.Env.Schemas.GetSchema(ctx, full, 0)
	if err != nil {
		return "", platform.SchemaDef{}, err
	}
	var v portal.Validation
	def := s.checkDef(call, &in, &v, cur.Type)
	return full, def, v.Err()
}

// Check tells whether a schema could be registered as the subject's next
// version, and why not; it changes nothing.
func (s *Service) Check(ctx context.Context, scope portal.Scope, subject string, in schema.SchemaDef) (schema.Compatibility, error) {
	ctx, call, err := s.guard.Enter(ctx, scope, access.Read, "check schemas")
	if err != nil {
		return schema.Compatibility{}, err
	}
	full, def, err := s.prepareVersion(ctx, call, subject, in)
	if err != nil {
		return schema.Compatibility{}, err
	}
	return call.Env.Schemas.CheckCompatibility(ctx, full, def)
}

// Delete deletes a version: softly, or for good (permanent) once it was
// soft-deleted, as the registry requires.
func (s *Service) Delete(ctx context.Context, scope portal.Scope, subject, version string, permanent bool) error {
	return s.guard.Writing(ctx, scope, access.Write, "delete schemas", portal.ActSchemaDelete, subject+"/"+version, func(ctx context.Context, call *gate.Call) (err error) {
		full, err := call.Subject(subject)
		if err != nil {
			return err
		}
		n, err := portal.ParseSchemaVersion(version)
		if err != nil {
			return err
		}
		if n == 0 {
			cur, err := call.Env.Schemas.GetSchema(ctx, full, 0)
			if err != nil {
				return err
			}
			n = cur.Version
		}
		if err := s.checkVersion(ctx, call, portal.ActSchemaDelete, rules.OpDelete, full, nil, n); err != nil {
			return err
		}
		return s.guard.Write(ctx, call, gate.Change{Event: portal.ActSchemaDelete, Resource: fmt.Sprintf("%s/%d", full, n),
			Do: func(ctx context.Context) error { return call.Env.Schemas.DeleteVersion(ctx, full, n, permanent) }})
	})
}

// checkVersion has the guardrails judge a new version (def) of an
// existing subject against its latest version, or the delete (def nil)
// of a version (a soft-deleted one, deleted for good, is judged by its
// subject alone: the registry no longer shows it).
func (s *Service) checkVersion(ctx context.Context, call *gate.Call, event portal.Action, op, subject string, def *platform.SchemaDef, version int) error {
	if s.guard.Rules() == nil {
		return nil
	}
	cur, err := call.Env.Schemas.GetSchema(ctx, subject, version)
	if err != nil && !(def == nil && portal.Is(err, portal.NotFound)) {
		return err
	}
	before := schemaRule(ctx, call, subject, platform.SchemaDef{Type: cur.Type, Schema: cur.Schema})
	var after *rules.Schema
	if def != nil {
		a := *before
		a.SchemaType, a.Schema = cmp.Or(def.Type, before.SchemaType), def.Schema
		after = &a
	}
	return s.guard.Check(ctx, call, event, rules.NewChange(rules.KindSchema, op, subject, after, before))
}

// register is the change that registers def under subject, confirmed by
// the subject's latest version when the registry did not answer in time;
// out is what was registered.
func (s *Service) register(call *gate.Call, subject string, def platform.SchemaDef, out *schema.SchemaVersion) gate.Change {
	return gate.Change{Resource: subject,
		Do: func(ctx context.Context) error {
			v, err := call.Env.Schemas.Register(ctx, subject, def)
			*out = v
			return err
		},
		Confirm: &gate.Confirmation{What: "the schema was registered under " + subject, How: "GET the subject's latest version to see",
			Check: func(ctx context.Context) (bool, error) {
				latest, err := call.Env.Schemas.GetSchema(ctx, subject, 0)
				if err == nil && latest.Schema == def.Schema {
					*out = latest
					return true, nil
				}
				return false, err
			}},
	}
}

// Service implements the contract of the front doors.
var _ schema.SchemaService = (*Service)(nil)
