package cloud

import (
	"context"
	"crypto/rand"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
)

// Org is the dev stand-in for a Confluent Cloud organization's IAM:
// service accounts and role bindings are organization-wide, as there; each
// environment sees them through IAMFor. It keeps Confluent Cloud's rules:
// sa-... ids, unique display names, length limits and quotas.
type Org struct {
	mu       sync.Mutex
	accounts []platform.ServiceAccount
	bindings []orgBinding
	pools    map[string][]platform.IdentityPool
	keys     []platform.APIKey
	keyEnvs  map[string]string
	hook     func(Event)
	latency  atomic.Int64
}

// SetLatency makes every change take d, as Confluent Cloud's IAM calls do
// (a few hundred milliseconds), so that progress can be seen and tested.
func (o *Org) SetLatency(d time.Duration) { o.latency.Store(int64(d)) }

// wait spends the latency, or returns early with the context's error.
func (o *Org) wait(ctx context.Context) error {
	d := time.Duration(o.latency.Load())
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return portal.Wrap(ctx.Err(), portal.UpstreamTimeout, "the IAM stand-in did not answer in time")
	}
}

type orgBinding struct {
	id, principal, role, crn string
}

// Quotas and limits the stand-in enforces, as Confluent Cloud does.
const (
	maxAccounts    = 1000
	maxBindings    = 1000
	maxPools       = 100
	maxDisplayName = 64
	maxDescription = 128
	maxFilter      = 300
)

// knownRoles are the roles a binding may name.
var knownRoles = []string{"CloudClusterAdmin", "DeveloperManage", "DeveloperRead", "DeveloperWrite", "MetricsViewer", "Operator", "ResourceOwner"}

// NewOrg returns an empty organization.
func NewOrg() *Org { return &Org{pools: map[string][]platform.IdentityPool{}} }

func randomID(prefix string, n int) string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, n)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return prefix + string(b)
}

// IAMFor returns the organization's IAM as one environment sees it.
func (o *Org) IAMFor(scope platform.IAMScope) platform.IAM { return &orgIAM{org: o, scope: scope} }

// PoolsFor returns the pools of an identity provider.
func (o *Org) PoolsFor(provider string) platform.IdentityPools {
	return &orgPools{org: o, provider: provider}
}

type orgIAM struct {
	org   *Org
	scope platform.IAMScope
}

func (a *orgIAM) ListServiceAccounts(context.Context) ([]platform.ServiceAccount, error) {
	a.org.mu.Lock()
	defer a.org.mu.Unlock()
	return slices.Clone(a.org.accounts), nil
}

func (a *orgIAM) GetServiceAccount(_ context.Context, id string) (platform.ServiceAccount, error) {
	a.org.mu.Lock()
	defer a.org.mu.Unlock()
	for _, s := range a.org.accounts {
		if s.ID == id {
			return s, nil
		}
	}
	return platform.ServiceAccount{}, portal.New(portal.NotFound, "service account %s not found", id)
}

func (a *orgIAM) CreateServiceAccount(ctx context.Context, name, description string) (platform.ServiceAccount, error) {
	if err := a.org.wait(ctx); err != nil {
		return platform.ServiceAccount{}, err
	}
	a.org.mu.Lock()
	defer a.org.mu.Unlock()
	switch {
	case name == "" || len(name) > maxDisplayName:
		return platform.ServiceAccount{}, portal.New(portal.InvalidParameter, "display_name must be 1 to %d characters", maxDisplayName)
	case len(description) > maxDescription:
		return platform.ServiceAccount{}, portal.New(portal.InvalidParameter, "description must be at most %d characters", maxDescription)
	case len(a.org.accounts) >= maxAccounts:
		return platform.ServiceAccount{}, portal.New(portal.QuotaExceeded, "quota service_accounts_per_org (%d) would be exceeded", maxAccounts)
	}
	for _, s := range a.org.accounts {
		if s.DisplayName == name {
			return platform.ServiceAccount{}, portal.New(portal.AlreadyExists, "service account %s already exists", name)
		}
	}
	s := platform.ServiceAccount{ID: randomID("sa-", 6), DisplayName: name, Description: description}
	a.org.accounts = append(a.org.accounts, s)
	return s, nil
}

func (a *orgIAM) UpdateServiceAccount(_ context.Context, id, description string) (platform.ServiceAccount, error) {
	a.org.mu.Lock()
	defer a.org.mu.Unlock()
	if len(description) > maxDescription {
		return platform.ServiceAccount{}, portal.New(portal.InvalidParameter, "description must be at most %d characters", maxDescription)
	}
	for i := range a.org.accounts {
		if a.org.accounts[i].ID == id {
			a.org.accounts[i].Description = description
			return a.org.accounts[i], nil
		}
	}
	return platform.ServiceAccount{}, portal.New(portal.NotFound, "service account %s not found", id)
}

