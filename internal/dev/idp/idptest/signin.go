// Package idptest signs demo users in against the development identity
// provider the way a command-line tool would: Authorization Code with PKCE
// through golang.org/x/oauth2, a loopback redirect URI, and login_hint to
// skip the user picker. Tests use it to get real tokens.
package idptest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"golang.org/x/oauth2"
)

// RedirectURI is a loopback address; nothing needs to listen there because
// the redirect is captured before it is followed.
const RedirectURI = "http://127.0.0.1:49152/callback"

// Result is what a sign-in yields.
type Result struct {
	Token   *oauth2.Token
	IDToken string
	Nonce   string
}

// SignIn runs the flow for username with the public client clientID.
func SignIn(ctx context.Context, issuer, clientID, username string, scopes ...string) (*Result, error) {
	conf := &oauth2.Config{
		ClientID: clientID, RedirectURL: RedirectURI, Scopes: scopes,
		Endpoint: oauth2.Endpoint{AuthURL: issuer + "/authorize", TokenURL: issuer + "/oauth/token", AuthStyle: oauth2.AuthStyleInParams},
	}
	verifier := oauth2.GenerateVerifier()
	state, nonce := random(), random()
	authURL := conf.AuthCodeURL(state, oauth2.S256ChallengeOption(verifier),
		oauth2.SetAuthURLParam("login_hint", username), oauth2.SetAuthURLParam("nonce", nonce))
	code, err := FollowToCallback(ctx, http.DefaultClient, authURL)
	if err != nil {
		return nil, err
	}
	if code.Get("state") != state {
		return nil, fmt.Errorf("state mismatch")
	}
	if e := code.Get("error"); e != "" {
		return nil, fmt.Errorf("authorization failed: %s: %s", e, code.Get("error_description"))
	}
	tok, err := conf.Exchange(ctx, code.Get("code"), oauth2.VerifierOption(verifier))
	if err != nil {
		return nil, err
	}
	idt, _ := tok.Extra("id_token").(string)
	return &Result{Token: tok, IDToken: idt, Nonce: nonce}, nil
}

// FollowToCallback follows the provider's redirects from start until one
// leads to RedirectURI, and returns that redirect's query.
func FollowToCallback(ctx context.Context, base *http.Client, start string) (url.Values, error) {
	var got url.Values
	errStop := errors.New("stop")
	client := &http.Client{
		Transport: base.Transport,
		CheckRedirect: func(req *http.Request, _ []*http.Request) error {
			if req.URL.Host == "127.0.0.1:49152" {
				got = req.URL.Query()
				return errStop
			}
			return nil
		},
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, start, nil)
	if err != nil {
		return nil, err
	}
	resp, err := client.Do(req)
	if got != nil {
		return got, nil
	}
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return nil, fmt.Errorf("the provider answered %s instead of redirecting back", resp.Status)
}

func random() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
