package identity

import (
	"context"
	"slices"
	"strings"

	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
)

// ensureAccount makes one bulk item true, whatever of it was made before:
// the account is created unless it exists (found by its display name),
// and given the role bindings of its type that it lacks. An account that
// existed before the job (existed) and has all of them is reported as
// existing, as a single create would; one with role bindings outside its
// type's template is not touched.
func (s *Accounts) ensureAccount(ctx context.Context, call *gate.Call, name string, in iam.NewServiceAccount,
	byName map[string]platform.ServiceAccount, existed bool, w *gate.Write) (iam.ServiceAccount, string, error) {
	want := BindingsFor(in.Type, call.Scope.Prefix())
	a, found := byName[name]
	if !found {
		// Not in the list read when the run began; a resumed item may
		// have been created since by the replica that died.
		if err := call.Pace(ctx); err != nil {
			return iam.ServiceAccount{}, "", err
		}
		all, err := call.Env.IAM.ListServiceAccounts(ctx)
		if err != nil {
			return iam.ServiceAccount{}, "", err
		}
		i := slices.IndexFunc(all, func(x platform.ServiceAccount) bool { return x.DisplayName == name })
		if found = i >= 0; found {
			a = all[i]
		}
	}
	outcome := iam.BulkCreated
	var have []iam.RoleBinding
	if found {
		w.Rename(name + " (" + a.ID + ")")
		var err error
		if have, err = call.Env.IAM.RoleBindings(ctx, "User:"+a.ID); err != nil {
			return iam.ServiceAccount{}, "", err
		}
		missing, extra := diffBindings(want, have)
		switch {
		case existed && len(extra) > 0:
			return iam.ServiceAccount{}, "", portal.New(portal.AlreadyExists,
				"service account %s already exists (%s) with role bindings outside its type's template; it was not changed", name, a.ID)
		case existed && len(missing) == 0:
			return iam.ServiceAccount{}, "", portal.New(portal.AlreadyExists, "service account %s already exists (%s)", name, a.ID)
		case existed:
			outcome = iam.BulkCompleted
		}
	} else {
		created, err := s.createAccount(ctx, call, w, name, in.Description)
		if err != nil {
			return iam.ServiceAccount{}, "", err
		}
		a = created
		w.Rename(name + " (" + a.ID + ")")
	}
	v, _ := s.view(call, a)
	missing, _ := diffBindings(want, have)
	made, err := createBindings(ctx, call, "User:"+a.ID, missing)
	if err != nil {
		if found {
			return iam.ServiceAccount{}, "", portal.Wrap(err, bindingFailure(err),
				"service account %s (%s) lacks %d of its type's role bindings; %d were added before this failed: %s. Send the batch again to complete it",
				name, a.ID, len(missing), len(made), portal.FirstMessage(err))
		}
		return iam.ServiceAccount{}, "", rollback(ctx, call, a.ID, made, err, "service account", func(id string) error {
			return call.Env.IAM.DeleteServiceAccount(ctx, id)
		})
	}
	v.RoleBindings = append(slices.Clone(have), made...)
	sortBindings(v.RoleBindings)
	return v, outcome, nil
}

// diffBindings compares a template with what a principal has.
func diffBindings(want, have []iam.RoleBinding) (missing, extra []iam.RoleBinding) {
	key := func(b iam.RoleBinding) string { return strings.Join([]string{b.Role, b.Resource, b.Pattern}, "|") }
	has := map[string]bool{}
	for _, b := range have {
		has[key(b)] = true
	}
	wanted := map[string]bool{}
	for _, b := range want {
		wanted[key(b)] = true
		if !has[key(b)] {
			missing = append(missing, b)
		}
	}
	for _, b := range have {
		if !wanted[key(b)] {
			extra = append(extra, b)
		}
	}
	return missing, extra
}

// createBindings makes role bindings, stopping at the first failure; one
// that exists already (made meanwhile) counts as made.
func createBindings(ctx context.Context, call *gate.Call, principal string, bs []iam.RoleBinding) ([]iam.RoleBinding, error) {
	var made []iam.RoleBinding
	for _, b := range bs {
		if err := call.Pace(ctx); err != nil {
			return made, err
		}
		nb, err := call.Env.IAM.CreateRoleBinding(ctx, principal, b)
		if portal.Is(err, portal.AlreadyExists) {
			continue
		}
		if err != nil {
			return made, bindingError(b, err)
		}
		made = append(made, nb)
	}
	return made, nil
}

// bindingFailure is the kind of a failed role binding as the caller
// sees it: bad input of the portal's own is an outage of the platform's.
func bindingFailure(err error) portal.Kind {
	if k := portal.KindOf(err); !k.IsValidation() && k != portal.Internal {
		return k
	}
	return portal.UpstreamUnavailable
}
