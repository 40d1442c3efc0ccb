// Package confluent holds the Confluent Cloud REST adapters: Connect v1
// (fully-managed connectors), and the IAM and identity-provider APIs. They
// share one HTTP client with basic auth (a Cloud API key), a deadline on
// every call, retries with backoff for 429 and 5xx that honour
// Retry-After, and decoding of Confluent's error bodies.
package confluent

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/upstream"
)

// Options configure a Client.
type Options struct {
	BaseURL   string
	APIKey    string
	APISecret string
	// Timeout bounds one call, retries included.
	Timeout time.Duration
	// MaxRetries bounds retries of one call; 4 by default.
	MaxRetries int
	Logger     *slog.Logger
	// HTTPClient may be replaced in tests.
	HTTPClient *http.Client
	// Upstreams, when set, guard every request: one upstream per API
	// (Connect, IAM, identity pools), named Name.
	Upstreams *upstream.Registry
	Name      string
	// Cache, when set, is told about lookups in the adapters' caches.
	Cache platform.CacheObserver
}

// Client calls the Confluent Cloud API.
type Client struct {
	base       string
	key        string
	secret     string
	timeout    time.Duration
	maxRetries int
	http       *http.Client
	log        *slog.Logger
	// backoff is the wait before retry n (from 1); tests shorten it.
	backoff func(n int) time.Duration
	ups     *upstream.Registry
	name    string
	cache   platform.CacheObserver
}

// NewClient returns a client for the Cloud API at o.BaseURL.
func NewClient(o Options) *Client {
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	if o.MaxRetries == 0 {
		o.MaxRetries = 4
	}
	if o.HTTPClient == nil {
		o.HTTPClient = &http.Client{}
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	c := &Client{base: strings.TrimSuffix(o.BaseURL, "/"), key: o.APIKey, secret: o.APISecret, timeout: o.Timeout,
		maxRetries: o.MaxRetries, http: o.HTTPClient, log: o.Logger, backoff: expBackoff, ups: o.Upstreams,
		name: cmp.Or(o.Name, o.BaseURL), cache: o.Cache}
	if c.cache == nil {
		c.cache = func(string, bool) {}
	}
	return c
}

func expBackoff(n int) time.Duration {
	d := 200 * time.Millisecond << (n - 1)
	return d/2 + time.Duration(rand.Int64N(int64(d)/2+1))
}

// APIError is an error response of the Cloud API, whatever its body shape.
type APIError struct {
	Status     int
	Message    string
	RetryAfter time.Duration
}

func (e *APIError) Error() string { return fmt.Sprintf("confluent cloud: %d: %s", e.Status, e.Message) }

// call is one request.
type call struct {
	method string
	path   string
	query  url.Values
	body   any
	out    any
	// safe requests may be retried after a 5xx: the API either did not
	// act or acting again changes nothing.
	safe bool
}

// do sends a request through its API's upstream (circuit breaker,
// health, metrics), retrying what may be retried, and decodes a JSON
// answer into r.out. Errors are fault errors.
func (c *Client) do(ctx context.Context, r call) error {
	kind, op := operation(r.method, r.path)
	send := func(ctx context.Context) error { return permissionFor(c.send0(ctx, r), kind, op) }
	if c.ups == nil {
		return send(ctx)
	}
	return c.ups.Get(kind, c.name).Call(ctx, op, send)
}

// literals are the path segments that name operations; any other segment
// is an id and is left out of the operation's name, which metrics use.
var literals = map[string]bool{"connect": true, "v1": true, "environments": true, "clusters": true, "connectors": true,
	"connector-plugins": true, "config": true, "validate": true, "status": true, "pause": true, "resume": true,
	"restart": true, "iam": true, "v2": true, "service-accounts": true, "role-bindings": true,
	"identity-providers": true, "identity-pools": true, "api-keys": true, "service-quota": true, "applied-quotas": true}

// operation names a request's API and operation ("GET connectors/{}/status").
func operation(method, path string) (kind, op string) {
	kind = upstream.IAM
	switch {
	case strings.HasPrefix(path, "/v2/metrics/"):
		return upstream.Metrics, method + " " + path
	case strings.HasPrefix(path, "/billing/"):
		return upstream.Billing, method + " " + path
	case strings.HasPrefix(path, "/connect/"):
		kind = upstream.Connect
	case strings.Contains(path, "/identity-pools"):
		kind = upstream.IdentityPools
	}
	var parts []string
	for _, seg := range strings.Split(strings.Trim(path, "/"), "/") {
		switch {
		case literals[seg] && seg != "connect" && seg != "iam" && seg != "v1" && seg != "v2" && seg != "environments" && seg != "clusters":
			parts = append(parts, seg)
		case !literals[seg] && len(parts) > 0 && parts[len(parts)-1] != "{}":
			parts = append(parts, "{}")
		}
	}
	return kind, method + " " + strings.Join(parts, "/")
}

// send0 sends a request, retrying what may be retried.
func (c *Client) send0(ctx context.Context, r call) error {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	var payload []byte
	if r.body != nil {
		var err error
		if payload, err = json.Marshal(r.body); err != nil {
			return fmt.Errorf("encode request: %w", err)
		}
	}
	u := c.base + r.path
	if len(r.query) > 0 {
		u += "?" + r.query.Encode()
	}
	for attempt := 0; ; attempt++ {
		resp, err := c.send(ctx, r.method, u, payload)
		var apiErr *APIError
		switch {
		case err == nil:
			return decodeInto(resp, r.out)
		case errors.As(err, &apiErr):
			retry := apiErr.Status == http.StatusTooManyRequests || (apiErr.Status >= 500 && r.safe)
			if !retry || attempt >= c.maxRetries {
				return c.translate(err)
			}
			wait := c.backoff(attempt + 1)
			if apiErr.RetryAfter > 0 {
				wait = apiErr.RetryAfter
			}
			if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
				return c.translate(err) // the caller learns when to come back
			}
			c.log.DebugContext(ctx, "retrying a Confluent Cloud call", "method", r.method, "path", r.path, "status", apiErr.Status, "wait", wait)
			if !sleep(ctx, wait) {
				return c.translate(ctx.Err())
			}
		default:
			if !r.safe || attempt >= c.maxRetries || ctx.Err() != nil {
				return c.translate(err)
			}
			if !sleep(ctx, c.backoff(attempt+1)) {
				return c.translate(ctx.Err())
			}
		}
	}
}

