package httpserver

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/requestid"
)

// TestExtendWriteDeadline: a response that outlasts the server's write
// timeout arrives when its handler extended the deadline, and not
// otherwise.
func TestExtendWriteDeadline(t *testing.T) {
	e := echo.New()
	slow := func(extend bool) echo.HandlerFunc {
		return func(c echo.Context) error {
			if extend {
				ExtendWriteDeadline(c.Response(), 5*time.Second)
			}
			time.Sleep(400 * time.Millisecond)
			return c.String(http.StatusOK, "done")
		}
	}
	e.GET("/extended", slow(true))
	e.GET("/plain", slow(false))
	srv := httptest.NewUnstartedServer(e)
	srv.Config.WriteTimeout = 150 * time.Millisecond
	srv.Start()
	defer srv.Close()

	resp, err := http.Get(srv.URL + "/extended")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "done" {
		t.Errorf("extended: %q", body)
	}
	if resp, err := http.Get(srv.URL + "/plain"); err == nil {
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(body) == "done" {
			t.Error("the write timeout did not apply without the extension")
		}
	}
}

// TestForwardedForIsTrustedOnlyFromConfiguredProxies: without configured
// proxies a client on a private network cannot choose the address that is
// recorded by sending X-Forwarded-For; behind a configured proxy the
// address it forwarded is the client's, and entries a client put before
// it are not.
func TestForwardedForIsTrustedOnlyFromConfiguredProxies(t *testing.T) {
	seen := func(trusted []netip.Prefix, peer, xff string) string {
		e := New(Options{Logger: slog.New(slog.DiscardHandler), MaxBodyBytes: 1024, IsAPI: func(string) bool { return true },
			APIErrors: func(c echo.Context, err error) error { return c.String(500, err.Error()) }, TrustedProxies: trusted})
		e.GET("/ip", func(c echo.Context) error {
			return c.String(http.StatusOK, requestid.ClientFrom(c.Request().Context()).IP)
		})
		req := httptest.NewRequest(http.MethodGet, "/ip", nil)
		req.RemoteAddr = peer + ":5555"
		if xff != "" {
			req.Header.Set("X-Forwarded-For", xff)
		}
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		return rec.Body.String()
	}
	proxies := []netip.Prefix{netip.MustParsePrefix("10.1.0.0/16")}
	for _, c := range []struct {
		name    string
		trusted []netip.Prefix
		peer    string
		xff     string
		want    string
	}{
		{"no proxies, a private peer forging", nil, "10.1.2.3", "203.0.113.66", "10.1.2.3"},
		{"no proxies, loopback forging", nil, "127.0.0.1", "203.0.113.66", "127.0.0.1"},
		{"behind the proxy", proxies, "10.1.0.9", "203.0.113.9", "203.0.113.9"},
		{"behind the proxy, a forged entry first", proxies, "10.1.0.9", "198.51.100.1, 203.0.113.9", "203.0.113.9"},
		{"a peer that is not the proxy", proxies, "10.2.0.9", "203.0.113.9", "10.2.0.9"},
	} {
		if got := seen(c.trusted, c.peer, c.xff); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestQuietRoutesLogSuccessAtDebug: a quiet route's success is a debug
// line (dev mode's stand-ins), its failure a warning like any other.
func TestQuietRoutesLogSuccessAtDebug(t *testing.T) {
	var logs bytes.Buffer
	e := New(Options{Logger: slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})), MaxBodyBytes: 1024,
		IsAPI: func(string) bool { return true }, APIErrors: func(c echo.Context, err error) error { return c.NoContent(http.StatusNotFound) }})
	e.GET("/stand-in/ok", func(c echo.Context) error { return c.NoContent(http.StatusOK) }, Quiet)
	e.GET("/stand-in/gone", func(c echo.Context) error { return c.NoContent(http.StatusNotFound) }, Quiet)
	e.GET("/page", func(c echo.Context) error { return c.NoContent(http.StatusOK) })
	for _, p := range []string{"/stand-in/ok", "/stand-in/gone", "/page"} {
		e.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, p, nil))
	}
	levels := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var rec struct{ Level, Path string }
		if json.Unmarshal([]byte(line), &rec) == nil && rec.Path != "" {
			levels[rec.Path] = rec.Level
		}
	}
	if levels["/stand-in/ok"] != "DEBUG" || levels["/stand-in/gone"] != "WARN" || levels["/page"] != "INFO" {
		t.Errorf("levels %v", levels)
	}
}
