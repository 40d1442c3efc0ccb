package idp_test

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"github.com/edh-platform/rms-portal/internal/dev/idp/idptest"
)

const apiScope = "api://rms-portal/.default"

type tokenClaims struct {
	Subject  string   `json:"sub"`
	Name     string   `json:"name"`
	Username string   `json:"preferred_username"`
	Groups   []string `json:"groups"`
	Nonce    string   `json:"nonce"`
}

func TestDiscovery(t *testing.T) {
	issuer := idptest.Start(t, nil)
	p, err := oidc.NewProvider(context.Background(), issuer)
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Issuer  string   `json:"issuer"`
		Methods []string `json:"code_challenge_methods_supported"`
		Grants  []string `json:"grant_types_supported"`
		JWKS    string   `json:"jwks_uri"`
	}
	if err := p.Claims(&d); err != nil {
		t.Fatal(err)
	}
	if d.Issuer != issuer || !strings.HasSuffix(issuer, "/dev/idp") || !slices.Contains(d.Methods, "S256") || d.JWKS == "" {
		t.Errorf("discovery %+v", d)
	}
	for _, g := range []string{"authorization_code", "refresh_token", "client_credentials"} {
		if !slices.Contains(d.Grants, g) {
			t.Errorf("grant %s not advertised: %v", g, d.Grants)
		}
	}
}

func TestPKCESignInGivesVerifiableTokens(t *testing.T) {
	ctx := context.Background()
	issuer := idptest.Start(t, nil)
	res, err := idptest.SignIn(ctx, issuer, "rms-portal", "carol", "openid", "profile", "offline_access", apiScope, "unknown-scope")
	if err != nil {
		t.Fatal(err)
	}
	p, err := oidc.NewProvider(ctx, issuer)
	if err != nil {
		t.Fatal(err)
	}
	idt, err := p.Verifier(&oidc.Config{ClientID: "rms-portal"}).Verify(ctx, res.IDToken)
	if err != nil {
		t.Fatalf("id token: %v", err)
	}
	var ic tokenClaims
	_ = idt.Claims(&ic)
	if ic.Nonce != res.Nonce || ic.Subject != "carol" || ic.Name != "Carol Chen" || len(ic.Groups) != 2 {
		t.Errorf("id token claims %+v", ic)
	}
	at, err := p.Verifier(&oidc.Config{ClientID: "api://rms-portal"}).Verify(ctx, res.Token.AccessToken)
	if err != nil {
		t.Fatalf("access token: %v", err)
	}
	var ac tokenClaims
	_ = at.Claims(&ac)
	if ac.Username != "carol" || strings.Join(ac.Groups, ",") != "sg-scada-developers,sg-crm-viewers" {
		t.Errorf("access token claims %+v", ac)
	}
	if res.Token.RefreshToken == "" {
		t.Fatal("no refresh token with offline_access")
	}

	// Refresh rotates: the new token works, the old refresh token does not.
	conf := &oauth2.Config{ClientID: "rms-portal", Endpoint: oauth2.Endpoint{TokenURL: issuer + "/oauth/token", AuthStyle: oauth2.AuthStyleInParams}}
	old := res.Token.RefreshToken
	expired := *res.Token
	expired.AccessToken, expired.Expiry = "", expired.Expiry.Add(-24*3600e9)
	fresh, err := conf.TokenSource(ctx, &expired).Token()
	if err != nil {
		t.Fatalf("refresh: %v", err)
	}
	if fresh.AccessToken == "" || fresh.RefreshToken == old {
		t.Errorf("refresh gave %+v", fresh)
	}
	if _, err := p.Verifier(&oidc.Config{ClientID: "api://rms-portal"}).Verify(ctx, fresh.AccessToken); err != nil {
		t.Errorf("refreshed access token: %v", err)
	}
	reused := expired
	reused.RefreshToken = old
	if _, err := conf.TokenSource(ctx, &reused).Token(); err == nil {
		t.Error("a used refresh token worked again")
	}
}

func authorizeURL(issuer string, params map[string]string) string {
	v := url.Values{"client_id": {"rms-portal"}, "response_type": {"code"}, "scope": {"openid"}, "state": {"s1"},
		"redirect_uri": {idptest.RedirectURI}, "code_challenge": {"E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"},
		"code_challenge_method": {"S256"}}
	for k, val := range params {
		if val == "" {
			v.Del(k)
		} else {
			v.Set(k, val)
		}
	}
	return issuer + "/authorize?" + v.Encode()
}

