package schemas

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/guardrails/rules"
	"github.com/edh-platform/rms-portal/internal/plans"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/ascode"
	"github.com/edh-platform/rms-portal/internal/portal/schema"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// AsCode is the schemas' part of resources as code. Subjects are never
// pruned: their versions are history.
func (s *Service) AsCode() plans.Kind { return schemaCode{s} }

type schemaCode struct{ s *Service }

func (schemaCode) Kind() string          { return portal.KindSchema }
func (schemaCode) Action() access.Action { return access.Write }
func (schemaCode) Prunes() bool          { return false }

// Observe reads the latest version of each of the unit's subjects.
func (schemaCode) Observe(ctx context.Context, call *gate.Call, _ []portal.Resource) (plans.Observed, error) {
	latest, err := call.Env.Schemas.ListSchemas(ctx, call.Scope.Prefix(), true)
	if err != nil {
		return nil, err
	}
	out := map[string]schema.SchemaVersion{}
	for _, v := range latest {
		out[v.Subject] = v
	}
	return out, nil
}

// Prune is never asked of schemas.
func (schemaCode) Prune(*gate.Call, plans.Observed, map[string]bool) []*plans.Step { return nil }

// Export declares the latest version of each subject, references by
// identifier.
func (schemaCode) Export(_ context.Context, call *gate.Call, o plans.Observed) ([]portal.Resource, error) {
	schemas := o.(map[string]schema.SchemaVersion)
	var out []portal.Resource
	for _, subject := range slices.Sorted(maps.Keys(schemas)) {
		v := schemas[subject]
		decl := &portal.SchemaDecl{SchemaType: v.Type, Schema: v.Schema}
		for _, r := range v.References {
			r.Subject = call.Scope.Identifier(r.Subject)
			decl.References = append(decl.References, r)
		}
		out = append(out, portal.Resource{Kind: portal.KindSchema, Name: call.Scope.Identifier(subject), Spec: decl})
	}
	return out, nil
}

