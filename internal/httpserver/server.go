// Package httpserver assembles the HTTP server shared by both front doors:
// request ids, one log line per request, panic recovery, security headers,
// body limits, error rendering, health endpoints and graceful shutdown.
package httpserver

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"go.opentelemetry.io/otel/trace"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/requestid"
	"github.com/edh-platform/rms-portal/internal/upstream"
)

// ErrorRenderer renders an error for one front door.
type ErrorRenderer func(c echo.Context, err error) error

// Options configure the server.
type Options struct {
	Logger       *slog.Logger
	MaxBodyBytes int64
	// IsAPI tells which requests get API error records; others get pages.
	IsAPI     func(path string) bool
	APIErrors ErrorRenderer
	// PageErrors renders errors of the HTML front door.
	PageErrors ErrorRenderer
	// IdentityOrigin is the identity provider's origin (scheme and host):
	// pages may send forms there (sign-out) and the API docs may call it
	// (token requests).
	IdentityOrigin string
	// HSTS turns on Strict-Transport-Security (the portal runs on https).
	HSTS bool
	// Observe wraps every routed request before it is logged (traces and
	// metrics); nil for none.
	Observe echo.MiddlewareFunc
	// TrustedProxies are the proxies whose X-Forwarded-For is believed;
	// without any, a client's address is its connection's.
	TrustedProxies []netip.Prefix
}

// headKey marks a HEAD request served as GET.
const headKey = "rms.head"

// quietKey marks a request whose success is logged at debug level.
const quietKey = "rms.quiet"

// Quiet is route middleware for requests that are not worth a line of
// the log when they succeed (dev mode's stand-ins, called by the portal
// itself); failures are logged as any other.
func Quiet(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		c.Set(quietKey, true)
		return next(c)
	}
}

// New returns an echo instance with the shared middleware installed.
func New(o Options) *echo.Echo {
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.IPExtractor = ipExtractor(o.TrustedProxies)
	e.HTTPErrorHandler = func(err error, c echo.Context) {
		if c.Response().Committed {
			return
		}
		render := o.PageErrors
		if o.IsAPI(c.Request().URL.Path) || render == nil {
			render = o.APIErrors
		}
		if rerr := render(c, err); rerr != nil {
			o.Logger.ErrorContext(c.Request().Context(), "rendering an error failed", "error", rerr)
		}
	}
	// HEAD is GET without a body (net/http drops the body of a HEAD
	// response), so every page and API read answers it. Routing reads the
	// original request's method, so it becomes GET here; once routed, the
	// handlers get a GET copy and the original turns back into HEAD, which
	// net/http (which holds it) reads when it writes the response.
	e.Pre(func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if r := c.Request(); r.Method == http.MethodHead {
				r.Method = http.MethodGet
				c.Set(headKey, r)
			}
			return next(c)
		}
	})
	e.Use(func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if orig, ok := c.Get(headKey).(*http.Request); ok {
				c.SetRequest(orig.Clone(orig.Context()))
				orig.Method = http.MethodHead
			}
			return next(c)
		}
	})
	observe := o.Observe
	if observe == nil {
		observe = func(next echo.HandlerFunc) echo.HandlerFunc { return next }
	}
	e.Use(withRequestID(o.IsAPI), timeRequests, observe, logRequests(o.Logger), recoverPanics, securityHeaders(o), limitHeaders,
		compress(), middleware.BodyLimit(fmt.Sprintf("%dB", o.MaxBodyBytes)))
	return e
}

// ipExtractor finds a client's address: the connection's, or behind
// configured proxies the last X-Forwarded-For entry that no trusted proxy
// added. Nothing is trusted by default, not even private networks: on a
// shared network a caller could otherwise choose the address that the
// audit trail and the per-address limits record.
func ipExtractor(trusted []netip.Prefix) echo.IPExtractor {
	if len(trusted) == 0 {
		return echo.ExtractIPDirect()
	}
	opts := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false)}
	for _, p := range trusted {
		_, n, err := net.ParseCIDR(p.Masked().String())
		if err == nil {
			opts = append(opts, echo.TrustIPRange(n))
		}
	}
	return echo.ExtractIPFromXFFHeader(opts...)
}

