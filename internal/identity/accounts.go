// Package identity is the services of who connects to a unit's resources:
// service accounts (one by one and in bulk jobs) with the role bindings
// of their type and identity pools with their filters, with their parts
// of resources as code. Their API keys are internal/apikeys'.
package identity

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/guardrails/rules"
	"github.com/edh-platform/rms-portal/internal/jobs"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
	"github.com/edh-platform/rms-portal/internal/store"
	"github.com/edh-platform/rms-portal/internal/tenancy"
	"github.com/edh-platform/rms-portal/internal/upstream"
)

// Limits of service accounts, as Confluent Cloud sets them.
const (
	maxDisplayName = 64
	maxDescription = 128
	// MaxBulk bounds the items of one bulk create.
	MaxBulk = iam.MaxBulkAccounts
)

// Accounts manages a business unit's service accounts. Only Admins
// and Super Admins change them; every role of the unit reads them.
type Accounts struct {
	guard    *gate.Guard
	jobs     *jobs.Runner
	jobStore JobStore
	keys     store.APIKeyRecords
	// grants are the zone's grants (an account's dependants), which
	// endGrants ends ahead of the account's delete.
	grants    store.ZoneGrants
	endGrants GrantEnder
}

// AccountStore is what the service accounts keep in the store: bulk
// jobs, and the records of the keys an account's delete removes.
type AccountStore interface {
	JobStore
	store.APIKeyRecords
}

// NewAccounts returns the service account service; bulk creates
// run as jobs of runner, kept in st.
func NewAccounts(g *gate.Guard, runner *jobs.Runner, st AccountStore) *Accounts {
	s := &Accounts{guard: g, jobs: runner, jobStore: st, keys: st}
	runner.Handle(jobKindBulk, s.runBulk)
	return s
}

// view is an account as call sees it; false when call may not see it
// (orgOwnerOf).
func (s *Accounts) view(call *gate.Call, a platform.ServiceAccount) (iam.ServiceAccount, bool) {
	o, ok := call.OrgOwner(tenancy.OrgAccount, a.DisplayName)
	if !ok {
		return iam.ServiceAccount{}, false
	}
	return iam.ServiceAccount{ID: a.ID, Name: a.DisplayName, Identifier: o.Identifier(tenancy.OrgAccount, a.DisplayName), BU: o.Unit(),
		OutsideConvention: o.Outside, ReadOnly: o.ReadOnly(call), Type: iam.AccountTypeOf(a.DisplayName), Description: a.Description}, true
}

// List returns one page of the unit's service accounts (without their
// bindings, which would cost a request each).
func (s *Accounts) List(ctx context.Context, scope portal.Scope, q portal.ListQuery) (portal.Page[iam.ServiceAccount], error) {
	ctx, call, err := s.guard.Enter(ctx, scope, access.Read, "list service accounts")
	if err != nil {
		return portal.Page[iam.ServiceAccount]{}, err
	}
	all, err := call.Env.IAM.ListServiceAccounts(ctx)
	if err != nil {
		return portal.Page[iam.ServiceAccount]{}, err
	}
	var mine []iam.ServiceAccount
	for _, a := range all {
		if v, ok := s.view(call, a); ok && call.KeepUnit(q, v.BU) {
			mine = append(mine, v)
		}
	}
	gate.SortByName(mine, func(a iam.ServiceAccount) string { return a.Name })
	return gate.Paginate(s.guard.Pages(), "service-accounts "+call.Scope.String(), mine, func(a iam.ServiceAccount) string { return a.Name }, q)
}

