package confluent

import (
	"context"
	"net/http"
	"net/url"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// Pools is the IdentityPools port on Confluent Cloud's identity providers
// v2 API, for one identity provider.
type Pools struct {
	c    *Client
	path string
}

var _ platform.IdentityPools = (*Pools)(nil)

// NewPools returns the adapter for the pools of a provider (op-...).
func NewPools(c *Client, providerID string) *Pools {
	return &Pools{c: c, path: "/iam/v2/identity-providers/" + url.PathEscape(providerID) + "/identity-pools"}
}

// poolJSON is a pool as the API reads and writes it; description is
// always sent, as the published document requires it on create.
type poolJSON struct {
	ID            string `json:"id,omitempty"`
	DisplayName   string `json:"display_name,omitempty"`
	Description   string `json:"description"`
	IdentityClaim string `json:"identity_claim,omitempty"`
	Filter        string `json:"filter,omitempty"`
	State         string `json:"state,omitempty"`
}

func (p poolJSON) pool() platform.IdentityPool {
	return platform.IdentityPool{ID: p.ID, DisplayName: p.DisplayName, Description: p.Description,
		IdentityClaim: p.IdentityClaim, Filter: p.Filter, State: p.State}
}

// ListPools pages through the provider's pools.
func (s *Pools) ListPools(ctx context.Context) ([]platform.IdentityPool, error) {
	var out []platform.IdentityPool
	token := ""
	for {
		q := url.Values{"page_size": {"100"}}
		if token != "" {
			q.Set("page_token", token)
		}
		var page struct {
			Metadata listMeta   `json:"metadata"`
			Data     []poolJSON `json:"data"`
		}
		if err := s.c.do(ctx, call{method: http.MethodGet, path: s.path, query: q, out: &page, safe: true}); err != nil {
			return nil, err
		}
		for _, p := range page.Data {
			out = append(out, p.pool())
		}
		if token = nextToken(page.Metadata.Next); token == "" {
			return out, nil
		}
	}
}

func (s *Pools) notFound(err error, id string) error {
	if portal.Is(err, portal.NotFound) {
		return portal.Wrap(err, portal.NotFound, "identity pool %s not found", id)
	}
	return err
}

// GetPool reads one pool.
func (s *Pools) GetPool(ctx context.Context, id string) (platform.IdentityPool, error) {
	var p poolJSON
	err := s.c.do(ctx, call{method: http.MethodGet, path: s.path + "/" + url.PathEscape(id), out: &p, safe: true})
	return p.pool(), s.notFound(err, id)
}

// CreatePool creates a pool.
func (s *Pools) CreatePool(ctx context.Context, in platform.IdentityPool) (platform.IdentityPool, error) {
	var p poolJSON
	err := s.c.do(ctx, call{method: http.MethodPost, path: s.path, body: poolJSON{DisplayName: in.DisplayName,
		Description: in.Description, IdentityClaim: in.IdentityClaim, Filter: in.Filter}, out: &p})
	if portal.Is(err, portal.AlreadyExists) {
		return platform.IdentityPool{}, portal.Wrap(err, portal.AlreadyExists, "identity pool %s already exists", in.DisplayName)
	}
	return p.pool(), err
}

// UpdatePoolFilter changes a pool's filter.
func (s *Pools) UpdatePoolFilter(ctx context.Context, id, filter string) (platform.IdentityPool, error) {
	var p poolJSON
	err := s.c.do(ctx, call{method: http.MethodPatch, path: s.path + "/" + url.PathEscape(id), body: map[string]string{"filter": filter}, out: &p, safe: true})
	return p.pool(), s.notFound(err, id)
}

// DeletePool deletes a pool.
func (s *Pools) DeletePool(ctx context.Context, id string) error {
	return s.notFound(s.c.do(ctx, call{method: http.MethodDelete, path: s.path + "/" + url.PathEscape(id), safe: true}), id)
}
