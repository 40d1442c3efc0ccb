package schemas

import (
	"cmp"
	"context"
	"strings"

	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/guardrails/rules"
	"github.com/edh-platform/rms-portal/internal/platform"
)

// A subject as the platform's guardrails see it.

// schemaRule is a subject's version as policies see it, with the
// subject's compatibility level ("" when the registry does not say).
func schemaRule(ctx context.Context, call *gate.Call, subject string, def platform.SchemaDef) *rules.Schema {
	topic, typ := subject, ""
	for _, t := range []string{"key", "value"} {
		if cut, ok := strings.CutSuffix(subject, "-"+t); ok {
			topic, typ = cut, t
		}
	}
	level, _ := call.Env.Schemas.Compatibility(ctx, subject)
	return &rules.Schema{Subject: subject, Topic: topic, SubjectType: typ, SchemaType: cmp.Or(def.Type, "AVRO"), Compatibility: level, Schema: def.Schema}
}

// Holder reads the latest version of each of the unit's subjects for the
// guardrails: one list, and each subject's compatibility level.
func (s *Service) Holder() gate.Holder {
	return gate.HolderOf(rules.KindSchema, func(ctx context.Context, call *gate.Call) (map[string]any, error) {
		vs, err := call.Env.Schemas.ListSchemas(ctx, call.Scope.Prefix(), true)
		if err != nil {
			return nil, err
		}
		out := map[string]any{}
		for _, v := range vs {
			out[v.Subject] = schemaRule(ctx, call, v.Subject, platform.SchemaDef{Type: v.Type, Schema: v.Schema})
		}
		return out, nil
	})
}
