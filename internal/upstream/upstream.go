// Package upstream is the one place every call to an upstream service
// goes through: a cluster, the Connect, IAM and identity-pool APIs, a
// Schema Registry, the identity provider. Each upstream has a circuit
// breaker (sony/gobreaker): after consecutive outages calls fail at once
// with 503 UPSTREAM_UNAVAILABLE and Retry-After, and one probe closes the
// circuit when the upstream is back. Each upstream also keeps its health
// (state, latency, last error and since when) for the health report, and
// tells an observer about every call (metrics, traces).
package upstream

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/sony/gobreaker/v2"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// Kinds of upstream, as metrics and the health report name them.
const (
	Cluster          = "cluster"
	Connect          = "connect"
	IAM              = "iam"
	IdentityPools    = "identity-pools"
	SchemaRegistry   = "schema-registry"
	IdentityProvider = "identity-provider"
	Metrics          = "metrics"
	Billing          = "billing"
)

// Outcomes of a call.
const (
	OK      = "ok"
	Refused = "refused" // the upstream answered with an error of the caller's (not found, exists, invalid)
	Failed  = "failed"  // the upstream is unreachable or failing
	Timeout = "timeout"
	Open    = "circuit_open"
	// Throttled: the call's unit had used its share of the upstream.
	Throttled = "throttled"
)

// Observer is told about every call, for metrics and traces.
type Observer interface {
	// Start is called before a call; the returned function after it, with
	// its outcome. The returned context carries the call (a span).
	Start(ctx context.Context, kind, name, op string) (context.Context, func(outcome string, err error))
	// Circuit is told when an upstream's circuit changes state.
	Circuit(kind, name string, state string)
}

type noObserver struct{}

func (noObserver) Start(ctx context.Context, _, _, _ string) (context.Context, func(string, error)) {
	return ctx, func(string, error) {}
}
func (noObserver) Circuit(string, string, string) {}

// Options tune the breakers.
type Options struct {
	// Failures in a row that open a circuit; 5 by default.
	Failures uint32
	// OpenFor is how long a circuit stays open before a probe; 10s by default.
	OpenFor  time.Duration
	Observer Observer
	Now      func() time.Time
	// Shares bound what one business unit takes of each upstream.
	Shares Shares
}

// Registry holds every upstream of the process.
type Registry struct {
	opts Options
	mu   sync.Mutex
	all  map[string]*Upstream
}

// NewRegistry returns an empty registry.
func NewRegistry(o Options) *Registry {
	if o.Failures == 0 {
		o.Failures = 5
	}
	if o.OpenFor == 0 {
		o.OpenFor = 10 * time.Second
	}
	if o.Observer == nil {
		o.Observer = noObserver{}
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Registry{opts: o, all: map[string]*Upstream{}}
}

// SetObserver replaces the observer (before serving).
func (r *Registry) SetObserver(o Observer) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.opts.Observer = o
	for _, u := range r.all {
		u.observer = o
		o.Circuit(u.Kind, u.Name, u.cb.State().String())
	}
}

// Upstream is one upstream service.
type Upstream struct {
	Kind     string
	Name     string
	cb       *gobreaker.CircuitBreaker[struct{}]
	openFor  time.Duration
	observer Observer
	now      func() time.Time
	shares   *shares

	mu        sync.Mutex
	openedAt  time.Time
	state     string
	since     time.Time
	lastError string
	lastErrAt time.Time
	lastOK    time.Time
	latency   time.Duration
	calls     int64
}

// Get returns the upstream of a kind and name, creating it on first use.
func (r *Registry) Get(kind, name string) *Upstream {
	r.mu.Lock()
	defer r.mu.Unlock()
	key := kind + " " + name
	if u, ok := r.all[key]; ok {
		return u
	}
	u := &Upstream{Kind: kind, Name: name, openFor: r.opts.OpenFor, observer: r.opts.Observer, now: r.opts.Now,
		state: "unknown", since: r.opts.Now(), shares: newShares(r.opts.Shares, r.opts.Now)}
	failures := r.opts.Failures
	u.cb = gobreaker.NewCircuitBreaker[struct{}](gobreaker.Settings{
		Name:        key,
		MaxRequests: 1, // one probe when half-open
		Timeout:     r.opts.OpenFor,
		ReadyToTrip: func(c gobreaker.Counts) bool { return c.ConsecutiveFailures >= failures },
		IsSuccessful: func(err error) bool {
			return err == nil || !IsOutage(err)
		},
		OnStateChange: func(_ string, _, to gobreaker.State) {
			u.mu.Lock()
			if to == gobreaker.StateOpen {
				u.openedAt = u.now()
			}
			u.mu.Unlock()
			u.observer.Circuit(u.Kind, u.Name, to.String())
		},
	})
	r.all[key] = u
	// The circuit's series exists from the start, closed.
	u.observer.Circuit(kind, name, gobreaker.StateClosed.String())
	return u
}

