package confluent

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/upstream"
)

// TestEveryCloudStatusIsClassified: a Cloud API that answers one status
// (in Confluent's error shape), many times in a row, through the client
// and its API's breaker: each status gives its kind, only the API's own
// failures count toward its health, and a refusal of the portal's key
// names the operation and the role it needs.
func TestEveryCloudStatusIsClassified(t *testing.T) {
	var status atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s := int(status.Load())
		w.Header().Set("Content-Type", "application/json")
		if s == http.StatusTooManyRequests {
			w.Header().Set("Retry-After", "1")
		}
		w.WriteHeader(s)
		fmt.Fprintf(w, `{"errors":[{"status":"%d","detail":"the API says %d"}]}`, s, s)
	}))
	defer srv.Close()
	statuses := map[int]portal.Kind{}
	for s, k := range statusKinds {
		statuses[s] = k
	}
	statuses[418], statuses[501] = portal.InvalidParameter, portal.UpstreamUnavailable // not listed: by class
	for s, want := range statuses {
		reg := upstream.NewRegistry(upstream.Options{Failures: 3, OpenFor: time.Hour})
		c := NewClient(Options{BaseURL: srv.URL, APIKey: "k", APISecret: "s", MaxRetries: 1, Upstreams: reg, Name: "org", Timeout: 5 * time.Second})
		c.backoff = func(int) time.Duration { return time.Millisecond }
		status.Store(int64(s))
		unwell := want == portal.UpstreamUnavailable || want == portal.UpstreamTimeout
		tries := 5
		if s == http.StatusTooManyRequests {
			tries = 1 // each waits out its Retry-After once
		}
		for range tries {
			err := c.do(context.Background(), call{method: http.MethodGet, path: "/iam/v2/service-accounts", safe: true})
			var pe *portal.Error
			if !errors.As(err, &pe) || pe.Kind != want {
				if !(unwell && portal.Is(err, portal.UpstreamUnavailable)) { // an open circuit
					t.Errorf("%d: %v, want %s", s, err, want)
				}
				break
			}
			if upstream.IsOutage(err) != unwell {
				t.Errorf("%d: outage %v", s, upstream.IsOutage(err))
			}
			if want == portal.UpstreamPermission && pe.Message != fmt.Sprintf("Confluent Cloud refused the portal's own key (%d: the API says %d) for GET service-accounts: the key needs %s; ask the platform team", s, s, roles[upstream.IAM]) {
				t.Errorf("%d: %s", s, pe.Message)
			}
		}
		h := reg.Get(upstream.IAM, "org").Health()
		if (h.Circuit == "open") != unwell {
			t.Errorf("%d: the API's circuit is %s", s, h.Circuit)
		}
	}
}