// compress gzips pages of 1 KiB or more, and API answers of 16 KiB or
// more, for clients that accept it, at the fastest level. A page of 100
// topics (about 15 KB of JSON) costs more CPU to compress than its bytes
// cost to send between a pipeline and the portal; pages go to browsers
// over slower links. Static files come precompressed (brotli or gzip)
// from their own handler, and /metrics compresses itself.
func compress() echo.MiddlewareFunc {
	gzip := func(min int) echo.MiddlewareFunc {
		return middleware.GzipWithConfig(middleware.GzipConfig{Level: 1, MinLength: min})
	}
	pages, api := gzip(1024), gzip(16<<10)
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		pagesNext, apiNext := pages(next), api(next)
		return func(c echo.Context) error {
			switch p := c.Request().URL.Path; {
			case strings.HasPrefix(p, "/static/") || p == "/metrics":
				return next(c)
			case strings.HasPrefix(p, "/api/"):
				return apiNext(c)
			}
			return pagesNext(c)
		}
	}
}

// withRequestID gives the request its id and its client (address, user
// agent, and the door: isAPI tells the API's paths).
func withRequestID(isAPI func(path string) bool) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return requestIDs(isAPI, next)
	}
}

func requestIDs(isAPI func(path string) bool, next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		id := c.Request().Header.Get(requestid.Header)
		if !requestid.Valid(id) {
			id = requestid.New()
		}
		c.Response().Header().Set(requestid.Header, id)
		req := c.Request()
		ctx := requestid.With(req.Context(), id)
		ua := req.UserAgent()
		if len(ua) > 300 {
			ua = ua[:300]
		}
		door := requestid.DoorOf(ctx)
		if door == "" {
			door = requestid.DoorPortal
			if isAPI != nil && isAPI(req.URL.Path) {
				door = requestid.DoorAPI
			}
		}
		ctx = requestid.WithClient(ctx, requestid.Client{IP: c.RealIP(), UserAgent: ua, Door: door})
		// What a write let through with a warning (a policy in warn mode)
		// goes out with the answer as Warning headers (RFC 9111 §5.5, as
		// Kubernetes answers its admission warnings), whichever door.
		ctx, warnings := portal.WithWarnings(ctx)
		c.Response().Before(func() {
			for _, w := range warnings.List() {
				c.Response().Header().Add("Warning", WarningHeader(w))
			}
		})
		c.SetRequest(req.WithContext(ctx))
		return next(c)
	}
}

// WarningHeader is a warning as a Warning header's value: code 299 (a
// persistent warning), no agent, the text quoted on one line.
func WarningHeader(text string) string {
	text = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, portal.Clip(text, portal.MaxMessage))
	return `299 - "` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(text) + `"`
}

// logRequests renders errors and writes the request's one log line, so
// that every error is logged once, with the request id.
func logRequests(log *slog.Logger) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			start := time.Now()
			err := next(c)
			if err != nil {
				c.Error(err)
			}
			req, res := c.Request(), c.Response()
			level := slog.LevelInfo
			switch {
			case res.Status >= 500:
				level = slog.LevelError
			case res.Status >= 400:
				level = slog.LevelWarn
			case c.Path() == "/static/*" || c.Path() == "/healthz" || c.Path() == "/readyz" || c.Get(quietKey) != nil:
				level = slog.LevelDebug
			}
			attrs := []slog.Attr{
				slog.String("method", portal.Clip(req.Method, 16)), slog.String("path", portal.Clip(req.URL.Path, 1024)), slog.String("route", c.Path()),
				slog.Int("status", res.Status), slog.Int64("bytes", res.Size),
				slog.Float64("ms", millis(time.Since(start))),
			}
			if up, calls := upstream.WaitsFrom(req.Context()).Total(time.Now()); calls > 0 {
				attrs = append(attrs, slog.Float64("upstream_ms", millis(up)), slog.Int("upstream_calls", calls))
			}
			if p := portal.PrincipalFrom(c.Request().Context()); p != nil {
				attrs = append(attrs, slog.String("actor", p.Actor()))
			}
			if sc := trace.SpanContextFromContext(req.Context()); sc.HasTraceID() {
				attrs = append(attrs, slog.String("trace_id", sc.TraceID().String()))
			}
			if err != nil {
				attrs = append(attrs, slog.String("error", portal.Clip(err.Error(), 2*portal.MaxMessage)))
			}
			log.LogAttrs(req.Context(), level, "request", attrs...)
			return nil
		}
	}
}

