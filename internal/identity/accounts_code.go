package identity

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/guardrails/rules"
	"github.com/edh-platform/rms-portal/internal/plans"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/ascode"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// AsCode is the service accounts' part of resources as code, with the
// API keys a document declares they should have (made through keys).
// Accounts are never pruned: deleting one deletes what its applications
// run with; nor are keys.
func (s *Accounts) AsCode(keys iam.APIKeyService) plans.Kind { return accountCode{s: s, keys: keys} }

type accountCode struct {
	s    *Accounts
	keys iam.APIKeyService
}

// observedAccounts are the organisation's accounts and, when the document
// declares keys, the resources each account has keys for in the stage.
type observedAccounts struct {
	accounts []platform.ServiceAccount
	keys     map[string][]platform.APIKey
}

func (accountCode) Kind() string          { return portal.KindServiceAccount }
func (accountCode) Action() access.Action { return access.ManageIdentity }
func (accountCode) Prunes() bool          { return false }

// Observe lists the organisation's accounts (one request, cached), and
// the stage's keys when the document declares any (one request for the
// cluster's, one for the registry's).
func (accountCode) Observe(ctx context.Context, call *gate.Call, declared []portal.Resource) (plans.Observed, error) {
	accounts, err := call.Env.IAM.ListServiceAccounts(ctx)
	if err != nil {
		return nil, err
	}
	obs := observedAccounts{accounts: accounts, keys: map[string][]platform.APIKey{}}
	if !slices.ContainsFunc(declared, func(r portal.Resource) bool {
		d := portal.DeclOf[portal.AccountDecl](r)
		return d != nil && len(d.APIKeys) > 0
	}) {
		return obs, nil
	}
	keys, err := call.Env.ListKeys(ctx)
	if err != nil {
		return nil, err
	}
	for _, k := range keys {
		obs.keys[k.Owner] = append(obs.keys[k.Owner], k)
	}
	return obs, nil
}

// Prune is never asked of accounts.
func (accountCode) Prune(*gate.Call, plans.Observed, map[string]bool) []*plans.Step { return nil }

// Export declares the unit's accounts that the portal made (they have a
// type).
func (k accountCode) Export(_ context.Context, call *gate.Call, o plans.Observed) ([]portal.Resource, error) {
	var out []portal.Resource
	for _, a := range o.(observedAccounts).accounts {
		v, ok := k.s.view(call, a)
		if !ok || v.Type == "" {
			continue // not made by the portal: no type to declare
		}
		out = append(out, portal.Resource{Kind: portal.KindServiceAccount, Name: v.Identifier, Description: v.Description,
			Spec: &portal.AccountDecl{Type: v.Type}})
	}
	return out, nil
}

// Plan plans a declared account: created when missing; an account keeps
// the description it was created with (a difference is a warning). A key
// it should have and has not is made at apply, its secret handed to the
// caller of the apply only.
func (k accountCode) Plan(_ context.Context, call *gate.Call, o plans.Observed, r portal.Resource) (*plans.Step, error) {
	s := k.s
	obs := o.(observedAccounts)
	st := &plans.Step{Change: ascode.PlannedChange{Kind: "service-account"}}
	scope := call.Named()
	d := portal.DeclOf[portal.AccountDecl](r)
	in := iam.NewServiceAccount{Name: s.guard.Tenancy().RebaseOrg(tenancy.OrgAccount, call.Scope.Unit, r.Name, d.Type), Type: d.Type, Description: strings.TrimSpace(r.Description)}
	var v portal.Validation
	name := s.check(call, in, "", &v)
	st.Change.Name, st.Key = name, "service-account/"+name
	var existing platform.ServiceAccount
	for _, a := range obs.accounts {
		if name != "" && a.DisplayName == name {
			existing = a
			st.State = a.ID + " " + a.Description
			if a.Description != in.Description {
				st.Change.Warnings = append(st.Change.Warnings, fmt.Sprintf("the account's description is %q: the portal keeps the description an account was created with", a.Description))
			}
		}
	}
	exists := existing.ID != ""
	if !exists {
		st.Diff("type", nil, plans.Ptr(in.Type))
		st.Diff("description", nil, plans.Ptr(in.Description))
	}
	missing := k.missingKeys(call, d.APIKeys, obs.keys[existing.ID], st, &v)
	st.Change.Errors = v.Problems
	if !exists && name != "" {
		rule := accountChange(call, rules.OpCreate, name, in.Description, nil)
		st.Rule = &rule
	}
	st.Do = func(ctx context.Context) error {
		id := existing.ID
		if !exists {
			a, err := s.Create(ctx, scope, in)
			if err != nil {
				return err
			}
			if a.Job != "" {
				return portal.New(portal.UpstreamTimeout, "service account %s is still being made by job %s; plan again once it is done", a.Name, a.Job)
			}
			id = a.ID
		}
		for _, res := range missing {
			key, err := k.keys.Create(ctx, scope, id, iam.NewAPIKey{Resource: res, Description: "declared in a document"})
			if err != nil {
				return fmt.Errorf("the %s key: %w", res, err)
			}
			st.Issued = append(st.Issued, key)
		}
		return nil
	}
	st.Decide(exists)
	return st, nil
}

// keysPlanned is what a plan shows for a key it will make.
const keysPlanned = "create key: the secret will be shown once at apply"

// missingKeys checks the declared keys and returns the resources the
// account has no key for yet (each a line of the diff); the keys it has
// are part of the state the plan is fingerprinted on.
func (k accountCode) missingKeys(call *gate.Call, declared []portal.KeyDecl, has []platform.APIKey, st *plans.Step, v *portal.Validation) []string {
	var missing []string
	seen := map[string]bool{}
	for i, d := range declared {
		field := fmt.Sprintf("apiKeys[%d].resource", i)
		id := ""
		switch d.Resource {
		case iam.KeyForKafka:
			id = call.Env.Scope.KafkaClusterID
		case iam.KeyForSchemaRegistry:
			if id = call.Env.Scope.SchemaRegistryID; id == "" {
				v.Add(portal.Invalid(field, "no Schema Registry is configured for %s", call.Env.Name()))
				continue
			}
		default:
			v.Add(portal.Invalid(field, "resource must be %s or %s, not %q", iam.KeyForKafka, iam.KeyForSchemaRegistry, d.Resource))
			continue
		}
		if seen[d.Resource] {
			v.Add(portal.Invalid(field, "a key for %s is declared twice", d.Resource))
			continue
		}
		seen[d.Resource] = true
		found := false
		for _, key := range has {
			if key.Resource == id {
				found = true
				st.State += " " + key.ID
			}
		}
		if !found {
			missing = append(missing, d.Resource)
			st.Diff("apiKeys."+d.Resource, nil, plans.Ptr(keysPlanned))
		}
	}
	return missing
}
