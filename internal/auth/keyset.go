package auth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"golang.org/x/sync/singleflight"
)

// KeyRefreshEvery bounds how often the provider's key set is fetched
// again because a token names a key the portal does not hold. Providers
// publish a new key before they sign with it, so a real rotation is seen
// within this; forged key ids cost nothing more.
const KeyRefreshEvery = 30 * time.Second

// keySet checks token signatures with the provider's published keys
// (jwks_uri). Unlike a plain remote key set, a token naming an unknown key
// id fetches the set again at most once per interval, whoever sends such
// tokens: otherwise each garbage token would be a request to the provider.
type keySet struct {
	url    string
	client *http.Client
	every  time.Duration
	now    func() time.Time
	flight singleflight.Group

	mu      sync.Mutex
	keys    []jose.JSONWebKey
	fetched time.Time // the last fetch, successful or not
	// inflight is set while a fetch runs: callers that find no key wait
	// for it rather than fail (a replica that just started).
	inflight bool
	// fetches counts the fetches made, for tests and metrics.
	fetches int
}

func newKeySet(url string, client *http.Client, every time.Duration, now func() time.Time) *keySet {
	return &keySet{url: url, client: client, every: every, now: now}
}

// VerifySignature implements oidc.KeySet. The verifier has checked the
// algorithm against the provider's before calling it.
func (k *keySet) VerifySignature(ctx context.Context, raw string) ([]byte, error) {
	jws, err := jose.ParseSigned(raw, []jose.SignatureAlgorithm{jose.RS256, jose.RS384, jose.RS512, jose.ES256, jose.ES384,
		jose.ES512, jose.PS256, jose.PS384, jose.PS512, jose.EdDSA})
	if err != nil {
		return nil, fmt.Errorf("malformed token: %w", err)
	}
	kid := ""
	if len(jws.Signatures) > 0 {
		kid = jws.Signatures[0].Header.KeyID
	}
	k.mu.Lock()
	keys, stale, inflight := k.keys, k.now().Sub(k.fetched) >= k.every, k.inflight
	k.mu.Unlock()
	if payload, ok := verifyWith(jws, kid, keys); ok {
		return payload, nil
	}
	if !stale && !inflight {
		return nil, errors.New("the signature does not verify with any of the provider's keys")
	}
	v, err, _ := k.flight.Do("fetch", func() (any, error) {
		k.mu.Lock()
		recent, keys := !k.fetched.IsZero() && k.now().Sub(k.fetched) < k.every, k.keys
		k.mu.Unlock()
		if recent {
			return keys, nil // fetched meanwhile by the flight this caller meant to join
		}
		return k.fetch(ctx)
	})
	if err != nil {
		return nil, fmt.Errorf("fetching the provider's keys: %w", err)
	}
	if payload, ok := verifyWith(jws, kid, v.([]jose.JSONWebKey)); ok {
		return payload, nil
	}
	return nil, errors.New("the signature does not verify with any of the provider's keys")
}

func verifyWith(jws *jose.JSONWebSignature, kid string, keys []jose.JSONWebKey) ([]byte, bool) {
	for _, key := range keys {
		if kid == "" || key.KeyID == kid {
			if payload, err := jws.Verify(&key); err == nil {
				return payload, true
			}
		}
	}
	return nil, false
}

// fetch reads the key set; the time of the attempt is recorded first, so
// that a failing provider is not asked again before the interval either.
func (k *keySet) fetch(ctx context.Context) (_ []jose.JSONWebKey, err error) {
	k.mu.Lock()
	k.fetched = k.now()
	k.fetches++
	k.inflight = true
	k.mu.Unlock()
	defer func() {
		if err != nil {
			k.mu.Lock()
			k.inflight = false
			k.mu.Unlock()
		}
	}()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, k.url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := k.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s answered %d", k.url, resp.StatusCode)
	}
	var set struct {
		Keys []json.RawMessage `json:"keys"`
	}
	if err := json.Unmarshal(body, &set); err != nil {
		return nil, fmt.Errorf("the key set at %s is not readable: %w", k.url, err)
	}
	var keys []jose.JSONWebKey
	for _, raw := range set.Keys {
		// A key of a kind this portal does not read is skipped, not fatal.
		var key jose.JSONWebKey
		if err := key.UnmarshalJSON(raw); err == nil && (key.Use == "" || key.Use == "sig") {
			keys = append(keys, key)
		}
	}
	k.mu.Lock()
	k.keys, k.inflight = keys, false
	k.mu.Unlock()
	return keys, nil
}

// Fetches counts the key set fetches made so far.
func (k *keySet) Fetches() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.fetches
}
