package auth_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/oauth2/clientcredentials"

	"github.com/edh-platform/rms-portal/internal/access"
	"github.com/edh-platform/rms-portal/internal/auth"
	"github.com/edh-platform/rms-portal/internal/config"
	"github.com/edh-platform/rms-portal/internal/dev/idp/idptest"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

func verifier(t testing.TB, issuer, audience string, accepted ...string) *auth.Verifier {
	t.Helper()
	return verifierWithClock(t, issuer, audience, nil, accepted...)
}

func verifierWithClock(t testing.TB, issuer, audience string, clock func() time.Time, accepted ...string) *auth.Verifier {
	t.Helper()
	cfg, err := config.Dev(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	ten, err := cfg.Tenancy()
	if err != nil {
		t.Fatal(err)
	}
	return auth.NewVerifier(auth.VerifierOptions{
		Provider: auth.NewProvider(issuer, 5*time.Second, nil, nil), Audience: audience, AcceptedIssuers: accepted,
		GroupsClaim: "groups", Resolver: access.NewResolver(tenancy.NewLive(ten), "platform-admins"), Clock: clock,
	})
}

func userToken(t *testing.T, issuer, user string) string {
	t.Helper()
	res, err := idptest.SignIn(context.Background(), issuer, "rms-portal", user, "openid", "profile", "api://rms-portal/.default")
	if err != nil {
		t.Fatal(err)
	}
	return res.Token.AccessToken
}

func TestVerifyResolvesRoles(t *testing.T) {
	ctx := context.Background()
	issuer := idptest.Start(t, nil)
	v := verifier(t, issuer, "api://rms-portal")
	cases := map[string]string{
		"alice": "crm=super_admin platform=super_admin sales=none scada=super_admin admin=false",
		"bob":   "crm=none platform=none sales=none scada=admin admin=false",
		"carol": "crm=viewer platform=none sales=none scada=developer admin=false",
		"dave":  "crm=none platform=none sales=none scada=viewer admin=false",
		"erin":  "crm=none platform=none sales=none scada=none admin=false",
		"frank": "crm=super_admin platform=super_admin sales=super_admin scada=super_admin admin=true",
		"sam":   "crm=none platform=none sales=developer scada=none admin=false",
	}
	for user, want := range cases {
		p, err := v.Verify(ctx, userToken(t, issuer, user))
		if err != nil {
			t.Fatalf("%s: %v", user, err)
		}
		var parts []string
		for _, bu := range []string{"crm", "platform", "sales", "scada"} {
			parts = append(parts, bu+"="+p.Role(bu).String())
		}
		got := strings.Join(parts, " ") + " admin=" + map[bool]string{true: "true", false: "false"}[p.PlatformAdmin]
		if got != want || p.Username != user || p.Service {
			t.Errorf("%s: %s (username %q service %v), want %s", user, got, p.Username, p.Service, want)
		}
	}
}

func TestVerifyServicePrincipal(t *testing.T) {
	ctx := context.Background()
	issuer := idptest.Start(t, nil)
	cc := clientcredentials.Config{ClientID: "scada-ci", ClientSecret: "scada-ci-secret", TokenURL: issuer + "/oauth/token"}
	tok, err := cc.Token(ctx)
	if err != nil {
		t.Fatal(err)
	}
	p, err := verifier(t, issuer, "api://rms-portal").Verify(ctx, tok.AccessToken)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Service || p.Username != "scada-ci" || p.Role("scada") != portal.Developer {
		t.Errorf("principal %+v role %s", p, p.Role("scada"))
	}
}

func TestVerifyRefusesBadTokens(t *testing.T) {
	ctx := context.Background()
	issuer := idptest.Start(t, nil)
	other := idptest.Start(t, nil)
	good := userToken(t, issuer, "carol")
	parts := strings.Split(good, ".")
	tampered := parts[0] + "." + parts[1] + "x." + parts[2]

	// The same signed token in the JWS JSON serializations, general and
	// flattened: no access token is written so.
	general, _ := json.Marshal(map[string]any{"payload": parts[1], "signatures": []map[string]string{{"protected": parts[0], "signature": parts[2]}}})
	flattened, _ := json.Marshal(map[string]string{"payload": parts[1], "protected": parts[0], "signature": parts[2]})

	cases := []struct {
		name, token, audience, want string
	}{
		{"missing", "", "api://rms-portal", "a bearer token is required"},
		{"garbage", "not-a-jwt", "api://rms-portal", "not a JWT in compact form"},
		{"JSON general", string(general), "api://rms-portal", "not a JWT in compact form"},
		{"JSON flattened", string(flattened), "api://rms-portal", "not a JWT in compact form"},
		{"JSON flattened, base64", base64.RawURLEncoding.EncodeToString(flattened), "api://rms-portal", "not a JWT in compact form"},
		{"four parts", good + ".x", "api://rms-portal", "not a JWT in compact form"},
		{"tampered", tampered, "api://rms-portal", "signature does not verify"},
		{"other provider", userToken(t, other, "carol"), "api://rms-portal", "signature does not verify"},
		{"wrong audience", good, "api://someone-else", "audience must include api://someone-else"},
	}
	for _, c := range cases {
		_, err := verifier(t, issuer, c.audience).Verify(ctx, c.token)
		if !portal.Is(err, portal.Unauthenticated) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	if _, err := verifier(t, issuer, "api://rms-portal").Verify(ctx, good); err != nil {
		t.Errorf("the compact token itself: %v", err)
	}
}

func TestVerifyRefusesExpiredTokens(t *testing.T) {
	ctx := context.Background()
	issuer := idptest.Start(t, func(c *config.DevIDP) { c.AccessTokenLifetime = time.Minute })
	tok := userToken(t, issuer, "carol")
	var skew atomic.Int64
	v := verifierWithClock(t, issuer, "api://rms-portal", func() time.Time { return time.Now().Add(time.Duration(skew.Load())) })
	if _, err := v.Verify(ctx, tok); err != nil {
		t.Fatalf("fresh token: %v", err)
	}
	skew.Store(int64(61 * time.Second))
	_, err := v.Verify(ctx, tok)
	if !portal.Is(err, portal.Unauthenticated) || !strings.Contains(err.Error(), "expired") {
		t.Errorf("expired token: %v", err)
	}
}

func TestUnreachableProviderIsUnavailable(t *testing.T) {
	v := verifier(t, "http://127.0.0.1:1/dev/idp", "api://rms-portal")
	_, err := v.Verify(context.Background(), "x.y.z")
	if !portal.Is(err, portal.UpstreamUnavailable) {
		t.Errorf("got %v", err)
	}
}

// TestFrozenProviderFailsFast: an identity provider that accepts
// connections but never answers is asked once for all concurrent
// requests (each waits at most the timeout, not behind each other), and
// once it is known to be down, requests fail at once with 503 and
// Retry-After while discovery is retried in the background.
func TestFrozenProviderFailsFast(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var held []net.Conn
	accepted := 0
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, c)
			accepted++
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		l.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range held {
			c.Close()
		}
	})
	p := auth.NewProvider("http://"+l.Addr().String()+"/idp", 500*time.Millisecond, nil, nil)
	t.Cleanup(p.Close)
	start := time.Now()
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() { _, _, errs[i] = p.Discover(context.Background()) })
	}
	wg.Wait()
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("8 concurrent requests took %v", took)
	}
	for i, err := range errs {
		if !portal.Is(err, portal.UpstreamUnavailable) && !portal.Is(err, portal.UpstreamTimeout) {
			t.Errorf("request %d: %v", i, err)
		}
	}
	mu.Lock()
	if accepted != 1 {
		t.Errorf("%d discovery connections for 8 requests", accepted)
	}
	mu.Unlock()
	start = time.Now()
	_, _, err = p.Discover(context.Background())
	var pe *portal.Error
	if !errors.As(err, &pe) || pe.Kind != portal.UpstreamUnavailable || pe.RetryAfter <= 0 || time.Since(start) > 50*time.Millisecond {
		t.Errorf("known down: %v after %v", err, time.Since(start))
	}
}

