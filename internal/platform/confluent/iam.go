package confluent

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
)

// IAM is the IAM port on Confluent Cloud's IAM v2 API.
type IAM struct {
	c     *Client
	scope platform.IAMScope
	// accounts caches the organisation-wide list briefly: every list and
	// every create reads it, and paging through it costs a request per
	// hundred accounts.
	accounts *accountCache
}

// accountsTTL is how long the account list is reused.
const accountsTTL = 10 * time.Second

type accountCache struct {
	mu   sync.Mutex
	list []platform.ServiceAccount
	at   time.Time
	gen  uint64
}

// Forget drops the cached account list (another replica changed it).
func (a *IAM) Forget() {
	a.accounts.mu.Lock()
	defer a.accounts.mu.Unlock()
	a.accounts.list, a.accounts.gen = nil, a.accounts.gen+1
}

var _ platform.IAM = (*IAM)(nil)

// NewIAM returns the adapter for one environment's bindings.
func NewIAM(c *Client, scope platform.IAMScope) *IAM {
	return &IAM{c: c, scope: scope, accounts: &accountCache{}}
}

type listMeta struct {
	Next string `json:"next"`
}

// nextToken reads page_token from a list's "next" link.
func nextToken(next string) string {
	if next == "" {
		return ""
	}
	u, err := url.Parse(next)
	if err != nil {
		return ""
	}
	return u.Query().Get("page_token")
}

type serviceAccountJSON struct {
	ID          string `json:"id,omitempty"`
	DisplayName string `json:"display_name"`
	Description string `json:"description"`
}

// ListServiceAccounts returns every service account, paged through once
// per accountsTTL; writes through this adapter drop the cached list.
func (a *IAM) ListServiceAccounts(ctx context.Context) ([]platform.ServiceAccount, error) {
	a.accounts.mu.Lock()
	if a.accounts.list != nil && time.Since(a.accounts.at) < accountsTTL {
		defer a.accounts.mu.Unlock()
		a.c.cache("service-accounts", true)
		return slices.Clone(a.accounts.list), nil
	}
	gen := a.accounts.gen
	a.accounts.mu.Unlock()
	a.c.cache("service-accounts", false)
	list, err := a.listServiceAccounts(ctx)
	if err != nil {
		return nil, err
	}
	a.accounts.mu.Lock()
	if a.accounts.gen == gen {
		a.accounts.list, a.accounts.at = list, time.Now()
	}
	a.accounts.mu.Unlock()
	return slices.Clone(list), nil
}

func (a *IAM) listServiceAccounts(ctx context.Context) ([]platform.ServiceAccount, error) {
	var out []platform.ServiceAccount
	var page struct {
		Metadata listMeta             `json:"metadata"`
		Data     []serviceAccountJSON `json:"data"`
	}
	token := ""
	for {
		q := url.Values{"page_size": {"100"}}
		if token != "" {
			q.Set("page_token", token)
		}
		page.Data, page.Metadata = nil, listMeta{}
		if err := a.c.do(ctx, call{method: http.MethodGet, path: "/iam/v2/service-accounts", query: q, out: &page, safe: true}); err != nil {
			return nil, err
		}
		for _, s := range page.Data {
			out = append(out, platform.ServiceAccount(s))
		}
		if token = nextToken(page.Metadata.Next); token == "" {
			return out, nil
		}
	}
}

// GetServiceAccount reads one service account.
func (a *IAM) GetServiceAccount(ctx context.Context, id string) (platform.ServiceAccount, error) {
	var s serviceAccountJSON
	err := a.c.do(ctx, call{method: http.MethodGet, path: "/iam/v2/service-accounts/" + url.PathEscape(id), out: &s, safe: true})
	if portal.Is(err, portal.NotFound) {
		return platform.ServiceAccount{}, portal.Wrap(err, portal.NotFound, "service account %s not found", id)
	}
	return platform.ServiceAccount(s), err
}