// Plan plans a declared subject: a new subject, or a new version when the
// schema differs, checked for compatibility by the registry.
func (k schemaCode) Plan(ctx context.Context, call *gate.Call, o plans.Observed, r portal.Resource) (*plans.Step, error) {
	s, schemas := k.s, o.(map[string]schema.SchemaVersion)
	st := &plans.Step{Change: ascode.PlannedChange{Kind: "schema"}}
	scope := call.Named()
	d := portal.DeclOf[portal.SchemaDecl](r)
	var v portal.Validation
	name := tenancy.Normalise(s.guard.Tenancy().Rebase(call.Scope.Unit, r.Name))
	nameTopic, namePart := "", ""
	for _, part := range []string{"key", "value"} {
		if t, ok := strings.CutSuffix(name, "-"+part); ok {
			nameTopic, namePart = t, part
		}
	}
	topic, part := nameTopic, namePart
	if d.Topic != "" {
		topic = tenancy.Normalise(s.guard.Tenancy().Rebase(call.Scope.Unit, d.Topic))
	}
	if d.SubjectType != "" {
		part = d.SubjectType
	}
	switch {
	case part != "key" && part != "value" && d.SubjectType != "":
		v.Add(portal.Invalid("subject_type", "subjectType must be key or value, not %q", d.SubjectType))
	case part == "" || topic == "":
		v.Add(portal.Invalid("name", "name the subject <topic>-key or <topic>-value (the TopicNameStrategy), or give spec.topic and spec.subjectType"))
	case nameTopic != "" && (nameTopic != topic || namePart != part):
		v.Add(portal.Invalid("name", "metadata.name %s and the subject %s-%s of spec.topic and spec.subjectType disagree", r.Name, topic, part))
	}
	fullTopic := ""
	if topic != "" && gate.Identifier(&v, "topic", "topic", topic) {
		fullTopic = call.Scope.Qualify(topic)
	}
	if d.SchemaFile != "" && d.Schema == "" {
		v.Add(portal.Invalid("schemaFile", "schemaFile is read by the client (portalctl reads it next to the document); send the schema's text in schema"))
	}
	subject := tenancy.SubjectName(fullTopic, part)
	st.Change.Name, st.Key = subject, "schema/"+subject
	if fullTopic != "" {
		st.Needs = []string{"topic/" + fullTopic}
	}
	cur, exists := schemas[subject]
	defaultType := schema.SchemaAvro
	if exists {
		defaultType = cur.Type
	}
	def := schema.SchemaDef{SchemaType: d.SchemaType, Schema: d.Schema}
	for _, ref := range d.References {
		ref.Subject = tenancy.Normalise(s.guard.Tenancy().Rebase(call.Scope.Unit, ref.Subject))
		def.References = append(def.References, ref)
	}
	want := s.checkDef(call, &def, &v, defaultType)
	if exists {
		st.State = fmt.Sprint(cur.ID, "/", cur.Version)
		st.Diff("schemaType", plans.Ptr(cur.Type), plans.Ptr(want.Type))
		if !sameSchema(cur.Schema, want.Schema) {
			st.Diff("schema", plans.Ptr(cur.Schema), plans.Ptr(want.Schema))
		}
		st.Diff("references", plans.Ptr(refsText(cur.References)), plans.Ptr(refsText(want.References)))
		if len(st.Change.Diff) > 0 && len(v.Problems) == 0 {
			st.Diff("version", plans.Ptr(strconv.Itoa(cur.Version)), plans.Ptr(strconv.Itoa(cur.Version+1)))
			compat, err := call.Env.Schemas.CheckCompatibility(ctx, subject, want)
			if err != nil && !portal.KindOf(err).IsValidation() {
				return nil, err
			}
			if err != nil {
				for _, p := range portal.Problems(err) {
					v.Add(p)
				}
			} else if !compat.Compatible {
				e := portal.New(portal.IncompatibleSchema, "the schema is not compatible with version %d of %s (%s): %s",
					cur.Version, subject, cmp.Or(compat.Level, "the subject's level"), strings.Join(compat.Messages, "; "))
				e.Field = "schema"
				v.Add(e)
			}
		}
	} else {
		st.Diff("schemaType", nil, plans.Ptr(want.Type))
		st.Diff("schema", nil, plans.Ptr(want.Schema))
		if len(want.References) > 0 {
			st.Diff("references", nil, plans.Ptr(refsText(want.References)))
		}
	}
	st.Change.Errors = v.Problems
	if s.guard.Rules() != nil && subject != "" && (!exists || len(st.Change.Diff) > 0) {
		rule := rules.NewChange(rules.KindSchema, "", subject, schemaRule(ctx, call, subject, want), nil)
		if exists {
			rule.Before = schemaRule(ctx, call, subject, platform.SchemaDef{Type: cur.Type, Schema: cur.Schema})
		}
		st.Rule = &rule
	}
	st.Do = func(ctx context.Context) error {
		if !exists {
			_, err := s.Create(ctx, scope, schema.NewSchema{Topic: fullTopic, SubjectType: part, SchemaDef: def})
			return err
		}
		_, err := s.Update(ctx, scope, subject, def)
		return err
	}
	st.Decide(exists)
	return st, nil
}

// sameSchema compares schema texts as JSON when both are (the registry may
// store them without the original's spacing).
func sameSchema(a, b string) bool {
	var ca, cb bytes.Buffer
	if json.Compact(&ca, []byte(a)) == nil && json.Compact(&cb, []byte(b)) == nil {
		return ca.String() == cb.String()
	}
	return strings.TrimSpace(a) == strings.TrimSpace(b)
}
func refsText(refs []portal.SchemaReference) string {
	parts := make([]string, len(refs))
	for i, r := range refs {
		parts[i] = fmt.Sprintf("%s=%s/%d", r.Name, r.Subject, r.Version)
	}
	return strings.Join(parts, ", ")
}
