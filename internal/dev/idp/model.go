package idp

import (
	"time"

	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"
)

// authRequest is one pending authorization request.
type authRequest struct {
	id          string
	created     time.Time
	clientID    string
	redirectURI string
	state       string
	nonce       string
	loginHint   string
	scopes      []string
	audience    []string
	respType    oidc.ResponseType
	respMode    oidc.ResponseMode
	challenge   *oidc.CodeChallenge
	subject     string
	authTime    time.Time
	done        bool
}

func (a *authRequest) GetID() string                         { return a.id }
func (a *authRequest) GetACR() string                        { return "" }
func (a *authRequest) GetAMR() []string                      { return []string{"pwd"} }
func (a *authRequest) GetAudience() []string                 { return a.audience }
func (a *authRequest) GetAuthTime() time.Time                { return a.authTime }
func (a *authRequest) GetClientID() string                   { return a.clientID }
func (a *authRequest) GetCodeChallenge() *oidc.CodeChallenge { return a.challenge }
func (a *authRequest) GetNonce() string                      { return a.nonce }
func (a *authRequest) GetRedirectURI() string                { return a.redirectURI }
func (a *authRequest) GetResponseType() oidc.ResponseType    { return a.respType }
func (a *authRequest) GetResponseMode() oidc.ResponseMode    { return a.respMode }
func (a *authRequest) GetScopes() []string                   { return a.scopes }
func (a *authRequest) GetState() string                      { return a.state }
func (a *authRequest) GetSubject() string                    { return a.subject }
func (a *authRequest) Done() bool                            { return a.done }

// refreshToken is an issued refresh token; it rotates on every use.
type refreshToken struct {
	token    string
	clientID string
	subject  string
	audience []string
	scopes   []string
	authTime time.Time
	expires  time.Time
}

func (r *refreshToken) GetAMR() []string                 { return []string{"pwd"} }
func (r *refreshToken) GetAudience() []string            { return r.audience }
func (r *refreshToken) GetAuthTime() time.Time           { return r.authTime }
func (r *refreshToken) GetClientID() string              { return r.clientID }
func (r *refreshToken) GetScopes() []string              { return r.scopes }
func (r *refreshToken) GetSubject() string               { return r.subject }
func (r *refreshToken) SetCurrentScopes(scopes []string) { r.scopes = scopes }

// serviceRequest is a client credentials token request.
type serviceRequest struct {
	subject  string
	audience []string
	scopes   []string
}

func (s *serviceRequest) GetSubject() string    { return s.subject }
func (s *serviceRequest) GetAudience() []string { return s.audience }
func (s *serviceRequest) GetScopes() []string   { return s.scopes }

// client is a registered client of the development provider.
type client struct {
	id           string
	secret       string
	redirects    []string
	globs        []string
	loginURL     func(string) string
	grants       []oidc.GrantType
	apiScope     string
	tokenTTL     time.Duration
	groups       []string
	credentials  bool
	publicClient bool
}

func (c *client) GetID() string                    { return c.id }
func (c *client) RedirectURIs() []string           { return c.redirects }
func (c *client) PostLogoutRedirectURIs() []string { return c.redirects }
func (c *client) ApplicationType() op.ApplicationType {
	if c.publicClient {
		return op.ApplicationTypeNative
	}
	return op.ApplicationTypeWeb
}
func (c *client) AuthMethod() oidc.AuthMethod {
	if c.publicClient {
		return oidc.AuthMethodNone
	}
	return oidc.AuthMethodBasic
}
func (c *client) ResponseTypes() []oidc.ResponseType {
	return []oidc.ResponseType{oidc.ResponseTypeCode}
}
func (c *client) GrantTypes() []oidc.GrantType { return c.grants }
func (c *client) LoginURL(id string) string    { return c.loginURL(id) }
func (c *client) AccessTokenType() op.AccessTokenType {
	return op.AccessTokenTypeJWT
}
func (c *client) IDTokenLifetime() time.Duration { return c.tokenTTL }

// DevMode lets plain-http redirect URIs through, as localhost needs.
func (c *client) DevMode() bool { return true }
func (c *client) RestrictAdditionalIdTokenScopes() func([]string) []string {
	return func(s []string) []string { return s }
}
func (c *client) RestrictAdditionalAccessTokenScopes() func([]string) []string {
	return func(s []string) []string { return s }
}

// IsScopeAllowed keeps the API scope; other unknown scopes are dropped
// rather than refused, as Entra ID does.
func (c *client) IsScopeAllowed(scope string) bool     { return scope == c.apiScope }
func (c *client) IDTokenUserinfoClaimsAssertion() bool { return true }
func (c *client) ClockSkew() time.Duration             { return 0 }
func (c *client) RedirectURIGlobs() []string           { return c.globs }
func (c *client) PostLogoutRedirectURIGlobs() []string { return c.globs }
