package idp

import (
	"context"
	"crypto/rsa"
	"errors"
	"fmt"
	"sync"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"

	"github.com/edh-platform/rms-portal/internal/config"
)

// storage is the provider's in-memory state: users, clients, pending
// authorization requests, codes and refresh tokens. It implements
// op.Storage and op.ClientCredentialsStorage.
type storage struct {
	audience string
	tokenTTL time.Duration
	key      signingKey
	users    map[string]config.DevUser
	clients  map[string]*client
	newID    func() string

	mu       sync.Mutex
	requests map[string]*authRequest
	codes    map[string]string
	refresh  map[string]*refreshToken
}

var (
	_ op.Storage                   = (*storage)(nil)
	_ op.ClientCredentialsStorage  = (*storage)(nil)
	_ op.CanSetUserinfoFromRequest = (*storage)(nil)
)

type signingKey struct {
	id  string
	key *rsa.PrivateKey
}

func (k *signingKey) SignatureAlgorithm() jose.SignatureAlgorithm { return jose.RS256 }
func (k *signingKey) Key() any                                    { return k.key }
func (k *signingKey) ID() string                                  { return k.id }

type publicKey struct{ signingKey }

func (k *publicKey) Algorithm() jose.SignatureAlgorithm { return jose.RS256 }
func (k *publicKey) Use() string                        { return "sig" }
func (k *publicKey) Key() any                           { return &k.key.PublicKey }

var errNotFound = errors.New("not found")

func (s *storage) CreateAuthRequest(_ context.Context, r *oidc.AuthRequest, userID string) (op.AuthRequest, error) {
	c, ok := s.clients[r.ClientID]
	if !ok {
		return nil, oidc.ErrInvalidClient()
	}
	if c.publicClient && (r.CodeChallenge == "" || r.CodeChallengeMethod != oidc.CodeChallengeMethodS256) {
		return nil, oidc.ErrInvalidRequest().WithDescription("client %s is public: PKCE with code_challenge_method=S256 is required", c.id)
	}
	if len(r.Prompt) == 1 && r.Prompt[0] == oidc.PromptNone {
		return nil, oidc.ErrLoginRequired()
	}
	req := &authRequest{
		id: s.newID(), created: time.Now(), clientID: r.ClientID, redirectURI: r.RedirectURI,
		state: r.State, nonce: r.Nonce, loginHint: r.LoginHint, scopes: r.Scopes,
		audience: []string{r.ClientID, s.audience}, respType: r.ResponseType, respMode: r.ResponseMode,
		subject: userID,
	}
	if r.CodeChallenge != "" {
		req.challenge = &oidc.CodeChallenge{Challenge: r.CodeChallenge, Method: r.CodeChallengeMethod}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests[req.id] = req
	return req, nil
}

func (s *storage) AuthRequestByID(_ context.Context, id string) (op.AuthRequest, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.requests[id]
	if !ok {
		return nil, fmt.Errorf("authorization request %w", errNotFound)
	}
	return r, nil
}

func (s *storage) AuthRequestByCode(ctx context.Context, code string) (op.AuthRequest, error) {
	s.mu.Lock()
	id, ok := s.codes[code]
	s.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("code invalid or expired")
	}
	return s.AuthRequestByID(ctx, id)
}

func (s *storage) SaveAuthCode(_ context.Context, id, code string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.codes[code] = id
	return nil
}

func (s *storage) DeleteAuthRequest(_ context.Context, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.requests, id)
	for code, rid := range s.codes {
		if rid == id {
			delete(s.codes, code)
		}
	}
	return nil
}

// complete records that a user signed in for a pending request.
func (s *storage) complete(id, username string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.requests[id]
	if !ok {
		return fmt.Errorf("authorization request %w", errNotFound)
	}
	if _, ok := s.users[username]; !ok {
		return fmt.Errorf("user %q %w", username, errNotFound)
	}
	r.subject, r.authTime, r.done = username, time.Now(), true
	return nil
}

func (s *storage) pending(id string) (*authRequest, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.requests[id]
	return r, ok
}

func (s *storage) CreateAccessToken(context.Context, op.TokenRequest) (string, time.Time, error) {
	return s.newID(), time.Now().Add(s.tokenTTL), nil
}

func (s *storage) CreateAccessAndRefreshTokens(_ context.Context, req op.TokenRequest, current string) (string, string, time.Time, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rt := &refreshToken{token: s.newID(), subject: req.GetSubject(), audience: req.GetAudience(), scopes: req.GetScopes(),
		expires: time.Now().Add(24 * time.Hour)}
	switch r := req.(type) {
	case *authRequest:
		rt.clientID, rt.authTime = r.clientID, r.authTime
	case *refreshToken:
		old, ok := s.refresh[current]
		if !ok || time.Now().After(old.expires) {
			return "", "", time.Time{}, op.ErrInvalidRefreshToken
		}
		delete(s.refresh, current)
		rt.clientID, rt.authTime = old.clientID, old.authTime
	default:
		return "", "", time.Time{}, fmt.Errorf("unsupported token request %T", req)
	}
	s.refresh[rt.token] = rt
	return s.newID(), rt.token, time.Now().Add(s.tokenTTL), nil
}