// Get returns one of the unit's service accounts with its role bindings.
func (s *Accounts) Get(ctx context.Context, scope portal.Scope, id string) (iam.ServiceAccount, error) {
	ctx, call, err := s.guard.Enter(ctx, scope, access.Read, "read service accounts")
	if err != nil {
		return iam.ServiceAccount{}, err
	}
	a, err := call.Env.IAM.GetServiceAccount(ctx, id)
	if err != nil && !portal.Is(err, portal.NotFound) {
		return iam.ServiceAccount{}, err
	}
	v, visible := s.view(call, a)
	if err != nil || !visible {
		return iam.ServiceAccount{}, portal.New(portal.NotFound, "service account %s not found", id)
	}
	if v.RoleBindings, err = call.Env.IAM.RoleBindings(ctx, "User:"+a.ID); err != nil {
		return iam.ServiceAccount{}, err
	}
	sortBindings(v.RoleBindings)
	return v, nil
}

// check validates one account to create and returns its display name;
// field prefixes problems ("" or "items[3].").
func (s *Accounts) check(call *gate.Call, in iam.NewServiceAccount, field string, v *portal.Validation) string {
	in.Name = strings.TrimSpace(in.Name)
	name := ""
	if gate.Identifier(v, field+"name", "name", in.Name) && isAccountType(in.Type) {
		if name = call.Scope.QualifyServiceAccount(in.Name, in.Type); len(name) > maxDisplayName {
			v.Add(portal.Invalid(field+"name", "the display name %s is %d characters long; Confluent Cloud allows %d", name, len(name), maxDisplayName))
		}
	}
	switch {
	case in.Type == "":
		v.Add(portal.Missing(field + "type"))
	case !isAccountType(in.Type):
		v.Add(portal.Invalid(field+"type", "type must be one of %s, not %q", accountTypeNames(), in.Type))
	}
	v.Add(portal.CheckText(field+"description", in.Description, maxDescription, false))
	return name
}

// accountWait bounds how long a create waits for its job: most end
// within a second; behind a slow Cloud API the caller is answered with the
// job, which goes on (on any replica) until the account has every role
// binding of its type, or says why not.
const accountWait = 15 * time.Second

// Create creates a service account with its type's role bindings, as a
// job of one item journalled before anything is made: a replica that
// stops half way leaves the job to another, which completes the account
// (never an account without its bindings reported as made). An account
// that exists without all of its type's bindings is completed.
func (s *Accounts) Create(ctx context.Context, scope portal.Scope, in iam.NewServiceAccount) (iam.ServiceAccount, error) {
	return gate.Writing(ctx, s.guard, scope, access.ManageIdentity, "create service accounts", portal.ActServiceAccountCreate, in.Name, func(ctx context.Context, call *gate.Call) (_ iam.ServiceAccount, err error) {
		var v portal.Validation
		name := s.check(call, in, "", &v)
		if err := v.Err(); err != nil {
			return iam.ServiceAccount{}, err
		}
		existing, err := call.Env.IAM.ListServiceAccounts(ctx)
		if err != nil {
			return iam.ServiceAccount{}, err
		}
		for _, a := range existing {
			if a.DisplayName != name {
				continue
			}
			have, err := call.Env.IAM.RoleBindings(ctx, "User:"+a.ID)
			if err != nil {
				return iam.ServiceAccount{}, err
			}
			if missing, _ := diffBindings(BindingsFor(in.Type, call.Scope.Prefix()), have); len(missing) == 0 {
				return iam.ServiceAccount{}, portal.New(portal.AlreadyExists, "service account %s already exists (%s)", name, a.ID)
			}
		}
		if err := s.guard.Check(ctx, call, portal.ActServiceAccountCreate, accountChange(call, rules.OpCreate, name, in.Description, nil)); err != nil {
			return iam.ServiceAccount{}, err
		}
		job, err := s.startJob(ctx, call, scope, []iam.NewServiceAccount{in})
		if err != nil {
			return iam.ServiceAccount{}, err
		}
		call.HandedOver()
		wait := accountWait
		if upstream.IsPatient(ctx) {
			wait = bulkRunTime // an apply's step waits for what it needs
		}
		done, err := s.waitJob(ctx, job.ID, wait)
		switch {
		case err != nil || len(done.Results) == 0 || done.Results[0] == nil:
			// Still under way (or this replica cannot read it now): the job
			// goes on; its item says how it ended.
			return iam.ServiceAccount{Name: name, Type: in.Type, Description: strings.TrimSpace(in.Description), Job: job.ID}, nil
		case done.Results[0].Error != nil:
			e := *done.Results[0].Error
			return iam.ServiceAccount{}, &e
		}
		return *done.Results[0].Item, nil
	})
}