func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// send performs one HTTP exchange; non-2xx answers become *APIError.
func (c *Client) send(ctx context.Context, method, u string, payload []byte) ([]byte, error) {
	var body io.Reader
	if payload != nil {
		body = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, body)
	if err != nil {
		return nil, err
	}
	req.SetBasicAuth(c.key, c.secret)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "rms-portal")
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return data, nil
	}
	e := &APIError{Status: resp.StatusCode, Message: errorMessage(data, resp.Status)}
	if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s >= 0 {
		e.RetryAfter = time.Duration(s) * time.Second
	}
	return nil, e
}

// errorMessage reads Confluent's error bodies: {"error": {"code", "message"}},
// {"error_code", "message"} or {"code", "message"}, and the IAM APIs'
// {"errors": [{"detail"}]}.
func errorMessage(data []byte, fallback string) string {
	var shapes struct {
		Error     json.RawMessage `json:"error"`
		ErrorCode int             `json:"error_code"`
		Code      json.RawMessage `json:"code"`
		Message   string          `json:"message"`
		Errors    []struct {
			Status string `json:"status"`
			Title  string `json:"title"`
			Detail string `json:"detail"`
		} `json:"errors"`
	}
	if json.Unmarshal(data, &shapes) != nil {
		if s := strings.TrimSpace(string(data)); s != "" && len(s) < 300 {
			return s
		}
		return fallback
	}
	if len(shapes.Error) > 0 && shapes.Error[0] == '{' {
		var inner struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(shapes.Error, &inner) == nil && inner.Message != "" {
			return inner.Message
		}
	}
	if shapes.Message != "" {
		return shapes.Message
	}
	var parts []string
	for _, e := range shapes.Errors {
		if e.Detail != "" {
			parts = append(parts, e.Detail)
		} else if e.Title != "" {
			parts = append(parts, e.Title)
		}
	}
	if len(parts) > 0 {
		return strings.Join(parts, "; ")
	}
	return fallback
}

func decodeInto(data []byte, out any) error {
	if out == nil || len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return upstream.Unwell(portal.Wrap(err, portal.UpstreamUnavailable, "Confluent Cloud answered with an unreadable body"))
	}
	return nil
}
