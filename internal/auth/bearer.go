package auth

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// Verifier checks bearer tokens: signature (from the provider's key set),
// issuer (the configured one or an accepted one), audience and expiry, and
// resolves the caller's roles from the token's groups.
type Verifier struct {
	provider    *Provider
	audience    string
	issuers     []string
	groupsClaim string
	resolver    *access.Resolver
	now         func() time.Time
	tokens      *tokenCache

	once     sync.Mutex
	verifier *oidc.IDTokenVerifier
	keys     *keySet
}

// VerifierOptions configure a Verifier.
type VerifierOptions struct {
	Provider        *Provider
	Audience        string
	AcceptedIssuers []string
	GroupsClaim     string
	Resolver        *access.Resolver
	// Clock tells the time for expiry checks; time.Now when nil.
	Clock func() time.Time
	// CacheSize bounds the verified tokens remembered (by digest, until
	// their expiry); 0 means 10,000, negative turns the cache off.
	CacheSize int
}

// NewVerifier returns a verifier; discovery happens on first use.
func NewVerifier(o VerifierOptions) *Verifier {
	issuers := append([]string{o.Provider.Issuer()}, o.AcceptedIssuers...)
	if o.CacheSize == 0 {
		o.CacheSize = 10000
	}
	now := clockOr(o.Clock)
	return &Verifier{provider: o.Provider, audience: o.Audience, issuers: issuers,
		groupsClaim: o.GroupsClaim, resolver: o.Resolver, now: now, tokens: newTokenCache(o.CacheSize, now)}
}

func (v *Verifier) tokenVerifier(ctx context.Context) (*oidc.IDTokenVerifier, error) {
	v.once.Lock()
	tv := v.verifier
	v.once.Unlock()
	if tv != nil {
		return tv, nil
	}
	// Discovery is shared by every waiter and fails fast while the
	// provider is known to be down; no lock is held meanwhile.
	_, meta, err := v.provider.Discover(ctx)
	if err != nil {
		return nil, err
	}
	v.once.Lock()
	defer v.once.Unlock()
	if v.verifier == nil {
		// The issuer and the audience are checked in Identify, against
		// every accepted issuer, and the audience after telling an ID
		// token apart, for a clearer refusal. Keys are fetched again for
		// an unknown key id at most once per KeyRefreshEvery.
		v.keys = newKeySet(meta.JWKSURI, v.provider.HTTPClient(), KeyRefreshEvery, v.now)
		v.verifier = oidc.NewVerifier(v.provider.Issuer(), v.keys, &oidc.Config{SkipClientIDCheck: true, SkipIssuerCheck: true,
			Now: v.now, SupportedSigningAlgs: meta.SigningAlgs})
	}
	return v.verifier, nil
}

// claims are the token claims the portal reads.
type claims struct {
	Subject  string   `json:"sub"`
	Name     string   `json:"name"`
	Username string   `json:"preferred_username"`
	UPN      string   `json:"upn"`
	ClientID string   `json:"client_id"`
	AppID    string   `json:"appid"`
	AZP      string   `json:"azp"`
	IDType   string   `json:"idtyp"`
	IssuedAt *float64 `json:"iat"`
}

// issuedAtLeeway is how far in the future a token's issue time may be:
// the provider's clock and the portal's differ a little, never by more.
const issuedAtLeeway = 2 * time.Minute

// Verify checks a raw bearer token and returns the principal it stands for.
// A bad token is an Unauthenticated error whose message says why.
// A token seen before is not verified again until its expiry, and its
// roles are not resolved again while the tenancy is unchanged.
func (v *Verifier) Verify(ctx context.Context, raw string) (*portal.Principal, error) {
	key := tokenKey(raw)
	if e, found, expired := v.tokens.get(key); found {
		if expired {
			return nil, expiredToken(e.expiry)
		}
		ten := v.resolver.Tenancy()
		if e.principal != nil && e.ten == ten {
			return e.principal, nil
		}
		p := v.resolver.Resolve(e.id)
		v.tokens.resolved(key, p, ten)
		return p, nil
	}
	id, err := v.Identify(ctx, raw)
	if err != nil {
		return nil, err
	}
	ten := v.resolver.Tenancy()
	p := v.resolver.Resolve(id)
	v.tokens.resolved(key, p, ten)
	return p, nil
}

// compactJWS reports whether raw is a JWS in compact serialization: three
// non-empty base64url parts separated by dots, nothing else.
func compactJWS(raw string) bool {
	parts := strings.Split(raw, ".")
	if len(parts) != 3 {
		return false
	}
	for _, p := range parts {
		if p == "" {
			return false
		}
		for _, r := range p {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
				return false
			}
		}
	}
	return true
}

// KeyFetches counts the fetches of the provider's key set so far.
func (v *Verifier) KeyFetches() int {
	v.once.Lock()
	defer v.once.Unlock()
	if v.keys == nil {
		return 0
	}
	return v.keys.Fetches()
}