func (a *orgIAM) DeleteServiceAccount(_ context.Context, id string) error {
	a.org.mu.Lock()
	defer a.org.mu.Unlock()
	i := slices.IndexFunc(a.org.accounts, func(s platform.ServiceAccount) bool { return s.ID == id })
	if i < 0 {
		return portal.New(portal.NotFound, "service account %s not found", id)
	}
	if slices.ContainsFunc(a.org.keys, func(k platform.APIKey) bool { return k.Owner == id }) {
		return portal.New(portal.Conflict, "service account %s still owns API keys; delete them first", id)
	}
	a.org.accounts = slices.Delete(a.org.accounts, i, i+1)
	a.org.bindings = slices.DeleteFunc(a.org.bindings, func(b orgBinding) bool { return b.principal == "User:"+id })
	return nil
}

func (a *orgIAM) RoleBindings(_ context.Context, principal string) ([]iam.RoleBinding, error) {
	a.org.mu.Lock()
	defer a.org.mu.Unlock()
	var out []iam.RoleBinding
	for _, b := range a.org.bindings {
		inScope := strings.HasPrefix(b.crn, a.scope.ClusterCRN()) || (a.scope.RegistryCRN() != "" && strings.HasPrefix(b.crn, a.scope.RegistryCRN()))
		if b.principal == principal && inScope {
			out = append(out, platform.ParseBinding(b.id, b.role, b.crn))
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// principalExists is called with the lock held.
func (o *Org) principalExists(principal string) bool {
	id := strings.TrimPrefix(principal, "User:")
	if slices.ContainsFunc(o.accounts, func(s platform.ServiceAccount) bool { return s.ID == id }) {
		return true
	}
	for _, ps := range o.pools {
		if slices.ContainsFunc(ps, func(p platform.IdentityPool) bool { return p.ID == id }) {
			return true
		}
	}
	return false
}

func (a *orgIAM) CreateRoleBinding(ctx context.Context, principal string, b iam.RoleBinding) (iam.RoleBinding, error) {
	crn, err := a.scope.CRN(b)
	if err != nil {
		return iam.RoleBinding{}, err
	}
	return a.org.CreateBinding(ctx, principal, b.Role, crn)
}

// CreateBinding binds a role to a principal on a CRN pattern, with Confluent
// Cloud's checks: a known role, an existing principal, the quota, no
// duplicate.
func (o *Org) CreateBinding(ctx context.Context, principal, role, crn string) (iam.RoleBinding, error) {
	if err := o.wait(ctx); err != nil {
		return iam.RoleBinding{}, err
	}
	b, err := o.addBinding(principal, role, crn)
	if err == nil {
		o.notify(Event{Principal: principal})
	}
	return b, err
}

func (o *Org) addBinding(principal, role, crn string) (iam.RoleBinding, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	switch {
	case !slices.Contains(knownRoles, role):
		return iam.RoleBinding{}, portal.New(portal.InvalidParameter, "role %s does not exist", role)
	case !o.principalExists(principal):
		return iam.RoleBinding{}, portal.New(portal.InvalidParameter, "principal %s does not exist", principal)
	case len(o.bindings) >= maxBindings:
		return iam.RoleBinding{}, portal.New(portal.QuotaExceeded, "quota role_bindings_per_org (%d) would be exceeded", maxBindings)
	}
	for _, x := range o.bindings {
		if x.principal == principal && x.role == role && x.crn == crn {
			return iam.RoleBinding{}, portal.New(portal.AlreadyExists, "the role binding exists already")
		}
	}
	nb := orgBinding{id: randomID("rb-", 6), principal: principal, role: role, crn: crn}
	o.bindings = append(o.bindings, nb)
	return platform.ParseBinding(nb.id, nb.role, nb.crn), nil
}

// Bindings lists a principal's bindings on a CRN pattern as the IAM v2 API
// does: a pattern ending in "/*" matches the scopes nested below it, any
// other pattern that scope alone.
func (o *Org) Bindings(principal, pattern string) []iam.RoleBinding {
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []iam.RoleBinding
	for _, b := range o.bindings {
		match := b.crn == pattern
		if prefix, nested := strings.CutSuffix(pattern, "/*"); nested {
			match = strings.HasPrefix(b.crn, prefix+"/")
		}
		if (principal == "" || b.principal == principal) && match {
			rb := platform.ParseBinding(b.id, b.role, b.crn)
			out = append(out, rb)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// ClusterBindings lists a principal's bindings on one Kafka cluster: on
// the cluster itself and on its topics, groups and transactional ids.
func (o *Org) ClusterBindings(principal, clusterID string) []iam.RoleBinding {
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []iam.RoleBinding
	mark := "/cloud-cluster=" + clusterID
	for _, b := range o.bindings {
		i := strings.Index(b.crn, mark)
		if b.principal != principal || i < 0 {
			continue
		}
		if rest := b.crn[i+len(mark):]; rest == "" || strings.HasPrefix(rest, "/") {
			out = append(out, platform.ParseBinding(b.id, b.role, b.crn))
		}
	}
	return out
}

// binding returns the binding id: its principal, role and CRN pattern.
func (o *Org) binding(id string) (principal, role, crn string, found bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, b := range o.bindings {
		if b.id == id {
			return b.principal, b.role, b.crn, true
		}
	}
	return "", "", "", false
}

// BindingPrincipal returns the principal of a binding.
func (o *Org) BindingPrincipal(id string) string {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, b := range o.bindings {
		if b.id == id {
			return b.principal
		}
	}
	return ""
}

func (a *orgIAM) DeleteRoleBinding(_ context.Context, id string) error {
	a.org.mu.Lock()
	i := slices.IndexFunc(a.org.bindings, func(b orgBinding) bool { return b.id == id })
	if i < 0 {
		a.org.mu.Unlock()
		return portal.New(portal.NotFound, "role binding %s not found", id)
	}
	principal := a.org.bindings[i].principal
	a.org.bindings = slices.Delete(a.org.bindings, i, i+1)
	a.org.mu.Unlock()
	a.org.notify(Event{Principal: principal})
	return nil
}

type orgPools struct {
	org      *Org
	provider string
}

func (p *orgPools) ListPools(context.Context) ([]platform.IdentityPool, error) {
	p.org.mu.Lock()
	defer p.org.mu.Unlock()
	return slices.Clone(p.org.pools[p.provider]), nil
}

func (p *orgPools) find(id string) (int, error) {
	i := slices.IndexFunc(p.org.pools[p.provider], func(x platform.IdentityPool) bool { return x.ID == id })
	if i < 0 {
		return -1, portal.New(portal.NotFound, "identity pool %s not found", id)
	}
	return i, nil
}

func (p *orgPools) GetPool(_ context.Context, id string) (platform.IdentityPool, error) {
	p.org.mu.Lock()
	defer p.org.mu.Unlock()
	i, err := p.find(id)
	if err != nil {
		return platform.IdentityPool{}, err
	}
	return p.org.pools[p.provider][i], nil
}

func (p *orgPools) CreatePool(_ context.Context, in platform.IdentityPool) (platform.IdentityPool, error) {
	p.org.mu.Lock()
	defer p.org.mu.Unlock()
	ps := p.org.pools[p.provider]
	switch {
	case in.DisplayName == "" || len(in.DisplayName) > maxDisplayName:
		return platform.IdentityPool{}, portal.New(portal.InvalidParameter, "display_name must be 1 to %d characters", maxDisplayName)
	case len(in.Description) > maxDescription:
		return platform.IdentityPool{}, portal.New(portal.InvalidParameter, "description must be at most %d characters", maxDescription)
	case in.IdentityClaim == "":
		return platform.IdentityPool{}, portal.New(portal.InvalidParameter, "identity_claim is required")
	case len(in.Filter) > maxFilter:
		return platform.IdentityPool{}, portal.New(portal.InvalidParameter, "filter must be at most %d characters", maxFilter)
	case len(ps) >= maxPools:
		return platform.IdentityPool{}, portal.New(portal.QuotaExceeded, "quota identity_pools_per_provider (%d) would be exceeded", maxPools)
	}
	if slices.ContainsFunc(ps, func(x platform.IdentityPool) bool { return x.DisplayName == in.DisplayName }) {
		return platform.IdentityPool{}, portal.New(portal.AlreadyExists, "identity pool %s already exists", in.DisplayName)
	}
	in.ID, in.State = randomID("pool-", 4), "ENABLED"
	p.org.pools[p.provider] = append(ps, in)
	return in, nil
}

func (p *orgPools) UpdatePoolFilter(_ context.Context, id, filter string) (platform.IdentityPool, error) {
	p.org.mu.Lock()
	defer p.org.mu.Unlock()
	i, err := p.find(id)
	if err != nil {
		return platform.IdentityPool{}, err
	}
	if len(filter) > maxFilter {
		return platform.IdentityPool{}, portal.New(portal.InvalidParameter, "filter must be at most %d characters", maxFilter)
	}
	p.org.pools[p.provider][i].Filter = filter
	return p.org.pools[p.provider][i], nil
}

func (p *orgPools) DeletePool(_ context.Context, id string) error {
	p.org.mu.Lock()
	defer p.org.mu.Unlock()
	i, err := p.find(id)
	if err != nil {
		return err
	}
	p.org.pools[p.provider] = slices.Delete(p.org.pools[p.provider], i, i+1)
	p.org.bindings = slices.DeleteFunc(p.org.bindings, func(b orgBinding) bool { return b.principal == "User:"+id })
	return nil
}
