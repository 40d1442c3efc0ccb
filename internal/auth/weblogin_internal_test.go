package auth

import (
	"errors"
	"net/http"
	"testing"

	"golang.org/x/oauth2"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// TestTokenFailures: the token endpoint refusing a code is the caller's
// (401); the identity provider out of reach or failing is the platform's
// (503 with Retry-After).
func TestTokenFailures(t *testing.T) {
	cases := []struct {
		err  error
		want portal.Kind
	}{
		{&oauth2.RetrieveError{Response: &http.Response{StatusCode: 400}, ErrorCode: "invalid_grant"}, portal.Unauthenticated},
		{&oauth2.RetrieveError{Response: &http.Response{StatusCode: 401}}, portal.Unauthenticated},
		{&oauth2.RetrieveError{Response: &http.Response{StatusCode: 502}}, portal.UpstreamUnavailable},
		{errors.New(`Post "https://idp/token": dial tcp 127.0.0.1:1: connect: connection refused`), portal.UpstreamUnavailable},
	}
	for _, c := range cases {
		err := tokenFailure(c.err, "refused", "unreachable")
		if !portal.Is(err, c.want) {
			t.Errorf("%v: %v, want %s", c.err, err, c.want)
		}
		if c.want == portal.UpstreamUnavailable && portal.Problems(err)[0].RetryAfter == 0 {
			t.Errorf("%v: no Retry-After", c.err)
		}
	}
}
