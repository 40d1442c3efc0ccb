package main

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// endpoints are the identity provider's, as the portal's API document
// publishes them for its own sign-in.
type endpoints struct {
	authURL, tokenURL, apiScope string
	// clientID is the public client people sign in with.
	clientID string
}

// discover reads the identity provider's endpoints and the API's scope
// from the portal's OpenAPI document.
func (o *options) discover(ctx context.Context) (endpoints, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, o.serverKey()+"/api-docs/openapi.json", nil)
	if err != nil {
		return endpoints{}, err
	}
	resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
	if err != nil {
		return endpoints{}, fmt.Errorf("reaching the portal at %s: %w", o.serverKey(), err)
	}
	defer resp.Body.Close()
	var doc struct {
		Components struct {
			SecuritySchemes map[string]struct {
				ClientID string `json:"x-client-id"`
				Flows    struct {
					AuthorizationCode struct {
						AuthorizationURL string            `json:"authorizationUrl"`
						TokenURL         string            `json:"tokenUrl"`
						Scopes           map[string]string `json:"scopes"`
					} `json:"authorizationCode"`
				} `json:"flows"`
			} `json:"securitySchemes"`
		} `json:"components"`
	}
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&doc) != nil {
		return endpoints{}, fmt.Errorf("%s/api-docs/openapi.json did not describe the sign-in (status %d); is --server the portal?", o.serverKey(), resp.StatusCode)
	}
	scheme := doc.Components.SecuritySchemes["oidc"]
	f := scheme.Flows.AuthorizationCode
	ep := endpoints{authURL: f.AuthorizationURL, tokenURL: f.TokenURL, clientID: scheme.ClientID}
	for s := range f.Scopes {
		if strings.HasSuffix(s, "/.default") {
			ep.apiScope = s
		}
	}
	if ep.tokenURL == "" || ep.apiScope == "" {
		return endpoints{}, errors.New("the portal's API document names no token endpoint or API scope")
	}
	return ep, nil
}

func loginCmd(o *options) *cobra.Command {
	var (
		clientID, hint string
		noBrowser, cc  bool
	)
	cmd := &cobra.Command{
		Use:   "login",
		Short: "Sign in (Authorization Code with PKCE in the browser, or client credentials)",
		Long: `Signs in and keeps the tokens in the user's config directory (0600),
renewing them with the refresh token.

In a browser: portalctl listens on a loopback address for the provider's
redirect. For pipelines: --client-credentials with $PORTALCTL_CLIENT_ID and
$PORTALCTL_CLIENT_SECRET (other commands use those variables directly too).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			ep, err := o.discover(ctx)
			if err != nil {
				return err
			}
			if cc {
				id, _ := o.getenv("PORTALCTL_CLIENT_ID")
				secret, _ := o.getenv("PORTALCTL_CLIENT_SECRET")
				if id == "" || secret == "" {
					return errors.New("--client-credentials needs $PORTALCTL_CLIENT_ID and $PORTALCTL_CLIENT_SECRET")
				}
				t, err := (&clientcredentials.Config{ClientID: id, ClientSecret: secret, TokenURL: ep.tokenURL, Scopes: []string{ep.apiScope}}).Token(ctx)
				if err != nil {
					return fmt.Errorf("the identity provider refused the client credentials: %w", err)
				}
				fmt.Fprintf(o.stderr, "Signed in to %s as client %s (token until %s).\n", o.serverKey(), id, t.Expiry.Format(time.RFC3339))
				return o.saveCredential(&credential{Token: t, TokenURL: ep.tokenURL, ClientID: id})
			}
			if clientID == "" {
				clientID = cmp.Or(ep.clientID, "rms-portal")
			}
			return o.browserLogin(ctx, ep, clientID, hint, noBrowser)
		},
	}
	cmd.Flags().StringVar(&clientID, "client-id", "", "the public client for people (default: the one the portal's API document names)")
	cmd.Flags().StringVar(&hint, "login-hint", "", "the user to sign in as (the provider's login_hint)")
	cmd.Flags().BoolVar(&noBrowser, "no-browser", false, "print the sign-in address instead of opening a browser")
	cmd.Flags().BoolVar(&cc, "client-credentials", false, "sign in as a pipeline's client")
	return cmd
}

func (o *options) browserLogin(ctx context.Context, ep endpoints, clientID, hint string, noBrowser bool) error {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	defer l.Close()
	cfg := oauth2.Config{ClientID: clientID, RedirectURL: "http://" + l.Addr().String() + "/callback",
		Endpoint: oauth2.Endpoint{AuthURL: ep.authURL, TokenURL: ep.tokenURL, AuthStyle: oauth2.AuthStyleInParams},
		Scopes:   []string{"openid", "profile", "offline_access", ep.apiScope}}
	verifier := oauth2.GenerateVerifier()
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return err
	}
	state := hex.EncodeToString(b)
	opts := []oauth2.AuthCodeOption{oauth2.S256ChallengeOption(verifier)}
	if hint != "" {
		opts = append(opts, oauth2.SetAuthURLParam("login_hint", hint))
	}
	authURL := cfg.AuthCodeURL(state, opts...)
	type result struct {
		code string
		err  error
	}
	done := make(chan result, 1)
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/callback" {
			http.NotFound(w, r)
			return
		}
		q := r.URL.Query()
		var res result
		switch {
		case q.Get("state") != state:
			res.err = errors.New("the sign-in answer does not match the request (state); try again")
		case q.Get("error") != "":
			res.err = fmt.Errorf("the identity provider refused: %s %s", q.Get("error"), q.Get("error_description"))
		default:
			res.code = q.Get("code")
		}
		msg := "Signed in. You can close this tab and return to portalctl."
		if res.err != nil {
			msg = res.err.Error()
		}
		fmt.Fprintf(w, "<!doctype html><title>portalctl</title><p>%s</p>", html.EscapeString(msg))
		select {
		case done <- res:
		default:
		}
	})}
	go func() { _ = srv.Serve(l) }()
	defer srv.Close()
	fmt.Fprintf(o.stderr, "Sign in at:\n%s\n", authURL)
	if !noBrowser {
		openBrowser(authURL)
	}
	var res result
	select {
	case res = <-done:
	case <-time.After(5 * time.Minute):
		return errors.New("no sign-in within 5 minutes")
	case <-ctx.Done():
		return ctx.Err()
	}
	if res.err != nil {
		return res.err
	}
	t, err := cfg.Exchange(ctx, res.code, oauth2.VerifierOption(verifier))
	if err != nil {
		return fmt.Errorf("exchanging the code: %w", err)
	}
	fmt.Fprintf(o.stderr, "Signed in to %s.\n", o.serverKey())
	return o.saveCredential(&credential{Token: t, TokenURL: ep.tokenURL, ClientID: clientID, Scopes: cfg.Scopes})
}

func openBrowser(u string) {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", u)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", u)
	default:
		cmd = exec.Command("xdg-open", u)
	}
	_ = cmd.Start() // the address is printed; a missing opener is fine
}

func logoutCmd(o *options) *cobra.Command {
	return &cobra.Command{
		Use:   "logout",
		Short: "Forget the tokens kept for the server",
		Args:  cobra.NoArgs,
		RunE:  func(*cobra.Command, []string) error { return o.saveCredential(nil) },
	}
}
