package upstream

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// Transport runs every HTTP request of a client through an upstream, for
// libraries that make their own requests (OpenID Connect discovery and key
// sets). A 5xx answer counts as a failure but is handed on as it came; a
// transport error becomes UpstreamUnavailable or UpstreamTimeout; an open
// circuit answers at once.
func Transport(u *Upstream, base http.RoundTripper) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	return &transport{up: u, base: base}
}

type transport struct {
	up   *Upstream
	base http.RoundTripper
}

var errServerFailed = errors.New("the server failed")

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	var resp *http.Response
	err := t.up.Call(req.Context(), req.Method+" "+lastSegments(req.URL.Path), func(ctx context.Context) error {
		r, err := t.base.RoundTrip(req.WithContext(ctx))
		if err != nil {
			if errors.Is(err, context.DeadlineExceeded) {
				return Unwell(portal.Wrap(err, portal.UpstreamTimeout, "%s did not answer in time", req.URL.Host))
			}
			if errors.Is(err, context.Canceled) {
				return err
			}
			return Unwell(portal.Wrap(err, portal.UpstreamUnavailable, "%s cannot be reached", req.URL.Host))
		}
		resp = r
		if r.StatusCode >= 500 {
			return Unwell(portal.Wrap(errServerFailed, portal.UpstreamUnavailable, "%s answered %d", req.URL.Host, r.StatusCode))
		}
		return nil
	})
	if resp != nil {
		return resp, nil
	}
	return nil, err
}

// lastSegments keeps the end of a path that names the operation
// (".well-known/openid-configuration", "keys", "oauth/token").
func lastSegments(path string) string {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	if len(parts) > 2 {
		parts = parts[len(parts)-2:]
	}
	return strings.Join(parts, "/")
}
