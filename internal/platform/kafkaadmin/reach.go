package kafkaadmin

import (
	"context"
	"errors"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// ReachEvery is how often a cluster known to be down is asked again
// whether it takes connections.
const ReachEvery = 2 * time.Second

// reach keeps a cluster that is down from costing anything: a request
// handed to librdkafka while the brokers refuse connections makes it
// reconnect without backoff for as long as the request waits (thousands
// of attempts a second, most of a core). Once the cluster failed, every
// request first asks whether the bootstrap servers take a TCP connection,
// at most once per interval whoever asks, and fails at once while they do
// not; the first request after they do goes through, and the cluster is
// up again when it succeeds.
type reach struct {
	addrs   []string
	every   time.Duration
	timeout time.Duration
	now     func() time.Time
	dial    func(ctx context.Context, network, addr string) (net.Conn, error)

	mu      sync.Mutex
	down    bool
	checked time.Time
	last    error
	probing chan struct{}
}

func newReach(bootstrap string, every, timeout time.Duration) *reach {
	var addrs []string
	for _, a := range strings.Split(bootstrap, ",") {
		if a = strings.TrimSpace(a); a != "" {
			addrs = append(addrs, a)
		}
	}
	d := &net.Dialer{}
	return &reach{addrs: addrs, every: every, timeout: timeout, now: time.Now, dial: d.DialContext}
}

// failed marks the cluster down after a request found it unreachable.
func (r *reach) failed() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.down {
		r.down, r.checked = true, r.now()
	}
}

// ok marks the cluster up after a request succeeded.
func (r *reach) ok() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.down = false
}

// check says whether a request may go to librdkafka: always while the
// cluster is up; while it is down, only when a probe (shared by every
// caller, at most one per interval) found a bootstrap server that takes
// connections.
func (r *reach) check(ctx context.Context, name string) error {
	r.mu.Lock()
	if !r.down {
		r.mu.Unlock()
		return nil
	}
	if r.now().Sub(r.checked) < r.every || r.probing != nil {
		wait, last := r.every-r.now().Sub(r.checked), r.last
		r.mu.Unlock()
		return r.refusal(name, wait, last)
	}
	done := make(chan struct{})
	r.probing, r.checked = done, r.now()
	r.mu.Unlock()
	err := r.probe(ctx)
	r.mu.Lock()
	r.probing, r.last = nil, err
	close(done)
	r.mu.Unlock()
	if err != nil {
		return r.refusal(name, r.every, err)
	}
	return nil
}

func (r *reach) refusal(name string, wait time.Duration, last error) error {
	detail := "it refused connections"
	if last != nil {
		detail = last.Error()
	}
	e := portal.Wrap(last, portal.UpstreamUnavailable, "cluster %s is unreachable (%s); the portal tries it again every %s", name, detail, r.every)
	e.RetryAfter = max(wait, time.Second)
	return e
}

// probe dials the bootstrap servers until one answers.
func (r *reach) probe(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	var errs []error
	for _, a := range r.addrs {
		c, err := r.dial(ctx, "tcp", a)
		if err == nil {
			_ = c.Close()
			return nil
		}
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}
