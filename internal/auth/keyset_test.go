package auth_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// issuer is a minimal OpenID provider for token tests: discovery and a key
// set (whose fetches it counts), and tokens with any claims signed by its
// key or by a key it does not publish.
type issuer struct {
	url     string
	key     *rsa.PrivateKey
	stray   *rsa.PrivateKey
	fetches atomic.Int64
	// slow, when set, is closed to let key set fetches answer.
	slow chan struct{}
}

func newIssuer(t *testing.T) *issuer {
	t.Helper()
	is := &issuer{}
	var err error
	if is.key, err = rsa.GenerateKey(rand.Reader, 2048); err != nil {
		t.Fatal(err)
	}
	if is.stray, err = rsa.GenerateKey(rand.Reader, 2048); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/openid-configuration", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]any{"issuer": is.url, "authorization_endpoint": is.url + "/authorize",
			"token_endpoint": is.url + "/token", "jwks_uri": is.url + "/keys", "id_token_signing_alg_values_supported": []string{"RS256"}})
	})
	mux.HandleFunc("GET /keys", func(w http.ResponseWriter, r *http.Request) {
		is.fetches.Add(1)
		if is.slow != nil {
			<-is.slow
		}
		_ = json.NewEncoder(w).Encode(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &is.key.PublicKey, KeyID: "k1", Algorithm: "RS256", Use: "sig"}}})
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	is.url = srv.URL
	return is
}

// token signs claims (completed with iss, aud and exp) with key under kid.
func (is *issuer) token(t *testing.T, key *rsa.PrivateKey, kid string, claims map[string]any) string {
	t.Helper()
	all := map[string]any{"iss": is.url, "aud": "api://rms-portal", "exp": time.Now().Add(time.Hour).Unix(), "iat": time.Now().Unix()}
	for k, v := range claims {
		if v == nil {
			delete(all, k)
			continue
		}
		all[k] = v
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: key}, (&jose.SignerOptions{}).WithHeader("kid", kid))
	if err != nil {
		t.Fatal(err)
	}
	payload, _ := json.Marshal(all)
	jws, err := signer.Sign(payload)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := jws.CompactSerialize()
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// TestTokensWithoutSubjectOrFromTheFutureAreRefused: every principal is
// named by its subject, and a token issued in the future beyond a small
// leeway is refused, whatever its signature.
func TestTokensWithoutSubjectOrFromTheFutureAreRefused(t *testing.T) {
	is := newIssuer(t)
	v := verifier(t, is.url, "api://rms-portal")
	ctx := context.Background()
	if _, err := v.Verify(ctx, is.token(t, is.key, "k1", map[string]any{"sub": "carol"})); err != nil {
		t.Fatalf("a good token: %v", err)
	}
	for name, c := range map[string]struct {
		claims map[string]any
		want   string
	}{
		"no sub":         {map[string]any{"sub": nil}, "no subject"},
		"empty sub":      {map[string]any{"sub": " "}, "no subject"},
		"iat in 10 min":  {map[string]any{"sub": "carol", "iat": time.Now().Add(10 * time.Minute).Unix()}, "issued in the future"},
		"iat in 10 days": {map[string]any{"sub": "carol", "iat": time.Now().Add(240 * time.Hour).Unix()}, "issued in the future"},
	} {
		_, err := v.Verify(ctx, is.token(t, is.key, "k1", c.claims))
		if !portal.Is(err, portal.Unauthenticated) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := v.Verify(ctx, is.token(t, is.key, "k1", map[string]any{"sub": "carol", "iat": time.Now().Add(time.Minute).Unix()})); err != nil {
		t.Errorf("iat within the leeway: %v", err)
	}
}

// TestUnknownKeyIDsFetchTheKeysAtMostOncePerInterval: forty tokens naming
// keys the provider never published, sent at once and one after another,
// make one fetch of the key set (beyond the first), not forty.
func TestUnknownKeyIDsFetchTheKeysAtMostOncePerInterval(t *testing.T) {
	is := newIssuer(t)
	v := verifier(t, is.url, "api://rms-portal")
	ctx := context.Background()
	if _, err := v.Verify(ctx, is.token(t, is.key, "k1", map[string]any{"sub": "carol"})); err != nil {
		t.Fatal(err)
	}
	first := is.fetches.Load()
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() {
			tok := is.token(t, is.stray, "forged-"+strings.Repeat("x", i), map[string]any{"sub": "mallory"})
			if _, err := v.Verify(ctx, tok); !portal.Is(err, portal.Unauthenticated) || !strings.Contains(err.Error(), "signature") {
				t.Errorf("forged token: %v", err)
			}
		})
	}
	wg.Wait()
	if got := is.fetches.Load() - first; got > 1 {
		t.Errorf("%d key set fetches for 40 tokens with unknown key ids, want at most 1", got)
	}
	if v.KeyFetches() != int(is.fetches.Load()) {
		t.Errorf("the verifier counts %d fetches, the provider saw %d", v.KeyFetches(), is.fetches.Load())
	}
}

// TestFirstTokensWaitForTheKeys: a replica that just started verifies its
// first tokens, all at once, while the key set is still being fetched:
// they wait for that one fetch instead of failing.
func TestFirstTokensWaitForTheKeys(t *testing.T) {
	is := newIssuer(t)
	is.slow = make(chan struct{})
	v := verifier(t, is.url, "api://rms-portal")
	tok := is.token(t, is.key, "k1", map[string]any{"sub": "carol"})
	var wg sync.WaitGroup
	var failed atomic.Int64
	for range 16 {
		wg.Go(func() {
			if _, err := v.Verify(context.Background(), tok); err != nil {
				failed.Add(1)
				t.Errorf("a first token: %v", err)
			}
		})
	}
	for is.fetches.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(20 * time.Millisecond) // the others arrive while the fetch is under way
	close(is.slow)
	wg.Wait()
	if n := is.fetches.Load(); n != 1 {
		t.Errorf("%d key set fetches, want 1", n)
	}
}
