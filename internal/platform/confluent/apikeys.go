package confluent

import (
	"context"
	"net/http"
	"net/url"
	"time"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// APIKeys is the APIKeys port on IAM v2's /iam/v2/api-keys.
type APIKeys struct{ c *Client }

var _ platform.APIKeys = APIKeys{}

// NewAPIKeys returns the adapter; keys are organisation-wide.
func NewAPIKeys(c *Client) APIKeys { return APIKeys{c: c} }

// objectRef is the document's ObjectReference.
type objectRef struct {
	ID          string `json:"id"`
	Environment string `json:"environment,omitempty"`
}

type apiKeyJSON struct {
	ID       string `json:"id,omitempty"`
	Metadata struct {
		CreatedAt time.Time `json:"created_at"`
	} `json:"metadata"`
	Spec struct {
		Secret      string     `json:"secret,omitempty"`
		DisplayName string     `json:"display_name,omitempty"`
		Description string     `json:"description,omitempty"`
		Owner       *objectRef `json:"owner,omitempty"`
		Resource    *objectRef `json:"resource,omitempty"`
	} `json:"spec"`
}

func (k apiKeyJSON) key() platform.APIKey {
	out := platform.APIKey{ID: k.ID, DisplayName: k.Spec.DisplayName, Description: k.Spec.Description,
		Created: k.Metadata.CreatedAt, Secret: k.Spec.Secret}
	if k.Spec.Owner != nil {
		out.Owner = k.Spec.Owner.ID
	}
	if k.Spec.Resource != nil {
		out.Resource = k.Spec.Resource.ID
	}
	return out
}

// ListAPIKeys pages through the keys of an owner and/or a resource.
func (a APIKeys) ListAPIKeys(ctx context.Context, owner, resource string) ([]platform.APIKey, error) {
	var out []platform.APIKey
	token := ""
	for {
		q := url.Values{"page_size": {"100"}}
		if owner != "" {
			q.Set("spec.owner", owner)
		}
		if resource != "" {
			q.Set("spec.resource", resource)
		}
		if token != "" {
			q.Set("page_token", token)
		}
		var page struct {
			Metadata listMeta     `json:"metadata"`
			Data     []apiKeyJSON `json:"data"`
		}
		if err := a.c.do(ctx, call{method: http.MethodGet, path: "/iam/v2/api-keys", query: q, out: &page, safe: true}); err != nil {
			return nil, err
		}
		for _, k := range page.Data {
			out = append(out, k.key())
		}
		if token = nextToken(page.Metadata.Next); token == "" {
			return out, nil
		}
	}
}

// GetAPIKey reads a key.
func (a APIKeys) GetAPIKey(ctx context.Context, id string) (platform.APIKey, error) {
	var k apiKeyJSON
	err := a.c.do(ctx, call{method: http.MethodGet, path: "/iam/v2/api-keys/" + url.PathEscape(id), out: &k, safe: true})
	if portal.Is(err, portal.NotFound) {
		return platform.APIKey{}, portal.Wrap(err, portal.NotFound, "API key %s not found", id)
	}
	return k.key(), err
}

// CreateAPIKey creates a key; Confluent Cloud answers 202 with the key and
// its secret, which is usable within moments.
func (a APIKeys) CreateAPIKey(ctx context.Context, n platform.NewAPIKey) (platform.APIKey, error) {
	// Only spec: metadata is the server's (read-only in the document).
	type spec struct {
		DisplayName string    `json:"display_name,omitempty"`
		Description string    `json:"description,omitempty"`
		Owner       objectRef `json:"owner"`
		Resource    objectRef `json:"resource"`
	}
	in := struct {
		Spec spec `json:"spec"`
	}{spec{DisplayName: n.DisplayName, Description: n.Description, Owner: objectRef{ID: n.Owner},
		Resource: objectRef{ID: n.Resource, Environment: n.Environment}}}
	var out apiKeyJSON
	if err := a.c.do(ctx, call{method: http.MethodPost, path: "/iam/v2/api-keys", body: in, out: &out}); err != nil {
		return platform.APIKey{}, err
	}
	return out.key(), nil
}

// UpdateAPIKey changes a key's description.
func (a APIKeys) UpdateAPIKey(ctx context.Context, id, description string) (platform.APIKey, error) {
	body := map[string]any{"spec": map[string]string{"description": description}}
	var out apiKeyJSON
	err := a.c.do(ctx, call{method: http.MethodPatch, path: "/iam/v2/api-keys/" + url.PathEscape(id), body: body, out: &out, safe: true})
	if portal.Is(err, portal.NotFound) {
		return platform.APIKey{}, portal.Wrap(err, portal.NotFound, "API key %s not found", id)
	}
	return out.key(), err
}

// DeleteAPIKey deletes a key.
func (a APIKeys) DeleteAPIKey(ctx context.Context, id string) error {
	err := a.c.do(ctx, call{method: http.MethodDelete, path: "/iam/v2/api-keys/" + url.PathEscape(id), safe: true})
	if portal.Is(err, portal.NotFound) {
		return portal.Wrap(err, portal.NotFound, "API key %s not found", id)
	}
	return err
}
