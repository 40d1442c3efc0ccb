// Package auth authenticates callers: OpenID Connect discovery, bearer
// token verification for the API, and the browser sign-in flow. It turns a
// verified token into a portal.Principal; it never decides access.
package auth

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// Provider is the identity provider as the portal sees it. Discovery runs
// on first use and is retried until it succeeds, so the portal starts even
// while the provider is briefly unreachable (or, in dev mode, is the
// portal itself and not yet listening).
type Provider struct {
	issuer string
	client *http.Client

	mu       sync.Mutex
	provider *oidc.Provider
	meta     Metadata
}

// Metadata holds the discovered endpoints the portal uses.
type Metadata struct {
	Issuer                string `json:"issuer"`
	AuthorizationEndpoint string `json:"authorization_endpoint"`
	TokenEndpoint         string `json:"token_endpoint"`
	EndSessionEndpoint    string `json:"end_session_endpoint"`
	JWKSURI               string `json:"jwks_uri"`
}

// NewProvider returns a provider for issuer; every request to it is
// bounded by timeout.
func NewProvider(issuer string, timeout time.Duration) *Provider {
	return &Provider{issuer: issuer, client: &http.Client{Timeout: timeout}}
}

// Issuer returns the configured issuer URL.
func (p *Provider) Issuer() string { return p.issuer }

// HTTPClient is the client used for every request to the provider.
func (p *Provider) HTTPClient() *http.Client { return p.client }

// Discover returns the provider, fetching its discovery document if it has
// not been fetched successfully yet.
func (p *Provider) Discover(ctx context.Context) (*oidc.Provider, Metadata, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.provider != nil {
		return p.provider, p.meta, nil
	}
	// The client, passed through the context, bounds every request the
	// provider makes, including later key set refreshes.
	dctx, cancel := context.WithTimeout(oidc.ClientContext(ctx, p.client), p.client.Timeout)
	defer cancel()
	prov, err := oidc.NewProvider(dctx, p.issuer)
	if err != nil {
		return nil, Metadata{}, portal.Wrap(err, portal.UpstreamUnavailable, "the identity provider at %s cannot be reached", p.issuer)
	}
	var meta Metadata
	if err := prov.Claims(&meta); err != nil {
		return nil, Metadata{}, portal.Wrap(err, portal.UpstreamUnavailable, "the identity provider's discovery document is unreadable")
	}
	p.provider = prov
	p.meta = meta
	return p.provider, meta, nil
}

// Endpoint returns the OAuth 2.0 endpoints, discovering them if needed.
func (p *Provider) Endpoint(ctx context.Context) (oauth2.Endpoint, error) {
	prov, _, err := p.Discover(ctx)
	if err != nil {
		return oauth2.Endpoint{}, err
	}
	return prov.Endpoint(), nil
}

// String names the provider in logs.
func (p *Provider) String() string { return fmt.Sprintf("oidc(%s)", p.issuer) }

// AuthEndpoints returns the authorization and token endpoints. When the
// provider cannot be reached it returns the conventional paths under the
// issuer, and the error.
func (p *Provider) AuthEndpoints(ctx context.Context) (string, string, error) {
	_, meta, err := p.Discover(ctx)
	if err != nil {
		return p.issuer + "/authorize", p.issuer + "/oauth/token", err
	}
	return meta.AuthorizationEndpoint, meta.TokenEndpoint, nil
}

// clockOr is the clock to use: c, or the real one.
func clockOr(c func() time.Time) func() time.Time {
	if c == nil {
		return time.Now
	}
	return c
}
