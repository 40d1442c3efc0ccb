// Package auth authenticates callers: OpenID Connect discovery, bearer
// token verification for the API, and the browser sign-in flow. It turns a
// verified token into a portal.Principal; it never decides access.
package auth

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"
	"golang.org/x/sync/singleflight"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/upstream"
)

// Provider is the identity provider as the portal sees it. Discovery runs
// once at a time for every waiter; when it fails, it is retried in the
// background with backoff, and requests fail at once with 503 meanwhile,
// instead of queueing behind an unreachable provider.
type Provider struct {
	issuer string
	client *http.Client
	flight singleflight.Group
	now    func() time.Time

	mu       sync.Mutex
	provider *oidc.Provider
	meta     Metadata
	failure  error
	retryAt  time.Time
	backoff  time.Duration
	retrying bool
	stop     chan struct{}
	stopped  bool
}

// Metadata holds the discovered endpoints the portal uses.
type Metadata struct {
	Issuer                string `json:"issuer"`
	AuthorizationEndpoint string `json:"authorization_endpoint"`
	TokenEndpoint         string `json:"token_endpoint"`
	EndSessionEndpoint    string `json:"end_session_endpoint"`
	JWKSURI               string `json:"jwks_uri"`
	// SigningAlgs are the algorithms the provider signs tokens with.
	SigningAlgs []string `json:"id_token_signing_alg_values_supported"`
}

// NewProvider returns a provider for issuer; every request to it is
// bounded by timeout and, when up is given, goes through that upstream
// (circuit breaker, health).
// base carries the requests (nil for the default transport).
func NewProvider(issuer string, timeout time.Duration, up *upstream.Upstream, base http.RoundTripper) *Provider {
	client := &http.Client{Timeout: timeout, Transport: base}
	if up != nil {
		client.Transport = upstream.Transport(up, base)
	}
	return &Provider{issuer: issuer, client: client, now: time.Now, stop: make(chan struct{})}
}

// Close stops retrying discovery.
func (p *Provider) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.stopped {
		p.stopped = true
		close(p.stop)
	}
}

// Issuer returns the configured issuer URL.
func (p *Provider) Issuer() string { return p.issuer }

// HTTPClient is the client used for every request to the provider.
func (p *Provider) HTTPClient() *http.Client { return p.client }

// Discover returns the provider, fetching its discovery document if it has
// not been fetched successfully yet.
func (p *Provider) Discover(ctx context.Context) (*oidc.Provider, Metadata, error) {
	p.mu.Lock()
	if p.provider != nil {
		defer p.mu.Unlock()
		return p.provider, p.meta, nil
	}
	if p.failure != nil {
		// Known unreachable: answer at once; the background retry will
		// find it when it is back.
		err := p.unavailable()
		p.mu.Unlock()
		return nil, Metadata{}, err
	}
	p.mu.Unlock()
	ch := p.flight.DoChan("discover", func() (any, error) { return nil, p.discover() })
	select {
	case r := <-ch:
		if r.Err != nil {
			p.mu.Lock()
			defer p.mu.Unlock()
			return nil, Metadata{}, p.unavailable()
		}
	case <-ctx.Done():
		return nil, Metadata{}, portal.Wrap(ctx.Err(), portal.UpstreamTimeout, "the identity provider at %s did not answer in time", p.issuer)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.provider, p.meta, nil
}

// unavailable is the error while discovery fails; p.mu is held.
func (p *Provider) unavailable() error {
	e := portal.Wrap(p.failure, portal.UpstreamUnavailable, "the identity provider at %s cannot be reached", p.issuer)
	e.RetryAfter = max(p.retryAt.Sub(p.now()), time.Second)
	return e
}

// discover fetches the discovery document once, under its own deadline
// (not a caller's), and schedules retries when it fails.
func (p *Provider) discover() error {
	ctx, cancel := context.WithTimeout(oidc.ClientContext(context.Background(), p.client), p.client.Timeout)
	defer cancel()
	prov, err := oidc.NewProvider(ctx, p.issuer)
	var meta Metadata
	if err == nil {
		err = prov.Claims(&meta)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if err != nil {
		p.backoff = min(max(2*p.backoff, time.Second), 30*time.Second)
		p.failure, p.retryAt = err, p.now().Add(p.backoff)
		if !p.retrying && !p.stopped {
			p.retrying = true
			go p.retry()
		}
		return err
	}
	p.provider, p.meta, p.failure, p.backoff = prov, meta, nil, 0
	return nil
}

// retry tries discovery again at each scheduled time until it succeeds or
// the provider is closed.
func (p *Provider) retry() {
	for {
		p.mu.Lock()
		wait := p.retryAt.Sub(p.now())
		p.mu.Unlock()
		t := time.NewTimer(max(wait, 0))
		select {
		case <-p.stop:
			t.Stop()
			return
		case <-t.C:
		}
		if _, err, _ := p.flight.Do("discover", func() (any, error) { return nil, p.discover() }); err == nil {
			p.mu.Lock()
			p.retrying = false
			p.mu.Unlock()
			return
		}
	}
}

// Probe fetches the discovery document, for the health report: a provider
// discovered long ago may be frozen now.
func (p *Provider) Probe(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(p.issuer, "/")+"/.well-known/openid-configuration", nil)
	if err != nil {
		return err
	}
	resp, err := p.client.Do(req)
	if err != nil {
		return portal.Wrap(err, portal.UpstreamUnavailable, "the identity provider at %s cannot be reached", p.issuer)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return portal.New(portal.UpstreamUnavailable, "the identity provider's discovery document answered %d", resp.StatusCode)
	}
	return nil
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