func TestPublicClientMustUsePKCES256(t *testing.T) {
	ctx := context.Background()
	issuer := idptest.Start(t, nil)
	for name, params := range map[string]map[string]string{
		"no challenge": {"code_challenge": "", "code_challenge_method": "", "login_hint": "carol"},
		"plain":        {"code_challenge_method": "plain", "login_hint": "carol"},
	} {
		q, err := idptest.FollowToCallback(ctx, http.DefaultClient, authorizeURL(issuer, params))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if q.Get("error") != "invalid_request" || !strings.Contains(q.Get("error_description"), "S256") {
			t.Errorf("%s: redirect %v", name, q)
		}
	}
}

func TestRedirectURIs(t *testing.T) {
	issuer := idptest.Start(t, nil)
	for _, ok := range []string{"http://127.0.0.1:1234/cb", "http://127.0.0.1:65000/any/path", "http://localhost:999/callback"} {
		resp, err := http.Get(authorizeURL(issuer, map[string]string{"redirect_uri": ok}))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		// Accepted requests reach the user picker.
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "Sign in as a demo user") {
			t.Errorf("%s: %s", ok, resp.Status)
		}
	}
	for _, bad := range []string{"http://evil.example/cb", "https://127.0.0.1.evil.example/cb"} {
		resp, err := http.Get(authorizeURL(issuer, map[string]string{"redirect_uri": bad}))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%s accepted: %s", bad, resp.Status)
		}
	}
}

func TestPickerLetsAUserChoose(t *testing.T) {
	issuer := idptest.Start(t, nil)
	resp, err := http.Get(authorizeURL(issuer, nil))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	page := string(body)
	for _, want := range []string{"Alice Anders", "Erin Evans", "sg-scada-developers, sg-crm-viewers", "no groups", `data-user="frank"`} {
		if !strings.Contains(page, want) {
			t.Errorf("picker lacks %q", want)
		}
	}
	id := resp.Request.URL.Query().Get("authRequestID")
	form := url.Values{"id": {id}, "username": {"dave"}}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	post, err := client.PostForm(issuer+"/login", form)
	if err != nil {
		t.Fatal(err)
	}
	post.Body.Close()
	if post.StatusCode != http.StatusFound || !strings.Contains(post.Header.Get("Location"), "/authorize/callback?id="+id) {
		t.Errorf("choosing a user: %s %s", post.Status, post.Header.Get("Location"))
	}
	bad, err := client.PostForm(issuer+"/login", url.Values{"id": {id}, "username": {"mallory"}})
	if err != nil {
		t.Fatal(err)
	}
	bad.Body.Close()
	if bad.StatusCode != http.StatusBadRequest {
		t.Errorf("unknown user: %s", bad.Status)
	}
}

func TestClientCredentials(t *testing.T) {
	ctx := context.Background()
	issuer := idptest.Start(t, nil)
	cc := clientcredentials.Config{ClientID: "scada-ci", ClientSecret: "scada-ci-secret", TokenURL: issuer + "/oauth/token", Scopes: []string{apiScope}}
	tok, err := cc.Token(ctx)
	if err != nil {
		t.Fatal(err)
	}
	p, err := oidc.NewProvider(ctx, issuer)
	if err != nil {
		t.Fatal(err)
	}
	at, err := p.Verifier(&oidc.Config{ClientID: "api://rms-portal"}).Verify(ctx, tok.AccessToken)
	if err != nil {
		t.Fatal(err)
	}
	var c tokenClaims
	_ = at.Claims(&c)
	if c.Subject != "scada-ci" || strings.Join(c.Groups, ",") != "sg-scada-developers" {
		t.Errorf("claims %+v", c)
	}
	cc.ClientSecret = "wrong"
	if _, err := cc.Token(ctx); err == nil {
		t.Error("a wrong secret got a token")
	}
	pub := clientcredentials.Config{ClientID: "rms-portal", TokenURL: issuer + "/oauth/token"}
	if _, err := pub.Token(ctx); err == nil {
		t.Error("the public client got a client credentials token")
	}
}

func TestUnknownAuthRequestIsExplained(t *testing.T) {
	issuer := idptest.Start(t, nil)
	resp, err := http.Get(issuer + "/login?authRequestID=nope")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), "unknown or has expired") {
		t.Errorf("%s %s", resp.Status, body)
	}
}
