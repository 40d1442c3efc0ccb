// Package httpserver assembles the HTTP server shared by both front doors:
// request ids, one log line per request, panic recovery, security headers,
// body limits, error rendering, health endpoints and graceful shutdown.
package httpserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/edh-platform/rms-portal/internal/requestid"
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
}

// New returns an echo instance with the shared middleware installed.
func New(o Options) *echo.Echo {
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	// The client's address is the peer's, or the X-Forwarded-For entry
	// left by a proxy on a private or loopback address (an ingress); a
	// client cannot forge it from outside.
	e.IPExtractor = echo.ExtractIPFromXFFHeader()
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
	e.Use(withRequestID, logRequests(o.Logger), recoverPanics, securityHeaders,
		middleware.BodyLimit(fmt.Sprintf("%dB", o.MaxBodyBytes)))
	return e
}

func withRequestID(next echo.HandlerFunc) echo.HandlerFunc {
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
		ctx = requestid.WithClient(ctx, requestid.Client{IP: c.RealIP(), UserAgent: ua})
		c.SetRequest(req.WithContext(ctx))
		return next(c)
	}
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
			case c.Path() == "/static/*" || c.Path() == "/healthz" || c.Path() == "/readyz":
				level = slog.LevelDebug
			}
			attrs := []slog.Attr{
				slog.String("method", req.Method), slog.String("path", req.URL.Path), slog.String("route", c.Path()),
				slog.Int("status", res.Status), slog.Int64("bytes", res.Size),
				slog.Float64("ms", float64(time.Since(start).Microseconds())/1000),
			}
			if err != nil {
				attrs = append(attrs, slog.String("error", err.Error()))
			}
			log.LogAttrs(req.Context(), level, "request", attrs...)
			return nil
		}
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

func securityHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "same-origin")
		return next(c)
	}
}

// Serve runs the server on l until ctx ends, then shuts it down gracefully,
// letting requests in flight finish for up to grace.
func Serve(ctx context.Context, e *echo.Echo, l net.Listener, grace time.Duration, log *slog.Logger) error {
	srv := &http.Server{
		Handler:           e,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
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
	log.Info("shutting down", "grace", grace.String())
	sctx, cancel := context.WithTimeout(context.Background(), grace)
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
