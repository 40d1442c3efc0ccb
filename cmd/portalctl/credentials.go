package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// credential is what portalctl keeps per portal: the token and how to
// renew it. A client secret is never stored; pipelines pass it in the
// environment each run.
type credential struct {
	Token    *oauth2.Token `json:"token"`
	TokenURL string        `json:"token_url"`
	ClientID string        `json:"client_id"`
	Scopes   []string      `json:"scopes"`
}

// credentialsPath is the file of cached tokens: in the user's config
// directory, or $PORTALCTL_CONFIG_DIR.
func (o *options) credentialsPath() (string, error) {
	dir, ok := o.getenv("PORTALCTL_CONFIG_DIR")
	if !ok || dir == "" {
		base, err := os.UserConfigDir()
		if err != nil {
			return "", err
		}
		dir = filepath.Join(base, "portalctl")
	}
	return filepath.Join(dir, "credentials.json"), nil
}

func (o *options) loadCredentials() (map[string]credential, error) {
	path, err := o.credentialsPath()
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]credential{}, nil
	}
	if err != nil {
		return nil, err
	}
	out := map[string]credential{}
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("%s is damaged (%v); delete it and sign in again", path, err)
	}
	return out, nil
}

// saveCredential writes the server's credential, readable by the user
// only (0600, in a 0700 directory).
func (o *options) saveCredential(c *credential) error {
	all, err := o.loadCredentials()
	if err != nil {
		all = map[string]credential{}
	}
	if c == nil {
		delete(all, o.serverKey())
	} else {
		all[o.serverKey()] = *c
	}
	path, err := o.credentialsPath()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	b, err := json.MarshalIndent(all, "", "  ")
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

func (o *options) serverKey() string { return strings.TrimRight(o.server, "/") }

// httpClient is an HTTP client that authenticates as the signed-in user
// or, with $PORTALCTL_CLIENT_ID and $PORTALCTL_CLIENT_SECRET, as a
// pipeline's client (client credentials). A renewed token is saved.
func (o *options) httpClient(ctx context.Context) (*http.Client, error) {
	// An apply may take the server's whole budget (10 minutes) to answer.
	base := &http.Client{Timeout: 12 * time.Minute}
	ctx = context.WithValue(ctx, oauth2.HTTPClient, base)
	id, _ := o.getenv("PORTALCTL_CLIENT_ID")
	secret, _ := o.getenv("PORTALCTL_CLIENT_SECRET")
	if id != "" && secret != "" {
		ep, err := o.discover(ctx)
		if err != nil {
			return nil, err
		}
		cc := clientcredentials.Config{ClientID: id, ClientSecret: secret, TokenURL: ep.tokenURL, Scopes: []string{ep.apiScope}}
		return oauth2.NewClient(ctx, cc.TokenSource(ctx)), nil
	}
	all, err := o.loadCredentials()
	if err != nil {
		return nil, err
	}
	c, ok := all[o.serverKey()]
	if !ok || c.Token == nil {
		return nil, fmt.Errorf("not signed in to %s: run portalctl login (or set $PORTALCTL_CLIENT_ID and $PORTALCTL_CLIENT_SECRET)", o.serverKey())
	}
	cfg := oauth2.Config{ClientID: c.ClientID, Endpoint: oauth2.Endpoint{TokenURL: c.TokenURL, AuthStyle: oauth2.AuthStyleInParams}, Scopes: c.Scopes}
	src := &savingSource{src: cfg.TokenSource(ctx, c.Token), last: c.Token.AccessToken, save: func(t *oauth2.Token) error {
		c.Token = t
		return o.saveCredential(&c)
	}}
	return oauth2.NewClient(ctx, src), nil
}

// savingSource saves a token the refresh token renewed.
type savingSource struct {
	src  oauth2.TokenSource
	last string
	save func(*oauth2.Token) error
}

func (s *savingSource) Token() (*oauth2.Token, error) {
	t, err := s.src.Token()
	if err != nil {
		return nil, fmt.Errorf("the session has ended (%w); run portalctl login", err)
	}
	if t.AccessToken != s.last {
		s.last = t.AccessToken
		if err := s.save(t); err != nil {
			return nil, err
		}
	}
	return t, nil
}