func (s *storage) TokenRequestByRefreshToken(_ context.Context, token string) (op.RefreshTokenRequest, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rt, ok := s.refresh[token]
	if !ok || time.Now().After(rt.expires) {
		return nil, op.ErrInvalidRefreshToken
	}
	cp := *rt
	return &cp, nil
}

func (s *storage) TerminateSession(_ context.Context, userID, clientID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, rt := range s.refresh {
		if rt.subject == userID && rt.clientID == clientID {
			delete(s.refresh, k)
		}
	}
	return nil
}

func (s *storage) GetRefreshTokenInfo(_ context.Context, _ string, token string) (string, string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rt, ok := s.refresh[token]
	if !ok {
		return "", "", op.ErrInvalidRefreshToken
	}
	return rt.subject, rt.token, nil
}

func (s *storage) RevokeToken(_ context.Context, token, _, clientID string) *oidc.Error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if rt, ok := s.refresh[token]; ok {
		if rt.clientID != clientID {
			return oidc.ErrInvalidClient().WithDescription("token was not issued to this client")
		}
		delete(s.refresh, token)
	}
	return nil
}

func (s *storage) SigningKey(context.Context) (op.SigningKey, error) { return &s.key, nil }
func (s *storage) SignatureAlgorithms(context.Context) ([]jose.SignatureAlgorithm, error) {
	return []jose.SignatureAlgorithm{jose.RS256}, nil
}
func (s *storage) KeySet(context.Context) ([]op.Key, error) {
	return []op.Key{&publicKey{s.key}}, nil
}

func (s *storage) GetClientByClientID(_ context.Context, id string) (op.Client, error) {
	c, ok := s.clients[id]
	if !ok {
		return nil, fmt.Errorf("client %q %w", id, errNotFound)
	}
	return c, nil
}

func (s *storage) AuthorizeClientIDSecret(_ context.Context, id, secret string) error {
	c, ok := s.clients[id]
	if !ok || c.secret == "" || c.secret != secret {
		return errors.New("invalid client id or secret")
	}
	return nil
}

func (s *storage) ClientCredentials(_ context.Context, id, secret string) (op.Client, error) {
	c, ok := s.clients[id]
	if !ok || !c.credentials || c.secret != secret {
		return nil, errors.New("invalid client id or secret")
	}
	return c, nil
}

func (s *storage) ClientCredentialsTokenRequest(_ context.Context, id string, scopes []string) (op.TokenRequest, error) {
	if _, ok := s.clients[id]; !ok {
		return nil, fmt.Errorf("client %q %w", id, errNotFound)
	}
	return &serviceRequest{subject: id, audience: []string{s.audience}, scopes: scopes}, nil
}

// claims are the identity claims of a subject: a user, or a client acting
// for itself.
func (s *storage) claims(subject string) (map[string]any, error) {
	if u, ok := s.users[subject]; ok {
		return map[string]any{"name": u.Name, "preferred_username": u.Username, "groups": groupsOf(u.Groups)}, nil
	}
	if c, ok := s.clients[subject]; ok && c.credentials {
		return map[string]any{"name": c.id, "preferred_username": c.id, "groups": groupsOf(c.groups)}, nil
	}
	return nil, fmt.Errorf("subject %q %w", subject, errNotFound)
}

func groupsOf(g []string) []string {
	if g == nil {
		return []string{}
	}
	return g
}

func (s *storage) GetPrivateClaimsFromScopes(_ context.Context, subject, _ string, _ []string) (map[string]any, error) {
	return s.claims(subject)
}

func (s *storage) SetUserinfoFromScopes(context.Context, *oidc.UserInfo, string, string, []string) error {
	return nil
}

func (s *storage) SetUserinfoFromRequest(_ context.Context, info *oidc.UserInfo, req op.IDTokenRequest, _ []string) error {
	return s.userinfo(info, req.GetSubject())
}

func (s *storage) userinfo(info *oidc.UserInfo, subject string) error {
	claims, err := s.claims(subject)
	if err != nil {
		return err
	}
	info.Subject = subject
	info.Name, _ = claims["name"].(string)
	info.PreferredUsername, _ = claims["preferred_username"].(string)
	info.AppendClaims("groups", claims["groups"])
	return nil
}

func (s *storage) SetUserinfoFromToken(_ context.Context, info *oidc.UserInfo, _, subject, _ string) error {
	return s.userinfo(info, subject)
}

func (s *storage) SetIntrospectionFromToken(_ context.Context, intro *oidc.IntrospectionResponse, _, subject, clientID string) error {
	info := new(oidc.UserInfo)
	if err := s.userinfo(info, subject); err != nil {
		return err
	}
	intro.SetUserInfo(info)
	intro.ClientID = clientID
	return nil
}

func (s *storage) GetKeyByIDAndClientID(context.Context, string, string) (*jose.JSONWebKey, error) {
	return nil, errors.New("JWT profile grants are not supported")
}

func (s *storage) ValidateJWTProfileScopes(context.Context, string, []string) ([]string, error) {
	return nil, errors.New("JWT profile grants are not supported")
}

func (s *storage) Health(context.Context) error { return nil }