// Resolve turns an identity into a principal with roles, following the
// deployment's current group mapping.
func (v *Verifier) Resolve(id portal.Identity) *portal.Principal { return v.resolver.Resolve(id) }

// Identify checks a raw bearer token and returns the identity it carries.
func (v *Verifier) Identify(ctx context.Context, raw string) (portal.Identity, error) {
	if raw == "" {
		return portal.Identity{}, portal.New(portal.Unauthenticated, "a bearer token is required (Authorization: Bearer <token>)")
	}
	if !compactJWS(raw) {
		// The JOSE library would also read a JWS in its JSON forms (general
		// or flattened), which an access token never is (RFC 9068): a JSON
		// object can carry what a compact token cannot, such as several
		// signatures, only one of them checked.
		return portal.Identity{}, portal.New(portal.Unauthenticated, "the token is not a JWT in compact form (header.payload.signature)")
	}
	tv, err := v.tokenVerifier(ctx)
	if err != nil {
		return portal.Identity{}, err
	}
	tok, err := tv.Verify(ctx, raw)
	if err != nil {
		return portal.Identity{}, unauthenticated(err, v.audience)
	}
	if !slices.Contains(v.issuers, tok.Issuer) {
		return portal.Identity{}, portal.New(portal.Unauthenticated, "the token's issuer %s is not accepted", tok.Issuer)
	}
	var marks struct {
		Nonce  string `json:"nonce"`
		AtHash string `json:"at_hash"`
		CHash  string `json:"c_hash"`
	}
	_ = tok.Claims(&marks)
	if marks.Nonce != "" || marks.AtHash != "" || marks.CHash != "" {
		// Only ID tokens carry these (OpenID Connect Core 2 and 3.3.2.11).
		return portal.Identity{}, portal.New(portal.Unauthenticated, "this is an ID token, which says who signed in to a client; call the API with the access token")
	}
	if !slices.Contains(tok.Audience, v.audience) {
		return portal.Identity{}, portal.New(portal.Unauthenticated, "the token is not meant for this API: its audience must include %s (ask for the scope %s/.default)", v.audience, v.audience)
	}
	id, err := v.identity(tok)
	if err == nil {
		v.tokens.put(tokenKey(raw), id, tok.Expiry)
	}
	return id, err
}

func (v *Verifier) identity(tok *oidc.IDToken) (portal.Identity, error) {
	var c claims
	if err := tok.Claims(&c); err != nil {
		return portal.Identity{}, portal.Wrap(err, portal.Unauthenticated, "the token's claims are unreadable")
	}
	// Every principal, and every audit event, is named by its subject.
	if strings.TrimSpace(c.Subject) == "" {
		return portal.Identity{}, portal.New(portal.Unauthenticated, "the token has no subject (sub claim)")
	}
	if c.IssuedAt != nil {
		if at := time.Unix(int64(*c.IssuedAt), 0); at.After(v.now().Add(issuedAtLeeway)) {
			return portal.Identity{}, portal.New(portal.Unauthenticated, "the token was issued in the future (%s); check the identity provider's clock",
				at.UTC().Format(time.RFC3339))
		}
	}
	var all map[string]any
	if err := tok.Claims(&all); err != nil {
		return portal.Identity{}, portal.Wrap(err, portal.Unauthenticated, "the token's claims are unreadable")
	}
	groups, overage, err := access.GroupsFromClaims(all, v.groupsClaim)
	if err != nil {
		return portal.Identity{}, portal.New(portal.Unauthenticated, "the token's %q claim must be a list of strings", v.groupsClaim)
	}
	client := firstOf(c.ClientID, c.AZP, c.AppID)
	username := firstOf(c.Username, c.UPN)
	id := portal.Identity{
		Subject: c.Subject, Name: c.Name, Username: username, Groups: groups, GroupsOverage: overage,
		// Entra marks app-only tokens with idtyp=app; other providers give a
		// client acting for itself the client id as its subject.
		Service: c.IDType == "app" || (client != "" && client == c.Subject),
	}
	if id.Username == "" && id.Service {
		id.Username = client
	}
	return id, nil
}

func unauthenticated(err error, audience string) error {
	var expired *oidc.TokenExpiredError
	switch {
	case errors.As(err, &expired):
		e := expiredToken(expired.Expiry)
		e.Cause = err
		return e
	case strings.Contains(err.Error(), "expected audience"):
		return portal.Wrap(err, portal.Unauthenticated, "the token is not meant for this API: its audience must include %s (ask for the scope %s/.default)", audience, audience)
	case strings.Contains(err.Error(), "signature"):
		return portal.Wrap(err, portal.Unauthenticated, "the token's signature does not verify")
	}
	return portal.Wrap(err, portal.Unauthenticated, "the token is not valid: it could not be parsed or verified")
}

func expiredToken(at time.Time) *portal.Error {
	return portal.New(portal.Unauthenticated, "the token expired at %s; get a new one", at.UTC().Format("2006-01-02T15:04:05Z"))
}

func firstOf(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}