// CreateServiceAccount creates a service account.
func (a *IAM) CreateServiceAccount(ctx context.Context, displayName, description string) (platform.ServiceAccount, error) {
	defer a.Forget()
	var s serviceAccountJSON
	err := a.c.do(ctx, call{method: http.MethodPost, path: "/iam/v2/service-accounts",
		body: serviceAccountJSON{DisplayName: displayName, Description: description}, out: &s})
	if portal.Is(err, portal.AlreadyExists) {
		return platform.ServiceAccount{}, portal.Wrap(err, portal.AlreadyExists, "service account %s already exists", displayName)
	}
	return platform.ServiceAccount(s), err
}

// UpdateServiceAccount changes an account's description (IAM v2 PATCH).
func (a *IAM) UpdateServiceAccount(ctx context.Context, id, description string) (platform.ServiceAccount, error) {
	defer a.Forget()
	var s serviceAccountJSON
	err := a.c.do(ctx, call{method: http.MethodPatch, path: "/iam/v2/service-accounts/" + url.PathEscape(id),
		body: map[string]string{"description": description}, out: &s, safe: true})
	if portal.Is(err, portal.NotFound) {
		return platform.ServiceAccount{}, portal.Wrap(err, portal.NotFound, "service account %s not found", id)
	}
	return platform.ServiceAccount(s), err
}

// DeleteServiceAccount deletes a service account.
func (a *IAM) DeleteServiceAccount(ctx context.Context, id string) error {
	defer a.Forget()
	return a.c.do(ctx, call{method: http.MethodDelete, path: "/iam/v2/service-accounts/" + url.PathEscape(id), safe: true})
}

type bindingJSON struct {
	ID         string `json:"id,omitempty"`
	Principal  string `json:"principal"`
	RoleName   string `json:"role_name"`
	CRNPattern string `json:"crn_pattern"`
}

// RoleBindings lists the principal's bindings on the cluster and on the
// schema registry. The API lists one scope per request: a CRN alone is
// that scope, and a CRN followed by "/*" adds the scopes nested in it
// (topics, groups, subjects), so both are asked and merged.
func (a *IAM) RoleBindings(ctx context.Context, principal string) ([]iam.RoleBinding, error) {
	scopes := []string{a.scope.ClusterCRN(), a.scope.ClusterCRN() + "/*"}
	if crn := a.scope.RegistryCRN(); crn != "" {
		scopes = append(scopes, crn+"/*")
	}
	var out []iam.RoleBinding
	seen := map[string]bool{}
	for _, pattern := range scopes {
		crn := strings.TrimSuffix(pattern, "/*")
		token := ""
		for {
			q := url.Values{"principal": {principal}, "crn_pattern": {pattern}, "page_size": {"100"}}
			if token != "" {
				q.Set("page_token", token)
			}
			var page struct {
				Metadata listMeta      `json:"metadata"`
				Data     []bindingJSON `json:"data"`
			}
			if err := a.c.do(ctx, call{method: http.MethodGet, path: "/iam/v2/role-bindings", query: q, out: &page, safe: true}); err != nil {
				return nil, err
			}
			for _, b := range page.Data {
				if b.Principal == principal && strings.HasPrefix(b.CRNPattern, crn) && !seen[b.ID] {
					seen[b.ID] = true
					out = append(out, platform.ParseBinding(b.ID, b.RoleName, b.CRNPattern))
				}
			}
			if token = nextToken(page.Metadata.Next); token == "" {
				break
			}
		}
	}
	return out, nil
}

// CreateRoleBinding binds a role to a principal.
func (a *IAM) CreateRoleBinding(ctx context.Context, principal string, b iam.RoleBinding) (iam.RoleBinding, error) {
	crn, err := a.scope.CRN(b)
	if err != nil {
		return iam.RoleBinding{}, err
	}
	var out bindingJSON
	if err := a.c.do(ctx, call{method: http.MethodPost, path: "/iam/v2/role-bindings",
		body: bindingJSON{Principal: principal, RoleName: b.Role, CRNPattern: crn}, out: &out}); err != nil {
		return iam.RoleBinding{}, err
	}
	return platform.ParseBinding(out.ID, out.RoleName, out.CRNPattern), nil
}

// DeleteRoleBinding removes a binding.
func (a *IAM) DeleteRoleBinding(ctx context.Context, id string) error {
	return a.c.do(ctx, call{method: http.MethodDelete, path: "/iam/v2/role-bindings/" + url.PathEscape(id), safe: true})
}