// Call runs fn through the upstream's circuit breaker, within the share
// of the upstream of the unit ctx is for (ForTenant). While the circuit
// is open, it fails at once with 503 and Retry-After, without calling fn;
// a unit past its share waits, then is refused with 429, alone. Only
// errors marked Unwell count toward the breaker and the health report.
func (u *Upstream) Call(ctx context.Context, op string, fn func(ctx context.Context) error) error {
	ctx, done := u.observer.Start(ctx, u.Kind, u.Name, op)
	if u.cb.State() == gobreaker.StateOpen {
		err := u.openError()
		done(Open, err)
		return err
	}
	release := func(time.Duration) {}
	if t := TenantOf(ctx); t != "" {
		r, err := u.shares.admit(ctx, u, t)
		if err != nil {
			done(Throttled, err)
			return err
		}
		release = r
	}
	start := u.now()
	// The request's waits are on the wall clock, as its own time is.
	waits := waitsOf(ctx)
	waits.begin(time.Now())
	_, err := u.cb.Execute(func() (struct{}, error) { return struct{}{}, fn(ctx) })
	waits.end(time.Now())
	took := u.now().Sub(start)
	release(took)
	if errors.Is(err, gobreaker.ErrOpenState) || errors.Is(err, gobreaker.ErrTooManyRequests) {
		err = u.openError()
		done(Open, err)
		return err
	}
	u.record(took, err)
	done(outcome(err), err)
	return err
}

func outcome(err error) string {
	switch {
	case err == nil:
		return OK
	case portal.Is(err, portal.UpstreamTimeout):
		return Timeout
	case IsOutage(err):
		return Failed
	}
	return Refused
}

func (u *Upstream) openError() error {
	u.mu.Lock()
	wait := u.openFor - u.now().Sub(u.openedAt)
	last := u.lastError
	u.mu.Unlock()
	if wait < time.Second {
		wait = time.Second
	}
	e := portal.New(portal.UpstreamUnavailable, "%s %s is unavailable; the portal stopped calling it for a moment after repeated failures (last: %s)",
		describe(u.Kind), u.Name, last)
	e.RetryAfter = wait
	return Unwell(e)
}

func describe(kind string) string {
	switch kind {
	case Cluster:
		return "Kafka cluster"
	case Connect:
		return "the Confluent Cloud Connect API for"
	case IAM:
		return "the Confluent Cloud IAM API for"
	case IdentityPools:
		return "the identity pools API for"
	case SchemaRegistry:
		return "the Schema Registry of"
	}
	return "the identity provider"
}

func (u *Upstream) record(took time.Duration, err error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.calls++
	state := "ok"
	if IsOutage(err) {
		state = "failing"
		u.lastError, u.lastErrAt = firstMessage(err), u.now()
	} else {
		u.lastOK = u.now()
		u.latency = took
	}
	if state != u.state {
		u.state, u.since = state, u.now()
	}
}

func firstMessage(err error) string {
	if ps := portal.Problems(err); len(ps) > 0 {
		return ps[0].Message
	}
	return err.Error()
}

// Health is an upstream's state for the health report.
type Health struct {
	Kind  string `json:"kind"`
	Name  string `json:"name"`
	State string `json:"state"` // ok, failing, unknown
	// Circuit is closed, open or half-open.
	Circuit   string    `json:"circuit"`
	Since     time.Time `json:"since"`
	LatencyMS float64   `json:"latency_ms"`
	LastError string    `json:"last_error,omitempty"`
	LastErrAt time.Time `json:"last_error_at,omitzero"`
	LastOK    time.Time `json:"last_ok,omitzero"`
	Calls     int64     `json:"calls"`
}

// Health returns the upstream's state.
func (u *Upstream) Health() Health {
	// The breaker's state first: reading it may change it, which calls
	// OnStateChange, which takes u.mu.
	circuit := u.cb.State().String()
	u.mu.Lock()
	defer u.mu.Unlock()
	return Health{Kind: u.Kind, Name: u.Name, State: u.state, Circuit: circuit, Since: u.since,
		LatencyMS: float64(u.latency.Microseconds()) / 1000, LastError: u.lastError, LastErrAt: u.lastErrAt,
		LastOK: u.lastOK, Calls: u.calls}
}

// Report lists every upstream's health, sorted by kind and name.
func (r *Registry) Report() []Health {
	r.mu.Lock()
	us := make([]*Upstream, 0, len(r.all))
	for _, u := range r.all {
		us = append(us, u)
	}
	r.mu.Unlock()
	out := make([]Health, len(us))
	for i, u := range us {
		out[i] = u.Health()
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Kind != out[j].Kind {
			return out[i].Kind < out[j].Kind
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// String names the upstream in logs.
func (u *Upstream) String() string { return fmt.Sprintf("%s %s", u.Kind, u.Name) }
