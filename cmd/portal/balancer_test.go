package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync"
	"syscall"
	"testing"
	"time"
)

// balancer is a plain load balancer in front of replicas: round robin over
// those its health check (GET /readyz every 100 ms) finds ready, keeping
// connections to them alive, with no retries of its own.
type balancer struct {
	url string

	mu       sync.Mutex
	backends []*url.URL
	ready    []bool
	next     int
}

func newBalancer(t *testing.T, replicas ...string) *balancer {
	t.Helper()
	b := &balancer{}
	for _, r := range replicas {
		u, err := url.Parse(r)
		if err != nil {
			t.Fatal(err)
		}
		b.backends = append(b.backends, u)
		b.ready = append(b.ready, true)
	}
	proxy := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(b.pick())
			pr.Out.Host = pr.In.Host
		},
		Transport: &http.Transport{MaxIdleConnsPerHost: 64, IdleConnTimeout: time.Minute},
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			http.Error(w, "balancer: "+err.Error(), http.StatusBadGateway)
		},
	}
	srv := httptest.NewServer(proxy)
	t.Cleanup(srv.Close)
	b.url = srv.URL
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go b.check(ctx)
	return b
}

// pick chooses the next ready replica (any, when none is).
func (b *balancer) pick() *url.URL {
	b.mu.Lock()
	defer b.mu.Unlock()
	for range b.backends {
		i := b.next % len(b.backends)
		b.next++
		if b.ready[i] {
			return b.backends[i]
		}
	}
	return b.backends[0]
}

// waitReady waits until the health check has found replica i ready.
func (b *balancer) waitReady(t *testing.T, i int, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		b.mu.Lock()
		ok := b.ready[i]
		b.mu.Unlock()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the balancer did not find replica %d ready within %v", i, limit)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// check asks every replica's /readyz every 100 ms.
func (b *balancer) check(ctx context.Context) {
	client := &http.Client{Timeout: time.Second}
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for {
		for i, u := range b.backends {
			ok := false
			if resp, err := client.Get(u.String() + "/readyz"); err == nil {
				resp.Body.Close()
				ok = resp.StatusCode == http.StatusOK
			}
			b.mu.Lock()
			b.ready[i] = ok
			b.mu.Unlock()
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// stop sends SIGTERM and waits for the process to exit.
func (p *process) stop(limit time.Duration) {
	p.t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		p.t.Fatal(err)
	}
	select {
	case <-p.done:
	case <-time.After(limit):
		p.t.Fatalf("%s did not stop within %v of SIGTERM:\n%s", p.name, limit, p.log.String())
	}
}