// createAccount creates an account upstream. When the answer is lost
// (the Cloud API is slow) it looks for the account until pendingWindow has
// passed: a job waits for the account rather than leave it without its
// role bindings.
func (s *Accounts) createAccount(ctx context.Context, call *gate.Call, w *gate.Write, name, description string) (platform.ServiceAccount, error) {
	bctx, cancel := w.Bound(ctx)
	a, err := call.Env.IAM.CreateServiceAccount(bctx, name, strings.TrimSpace(description))
	cancel()
	s.guard.Changed(ctx, call.Env, "accounts")
	if !portal.Is(err, portal.UpstreamTimeout) {
		return a, err
	}
	look := time.NewTicker(2 * time.Second)
	defer look.Stop()
	until := time.NewTimer(pendingWindow)
	defer until.Stop()
	for {
		all, lerr := call.Env.IAM.ListServiceAccounts(ctx)
		for _, x := range all {
			if lerr == nil && x.DisplayName == name {
				return x, nil
			}
		}
		select {
		case <-look.C:
		case <-until.C:
			return a, portal.Wrap(err, portal.UpstreamTimeout, "the Cloud API did not answer the create of service account %s, and it was not there %s later; nothing was made",
				name, pendingWindow)
		case <-ctx.Done():
			return a, portal.Wrap(err, portal.UpstreamTimeout, "the Cloud API did not answer the create of service account %s in time; the service accounts list shows whether it was made", name)
		}
	}
}

// pendingWindow is how long a create whose answer was lost looks for what
// it made.
const pendingWindow = time.Minute

// applyBindings binds a type's template to a principal, stopping at the
// first failure; it returns what it made, in the order reads show.
func applyBindings(ctx context.Context, call *gate.Call, principal, kind string) ([]iam.RoleBinding, error) {
	var made []iam.RoleBinding
	for _, b := range BindingsFor(kind, call.Scope.Prefix()) {
		if err := call.Pace(ctx); err != nil {
			return made, err
		}
		nb, err := call.Env.IAM.CreateRoleBinding(ctx, principal, b)
		if err != nil {
			return made, bindingError(b, err)
		}
		made = append(made, nb)
	}
	sortBindings(made)
	return made, nil
}

// bindingError names the role binding that failed.
func bindingError(b iam.RoleBinding, err error) error {
	return fmt.Errorf("role binding %s on %s %s: %w", b.Role, b.Resource, b.Pattern, err)
}

// rollback undoes a principal whose bindings could not all be made, and
// says so; when undoing fails too, the error says what is left.
func rollback(ctx context.Context, call *gate.Call, id string, made []iam.RoleBinding, cause error, what string, remove func(string) error) error {
	var undo error
	for _, b := range made {
		undo = errors.Join(undo, call.Env.IAM.DeleteRoleBinding(ctx, b.ID))
	}
	undo = errors.Join(undo, remove(id))
	kind := bindingFailure(cause)
	if undo != nil {
		return portal.Wrap(errors.Join(cause, undo), kind,
			"%s %s was created but its role bindings could not all be applied (%s), and removing it failed: ask the platform team to remove it", what, id, portal.FirstMessage(cause))
	}
	return portal.Wrap(cause, kind, "the %s could not be given its role bindings (%s); it was removed again, nothing changed", what, portal.FirstMessage(cause))
}

// The services implement the contract of the front doors.
var (
	_ iam.AccountService = (*Accounts)(nil)
	_ iam.PoolService    = (*Pools)(nil)
)