// MaxHeaderBytes bounds a request's headers; the server reads up to 16
// times more, so that an oversized request still gets an error record
// rather than net/http's plain-text 431.
const MaxHeaderBytes = 64 << 10

func limitHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		n := len(c.Request().RequestURI)
		for k, vs := range c.Request().Header {
			for _, v := range vs {
				n += len(k) + len(v) + 4
			}
		}
		if n > MaxHeaderBytes {
			return echo.NewHTTPError(http.StatusRequestHeaderFieldsTooLarge, fmt.Sprintf("the request's headers are too large (%d bytes; at most %d)", n, MaxHeaderBytes))
		}
		return next(c)
	}
}

func recoverPanics(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) (err error) {
		defer func() {
			if r := recover(); r != nil {
				if r == http.ErrAbortHandler {
					panic(r)
				}
				err = fmt.Errorf("panic: %v\n%s", r, debug.Stack())
			}
		}()
		return next(c)
	}
}

// securityHeaders sets the headers every response carries, and a strict
// Content-Security-Policy with a fresh nonce per response: scripts and
// styles come from the portal itself or carry the nonce (templ reads it
// from the context), nothing inline runs, and no other site may frame a
// page. The API docs allow Swagger UI's inline styles and token requests
// to the identity provider; API answers allow nothing at all.
func securityHeaders(o Options) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			b := make([]byte, 16)
			_, _ = rand.Read(b)
			nonce := base64.StdEncoding.EncodeToString(b)
			req := c.Request()
			c.SetRequest(req.WithContext(templ.WithNonce(req.Context(), nonce)))
			h := c.Response().Header()
			h.Set("X-Content-Type-Options", "nosniff")
			h.Set("X-Frame-Options", "DENY")
			h.Set("Referrer-Policy", "same-origin")
			h.Set("Content-Security-Policy", policy(req.URL.Path, nonce, o.IdentityOrigin))
			if o.HSTS {
				h.Set("Strict-Transport-Security", "max-age=31536000; includeSubDomains")
			}
			return next(c)
		}
	}
}

// policy is the Content-Security-Policy of a path.
func policy(path, nonce, idp string) string {
	const base = "object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
	switch {
	case strings.HasPrefix(path, "/api/"):
		return "default-src 'none'; " + base
	case strings.HasPrefix(path, "/api-docs"):
		return "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
			"connect-src 'self' " + idp + "; form-action 'self' " + idp + "; " + base
	}
	return "default-src 'self'; script-src 'self' 'nonce-" + nonce + "'; style-src 'self' 'nonce-" + nonce + "'; " +
		"img-src 'self' data:; connect-src 'self'; form-action 'self' " + idp + "; " + base
}

// Stop is how Serve stops once its context ends.
type Stop struct {
	// Drain is how long the listener keeps serving after the context
	// ends: readiness fails (Draining) and every answer closes its
	// connection, so that load balancers take the process out and open
	// new connections elsewhere before it stops listening.
	Drain time.Duration
	// Grace bounds the wait for requests in flight once the listener is
	// closed.
	Grace time.Duration
	// Draining, when set, is called as the drain begins.
	Draining func()
}

// Serve runs the server on l until ctx ends, then drains and shuts it
// down gracefully (Stop).
func Serve(ctx context.Context, e *echo.Echo, l net.Listener, stop Stop, log *slog.Logger) error {
	var draining atomic.Bool
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if draining.Load() {
				// The client opens its next connection elsewhere; a
				// connection closed while idle could race a request.
				w.Header().Set("Connection", "close")
			}
			e.ServeHTTP(w, r)
		}),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    16 * MaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(l) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	draining.Store(true)
	if stop.Draining != nil {
		stop.Draining()
	}
	if stop.Drain > 0 {
		log.Info("draining: not ready, still serving", "drain", stop.Drain.String())
		t := time.NewTimer(stop.Drain)
		select {
		case <-t.C:
		case err := <-errc:
			t.Stop()
			return err
		}
	}
	log.Info("shutting down: the listener is closed, requests in flight finish", "grace", stop.Grace.String())
	sctx, cancel := context.WithTimeout(context.Background(), stop.Grace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// ExtendWriteDeadline gives one response more time than the server's
// WriteTimeout, for the few requests that legitimately run long (bulk
// creates). It is best effort: a writer that cannot say keeps the default.
func ExtendWriteDeadline(w http.ResponseWriter, d time.Duration) {
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(d))
}
