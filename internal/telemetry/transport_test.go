package telemetry

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
)

// Calls to an upstream at once keep their connections between rounds:
// eight at once, five times over, open eight connections, not one per
// call past the second (Go's default idle pool of 2 a host).
func TestUpstreamCallsAtOnceKeepTheirConnections(t *testing.T) {
	const atOnce, rounds = 8, 5
	var opened atomic.Int64
	var mu sync.Mutex
	arrived, all := 0, make(chan struct{})
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Every call of a round is answered once all of them are in
		// flight, so that they are at once.
		mu.Lock()
		if arrived++; arrived == atOnce {
			close(all)
		}
		wait := all
		mu.Unlock()
		<-wait
		_, _ = io.WriteString(w, `{"ok":true}`)
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			opened.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	tel, err := New(context.Background(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Transport: tel.Transport(nil)}
	for range rounds {
		mu.Lock()
		arrived, all = 0, make(chan struct{})
		mu.Unlock()
		var wg sync.WaitGroup
		for range atOnce {
			wg.Go(func() {
				resp, err := client.Get(srv.URL)
				if err != nil {
					t.Error(err)
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			})
		}
		wg.Wait()
	}
	if n := opened.Load(); n != atOnce {
		t.Errorf("%d rounds of %d calls at once opened %d connections, want %d", rounds, atOnce, n, atOnce)
	}
}
