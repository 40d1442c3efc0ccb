// Package idp is the development OpenID provider: a real provider
// (zitadel's certified op package) with demo users, a user picker instead
// of passwords, and in-memory state. It runs only in dev mode and in tests.
package idp

import (
	"crypto/rand"
	"crypto/rsa"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"strings"

	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"

	"github.com/edh-platform/rms-portal/internal/config"
)

// PathPrefix is where the provider is mounted under the portal's base URL.
const PathPrefix = "/dev/idp"

// Options configure the provider.
type Options struct {
	// BaseURL is the portal's public URL; the issuer is BaseURL + PathPrefix.
	BaseURL string
	// Audience is put in every access token (api://rms-portal).
	Audience string
	Config   config.DevIDP
	Logger   *slog.Logger
}

// Provider serves the development identity provider. Mount it at PathPrefix
// with the prefix stripped.
type Provider struct {
	issuer  string
	op      op.OpenIDProvider
	storage *storage
	mux     *http.ServeMux
	users   []config.DevUser
}

// New builds the provider with a fresh signing key: tokens die with the
// process, like the rest of dev mode.
func New(o Options) (*Provider, error) {
	issuer := strings.TrimSuffix(o.BaseURL, "/") + PathPrefix
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, fmt.Errorf("dev idp: signing key: %w", err)
	}
	st := &storage{
		audience: o.Audience, tokenTTL: o.Config.AccessTokenLifetime,
		key:   signingKey{id: randomID(), key: rsaKey},
		users: map[string]config.DevUser{}, clients: map[string]*client{},
		newID: randomID, requests: map[string]*authRequest{}, codes: map[string]string{},
		refresh: map[string]*refreshToken{},
	}
	for _, u := range o.Config.Users {
		st.users[u.Username] = u
	}
	loginURL := func(id string) string { return issuer + "/login?authRequestID=" + id }
	for _, c := range o.Config.Clients {
		st.clients[c.ID] = newClient(c, o, loginURL)
	}
	var cryptoKey [32]byte
	if _, err := rand.Read(cryptoKey[:]); err != nil {
		return nil, err
	}
	logger := o.Logger
	if logger == nil {
		logger = slog.Default()
	}
	provider, err := op.NewProvider(&op.Config{
		CryptoKey:             cryptoKey,
		CodeMethodS256:        true,
		AuthMethodPost:        true,
		GrantTypeRefreshToken: true,
		SupportedScopes:       []string{oidc.ScopeOpenID, oidc.ScopeProfile, oidc.ScopeOfflineAccess, o.Audience + "/.default"},
		SupportedClaims:       []string{"sub", "aud", "exp", "iat", "iss", "name", "preferred_username", "groups", "nonce", "azp", "client_id"},
	}, st, op.StaticIssuer(issuer), op.WithAllowInsecure(), op.WithLogger(logger.WithGroup("devidp")))
	if err != nil {
		return nil, fmt.Errorf("dev idp: %w", err)
	}
	p := &Provider{issuer: issuer, op: provider, storage: st, mux: http.NewServeMux(), users: o.Config.Users}
	intercept := op.NewIssuerInterceptor(provider.IssuerFromRequest)
	p.mux.HandleFunc("GET /login", intercept.HandlerFunc(p.picker))
	p.mux.HandleFunc("POST /login", intercept.HandlerFunc(p.choose))
	p.mux.Handle("POST /oauth/token", p.idTokensForClients(provider))
	p.mux.Handle("/", provider)
	return p, nil
}

func newClient(c config.DevClient, o Options, loginURL func(string) string) *client {
	cl := &client{
		id: c.ID, secret: c.Secret, loginURL: loginURL, apiScope: o.Audience + "/.default",
		tokenTTL: o.Config.AccessTokenLifetime, groups: c.Groups, credentials: c.ClientCredentials,
		publicClient: c.Secret == "",
	}
	for _, p := range c.RedirectPaths {
		cl.redirects = append(cl.redirects, strings.TrimSuffix(o.BaseURL, "/")+p)
	}
	if c.LoopbackRedirects {
		cl.globs = []string{"http://127.0.0.1:*/**", "http://localhost:*/**", "http://[[]::1[]]:*/**"}
	}
	if len(cl.redirects) > 0 || len(cl.globs) > 0 {
		cl.grants = append(cl.grants, oidc.GrantTypeCode, oidc.GrantTypeRefreshToken)
	}
	if c.ClientCredentials {
		cl.grants = append(cl.grants, oidc.GrantTypeClientCredentials)
	}
	return cl
}

// Issuer returns the provider's issuer URL.
func (p *Provider) Issuer() string { return p.issuer }

// ServeHTTP serves the provider's endpoints; the request path must not
// carry PathPrefix any more.
func (p *Provider) ServeHTTP(w http.ResponseWriter, r *http.Request) { p.mux.ServeHTTP(w, r) }

func randomID() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return hex.EncodeToString(b)
}