// TestIDTokensAreNotAccessTokens: the dev provider gives ID tokens the
// client alone as audience, as Entra ID does, and the verifier refuses an
// ID token as a bearer token, saying why.
func TestIDTokensAreNotAccessTokens(t *testing.T) {
	issuer := idptest.Start(t, nil)
	res, err := idptest.SignIn(context.Background(), issuer, "rms-portal", "carol", "openid", "profile", "api://rms-portal/.default")
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(res.IDToken, ".")
	payload, _ := base64.RawURLEncoding.DecodeString(parts[1])
	var claims map[string]any
	_ = json.Unmarshal(payload, &claims)
	if claims["aud"] != "rms-portal" {
		t.Errorf("ID token audience %v, want the client alone", claims["aud"])
	}
	v := verifier(t, issuer, "api://rms-portal")
	if _, err := v.Verify(context.Background(), res.IDToken); !portal.Is(err, portal.Unauthenticated) || !strings.Contains(err.Error(), "ID token") {
		t.Errorf("ID token as bearer: %v", err)
	}
	if _, err := v.Verify(context.Background(), res.Token.AccessToken); err != nil {
		t.Errorf("access token: %v", err)
	}
}

// TestVerifiedTokensAreRemembered: a token seen before gives the same
// principal without being verified again, until the tenancy changes (its
// roles are resolved again at once) or the token expires (refused at its
// own expiry).
func TestVerifiedTokensAreRemembered(t *testing.T) {
	ctx := context.Background()
	issuer := idptest.Start(t, func(c *config.DevIDP) { c.AccessTokenLifetime = time.Minute })
	cfg, err := config.Dev(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	ten, err := cfg.Tenancy()
	if err != nil {
		t.Fatal(err)
	}
	live := tenancy.NewLive(ten)
	var skew atomic.Int64
	v := auth.NewVerifier(auth.VerifierOptions{
		Provider: auth.NewProvider(issuer, 5*time.Second, nil, nil), Audience: "api://rms-portal",
		GroupsClaim: "groups", Resolver: access.NewResolver(live, "platform-admins"),
		Clock: func() time.Time { return time.Now().Add(time.Duration(skew.Load())) },
	})
	tok := userToken(t, issuer, "carol")
	first, err := v.Verify(ctx, tok)
	if err != nil || first.Role("scada") != portal.Developer {
		t.Fatalf("first: %v %v", first, err)
	}
	again, err := v.Verify(ctx, tok)
	if err != nil || again != first {
		t.Errorf("a second call resolved again (%p, %p) %v", first, again, err)
	}
	// scada's groups change: carol's groups no longer grant anything there.
	for i, z := range cfg.LandingZones {
		for j, u := range z.BusinessUnits {
			if u.ID == "scada" {
				cfg.LandingZones[i].BusinessUnits[j].Groups = config.Groups{Admin: []string{"scada-admins"}}
			}
		}
	}
	changed, err := cfg.Tenancy()
	if err != nil {
		t.Fatal(err)
	}
	live.Set(changed)
	after, err := v.Verify(ctx, tok)
	if err != nil || after.Role("scada") != portal.NoRole {
		t.Errorf("after the change carol is %v in scada (%v)", after.Role("scada"), err)
	}
	skew.Store(int64(61 * time.Second))
	if _, err := v.Verify(ctx, tok); !portal.Is(err, portal.Unauthenticated) || !strings.Contains(err.Error(), "expired at") {
		t.Errorf("a remembered token past its expiry: %v", err)
	}
}
