package httpserver

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
)

// TestServeDrainsBeforeItStops: when its context ends, Serve says it is
// draining, keeps answering new requests for the drain period (each
// answer closing its connection), lets the request in flight finish, and
// only then closes the listener.
func TestServeDrainsBeforeItStops(t *testing.T) {
	e := echo.New()
	release := make(chan struct{})
	started := make(chan struct{})
	e.GET("/slow", func(c echo.Context) error {
		close(started)
		<-release
		return c.String(http.StatusOK, "slow done")
	})
	e.GET("/fast", func(c echo.Context) error { return c.String(http.StatusOK, "fast") })
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + l.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	draining := make(chan struct{})
	served := make(chan error, 1)
	go func() {
		// A grace past net/http's own 5 s: Shutdown takes a connection
		// the client opened and never used (its Transport may dial one
		// more while a request waits) as idle only after 5 s.
		served <- Serve(ctx, e, l, Stop{Drain: 500 * time.Millisecond, Grace: 10 * time.Second, Draining: func() { close(draining) }},
			slog.New(slog.NewTextHandler(io.Discard, nil)))
	}()
	client := &http.Client{Transport: &http.Transport{}}
	if r, err := client.Get(base + "/fast"); err != nil || r.Close {
		t.Fatalf("before the stop: %v %v", r, err)
	} else {
		r.Body.Close()
	}
	slow := make(chan string, 1)
	go func() {
		r, err := client.Get(base + "/slow")
		if err != nil {
			slow <- err.Error()
			return
		}
		b, _ := io.ReadAll(r.Body)
		r.Body.Close()
		slow <- string(b)
	}()
	<-started
	cancel()
	<-draining
	r, err := client.Get(base + "/fast")
	if err != nil {
		t.Fatalf("a request during the drain: %v", err)
	}
	r.Body.Close()
	if r.StatusCode != http.StatusOK || !r.Close {
		t.Errorf("during the drain: %d, connection closed after: %v", r.StatusCode, r.Close)
	}
	select {
	case err := <-served:
		t.Fatalf("Serve returned with a request in flight: %v", err)
	default:
	}
	close(release)
	if got := <-slow; got != "slow done" {
		t.Errorf("the request in flight: %q", got)
	}
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	if _, err := net.DialTimeout("tcp", l.Addr().String(), time.Second); err == nil {
		t.Error("the listener still takes connections after Serve returned")
	}
}
