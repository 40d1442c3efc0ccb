package main

import (
	"context"
	"errors"
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
// those its health check (GET /readyz every 100 ms, each replica on its own,
// so that one slow answer never delays what is learnt of the other) finds
// ready (check), keeping connections to them alive, with no retries of its own. As
// real balancers' passive checks do, a replica that refuses a connection is
// taken out until its /readyz answers 200 again.
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
			if errors.Is(err, syscall.ECONNREFUSED) {
				b.down(r.URL.Host)
			}
			http.Error(w, "balancer: "+err.Error(), http.StatusBadGateway)
		},
	}
	srv := httptest.NewServer(proxy)
	t.Cleanup(srv.Close)
	b.url = srv.URL
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	for i := range b.backends {
		go b.check(ctx, i)
	}
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

// down takes the replica at host out of the rotation.
func (b *balancer) down(host string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i, u := range b.backends {
		if u.Host == host {
			b.ready[i] = false
		}
	}
}

// check asks replica i's /readyz every 100 ms. An answer other than 200
// takes the replica out at once (a draining replica says so); a check that
// fails without an answer (a replica too busy to answer within a second)
// takes it out only at the third in a row, as Kubernetes' probes do, so
// that a loaded machine does not empty the rotation.
func (b *balancer) check(ctx context.Context, i int) {
	client := &http.Client{Timeout: time.Second}
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	silent := 0
	for {
		resp, err := client.Get(b.backends[i].String() + "/readyz")
		b.mu.Lock()
		switch {
		case err == nil:
			resp.Body.Close()
			silent = 0
			b.ready[i] = resp.StatusCode == http.StatusOK
		case errors.Is(err, syscall.ECONNREFUSED):
			b.ready[i] = false
		default:
			if silent++; silent >= 3 {
				b.ready[i] = false
			}
		}
		b.mu.Unlock()
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
