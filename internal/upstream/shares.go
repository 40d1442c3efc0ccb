package upstream

import (
	"context"
	"math"
	"sync"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/ratelimit"
)

// Shares bound what one tenant (a business unit) takes of one upstream,
// so that a unit that floods a shared cluster, registry or Cloud API
// waits, or is refused, alone: other units keep their share. Calls made
// for no unit (the portal's own background work) are not counted.
type Shares struct {
	// Concurrency is how many calls of one unit an upstream serves at
	// once; 4 by default.
	Concurrency int
	// Wait bounds how long a person's call waits for its unit's share
	// before it is refused with 429 and Retry-After; 2s by default.
	// Background work (Patient) waits as long as its context allows.
	Wait time.Duration
	// Busy is how much of an upstream's time one unit may use per minute
	// (the sum of its calls' durations, over a sliding budget); 2 minutes
	// by default: on average two calls at once, in bursts up to
	// Concurrency.
	Busy time.Duration
}

func (s Shares) withDefaults() Shares {
	if s.Concurrency <= 0 {
		s.Concurrency = 4
	}
	if s.Wait <= 0 {
		s.Wait = 2 * time.Second
	}
	if s.Busy <= 0 {
		s.Busy = 2 * time.Minute
	}
	return s
}

type tenantKey struct{}
type patientKey struct{}

// ForTenant says that calls made with ctx are made for tenant (a
// business unit's id): they take that unit's share of each upstream.
func ForTenant(ctx context.Context, tenant string) context.Context {
	return context.WithValue(ctx, tenantKey{}, tenant)
}

// TenantOf is the tenant calls made with ctx are counted against ("" for
// none).
func TenantOf(ctx context.Context) string {
	t, _ := ctx.Value(tenantKey{}).(string)
	return t
}

// Patient says that calls made with ctx are background work (a bulk job,
// an apply) that waits for its unit's share as long as its context
// allows, rather than being refused after Shares.Wait.
func Patient(ctx context.Context) context.Context {
	return context.WithValue(ctx, patientKey{}, true)
}

func isPatient(ctx context.Context) bool { return ctx.Value(patientKey{}) != nil }

// IsPatient reports whether ctx's work waits rather than fails (a bulk
// job's, an apply's): such work also waits for the jobs it starts.
func IsPatient(ctx context.Context) bool { return isPatient(ctx) }

// share is one unit's share of one upstream: slots for its calls at once,
// and a budget of the upstream's time.
type share struct {
	slots  chan struct{}
	budget *ratelimit.TimeBudget
}

// shares holds an upstream's shares, one per unit that used it.
type shares struct {
	cfg Shares
	now func() time.Time
	mu  sync.Mutex
	by  map[string]*share
}

func newShares(cfg Shares, now func() time.Time) *shares {
	return &shares{cfg: cfg.withDefaults(), now: now, by: map[string]*share{}}
}

func (s *shares) of(tenant string) *share {
	s.mu.Lock()
	defer s.mu.Unlock()
	sh := s.by[tenant]
	if sh == nil {
		sh = &share{slots: make(chan struct{}, s.cfg.Concurrency), budget: ratelimit.NewTimeBudget(s.cfg.Busy, s.now())}
		s.by[tenant] = sh
	}
	return sh
}

// admit takes a slot of the tenant's share of u, waiting as the caller
// may, and returns its release; a tenant past its share gets RateLimited
// for itself alone.
func (s *shares) admit(ctx context.Context, u *Upstream, tenant string) (func(took time.Duration), error) {
	sh := s.of(tenant)
	patient := isPatient(ctx)
	wait := s.cfg.Wait
	if patient {
		wait = 0 // as long as ctx allows
	}
	for {
		d := sh.budget.Wait(s.now())
		if d == 0 {
			break
		}
		if !patient {
			return nil, s.refusal(u, tenant, d, "has used its share of the time of")
		}
		if !sleepCtx(ctx, min(d, time.Second)) {
			return nil, ctx.Err()
		}
	}
	select {
	case sh.slots <- struct{}{}:
	default:
		var timeout <-chan time.Time
		if wait > 0 {
			t := time.NewTimer(wait)
			defer t.Stop()
			timeout = t.C
		}
		select {
		case sh.slots <- struct{}{}:
		case <-timeout:
			return nil, s.refusal(u, tenant, time.Second, "already makes as many calls at once as its share allows to")
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return func(took time.Duration) {
		<-sh.slots
		sh.budget.Spend(s.now(), took)
	}, nil
}

func (s *shares) refusal(u *Upstream, tenant string, wait time.Duration, what string) error {
	e := portal.New(portal.RateLimited, "business unit %s %s %s %s (%d calls at once, %s of its time a minute); other units are not affected: try again in a moment",
		tenant, what, describe(u.Kind), u.Name, s.cfg.Concurrency, s.cfg.Busy)
	e.RetryAfter = max(time.Duration(math.Ceil(wait.Seconds()))*time.Second, time.Second)
	return e
}

func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
