package auth

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// WebLogin signs people in to the portal with the Authorization Code flow
// and PKCE, checking state and nonce. Tokens stay on the server.
type WebLogin struct {
	provider    *Provider
	verifier    *Verifier
	clientID    string
	secret      string
	redirectURL string
	scopes      []string
}

// WebLoginOptions configure a WebLogin.
type WebLoginOptions struct {
	Provider *Provider
	// Verifier checks access tokens, as for the API, so that people and
	// pipelines get roles the same way.
	Verifier     *Verifier
	ClientID     string
	ClientSecret string
	RedirectURL  string
	Scopes       []string
}

// NewWebLogin returns the browser sign-in flow.
func NewWebLogin(o WebLoginOptions) *WebLogin {
	return &WebLogin{provider: o.Provider, verifier: o.Verifier, clientID: o.ClientID, secret: o.ClientSecret,
		redirectURL: o.RedirectURL, scopes: o.Scopes}
}

// Pending is what the portal remembers between sending a person to the
// identity provider and their return.
type Pending struct {
	State    string
	Nonce    string
	Verifier string
	Next     string
}

// Grant is the outcome of a sign-in or a refresh.
type Grant struct {
	Identity     portal.Identity
	AccessToken  string
	RefreshToken string
	IDToken      string
	Expiry       time.Time
}

func (w *WebLogin) config(ctx context.Context) (*oauth2.Config, error) {
	ep, err := w.provider.Endpoint(ctx)
	if err != nil {
		return nil, err
	}
	if w.secret == "" {
		ep.AuthStyle = oauth2.AuthStyleInParams
	}
	return &oauth2.Config{ClientID: w.clientID, ClientSecret: w.secret, Endpoint: ep, RedirectURL: w.redirectURL, Scopes: w.scopes}, nil
}

// Begin prepares a sign-in that returns to next, and the URL to send the
// browser to; loginHint, when set, is passed to the provider.
func (w *WebLogin) Begin(ctx context.Context, next, loginHint string) (Pending, string, error) {
	conf, err := w.config(ctx)
	if err != nil {
		return Pending{}, "", err
	}
	p := Pending{State: randomString(), Nonce: randomString(), Verifier: oauth2.GenerateVerifier(), Next: next}
	opts := []oauth2.AuthCodeOption{oauth2.S256ChallengeOption(p.Verifier), oidc.Nonce(p.Nonce)}
	if loginHint != "" && len(loginHint) <= 256 {
		opts = append(opts, oauth2.SetAuthURLParam("login_hint", loginHint))
	}
	return p, conf.AuthCodeURL(p.State, opts...), nil
}

// Finish completes a sign-in from the callback's query: it checks state,
// exchanges the code with the PKCE verifier, verifies the ID token and its
// nonce, and verifies the access token as the API would.
func (w *WebLogin) Finish(ctx context.Context, p Pending, q url.Values) (*Grant, error) {
	if e := q.Get("error"); e != "" {
		return nil, portal.New(portal.Unauthenticated, "the identity provider refused the sign-in: %s %s", e, q.Get("error_description"))
	}
	if p.State == "" || q.Get("state") != p.State {
		return nil, portal.New(portal.Unauthenticated, "this sign-in does not match the one this browser started; start again")
	}
	conf, err := w.config(ctx)
	if err != nil {
		return nil, err
	}
	tok, err := conf.Exchange(w.client(ctx), q.Get("code"), oauth2.VerifierOption(p.Verifier))
	if err != nil {
		return nil, tokenFailure(err, "the identity provider did not accept the sign-in code", "the sign-in could not be completed: start it again")
	}
	rawID, _ := tok.Extra("id_token").(string)
	prov, _, err := w.provider.Discover(ctx)
	if err != nil {
		return nil, err
	}
	idt, err := prov.Verifier(&oidc.Config{ClientID: w.clientID}).Verify(ctx, rawID)
	if err != nil && strings.Contains(err.Error(), "fetching keys") {
		// go-oidc says so only in words: the key set could not be fetched.
		e := portal.Wrap(err, portal.UpstreamUnavailable, "the identity provider's keys cannot be fetched, so the sign-in could not be completed: start it again in a moment")
		e.RetryAfter = 5 * time.Second
		return nil, e
	}
	if err != nil {
		return nil, portal.Wrap(err, portal.Unauthenticated, "the identity provider's ID token does not verify")
	}
	if idt.Nonce != p.Nonce {
		return nil, portal.New(portal.Unauthenticated, "the ID token's nonce does not match this sign-in")
	}
	return w.grant(ctx, tok, rawID)
}

func (w *WebLogin) grant(ctx context.Context, tok *oauth2.Token, rawID string) (*Grant, error) {
	id, err := w.verifier.Identify(ctx, tok.AccessToken)
	if err != nil {
		return nil, err
	}
	return &Grant{Identity: id, AccessToken: tok.AccessToken, RefreshToken: tok.RefreshToken, IDToken: rawID, Expiry: tok.Expiry}, nil
}

// Refresh renews the tokens of a session with its refresh token.
func (w *WebLogin) Refresh(ctx context.Context, refreshToken string) (*Grant, error) {
	if refreshToken == "" {
		return nil, portal.New(portal.Unauthenticated, "the session cannot be renewed; sign in again")
	}
	conf, err := w.config(ctx)
	if err != nil {
		return nil, err
	}
	tok, err := conf.TokenSource(w.client(ctx), &oauth2.Token{RefreshToken: refreshToken}).Token()
	if err != nil {
		return nil, tokenFailure(err, "the session could not be renewed; sign in again", "the session could not be renewed yet")
	}
	rawID, _ := tok.Extra("id_token").(string)
	return w.grant(ctx, tok, rawID)
}

// EndSessionURL is where to send the browser to sign out at the provider,
// or "" when the provider does not offer it.
func (w *WebLogin) EndSessionURL(ctx context.Context, idToken, after string) string {
	_, meta, err := w.provider.Discover(ctx)
	if err != nil || meta.EndSessionEndpoint == "" {
		return ""
	}
	q := url.Values{"post_logout_redirect_uri": {after}, "client_id": {w.clientID}}
	if idToken != "" {
		q.Set("id_token_hint", idToken)
	}
	return meta.EndSessionEndpoint + "?" + q.Encode()
}

// tokenFailure tells a refusal of the token endpoint (a 4xx: the code or
// refresh token is not accepted) from the identity provider being out of
// reach (no answer, or a 5xx): the first is the caller's (401), the
// second the platform's (503, with Retry-After).
func tokenFailure(err error, refused, unreachable string) error {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) && re.Response != nil && re.Response.StatusCode >= 400 && re.Response.StatusCode < 500 {
		return portal.Wrap(err, portal.Unauthenticated, "%s", refused)
	}
	e := portal.Wrap(err, portal.UpstreamUnavailable, "the identity provider cannot be reached, so %s; try again in a moment", unreachable)
	e.RetryAfter = 5 * time.Second
	return e
}

func (w *WebLogin) client(ctx context.Context) context.Context {
	return context.WithValue(ctx, oauth2.HTTPClient, w.provider.HTTPClient())
}

func randomString() string {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		panic(fmt.Sprintf("crypto/rand: %v", err))
	}
	return base64.RawURLEncoding.EncodeToString(b)
}
