package apikeys

import (
	"context"
	"math"
	"time"

	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/guardrails/rules"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// keyRule is an API key as policies see it (never its secret); expires
// zero is a key without an end.
func keyRule(env *platform.Environment, a platform.ServiceAccount, resourceID, description string, created, expires time.Time) *rules.APIKey {
	k := &rules.APIKey{Owner: a.DisplayName, OwnerID: a.ID, Resource: env.KeyResource(resourceID), Description: description}
	if !expires.IsZero() {
		k.MaxAgeHours = int(math.Ceil(expires.Sub(created).Hours()))
	}
	return k
}

// Holder reads the keys of the unit's service accounts for the
// guardrails: one list of accounts, one of keys per resource.
func (s *Service) Holder() gate.Holder {
	return gate.HolderOf(rules.KindAPIKey, func(ctx context.Context, call *gate.Call) (map[string]any, error) {
		keys, owners, err := envKeys(ctx, call)
		if err != nil {
			return nil, err
		}
		out := map[string]any{}
		for _, k := range keys {
			a, ok := owners[k.Owner]
			if !ok {
				continue
			}
			if o, ok := call.OrgOwner(tenancy.OrgAccount, a.DisplayName); ok && o.Unit() == call.Scope.Unit.ID {
				out[k.ID] = keyRule(call.Env, a, k.Resource, k.Description, time.Time{}, time.Time{})
			}
		}
		return out, nil
	})
}
