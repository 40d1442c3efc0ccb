package gate

import (
	"context"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/tenancy"
	"github.com/edh-platform/rms-portal/internal/upstream"
)

// PortalActor names the portal in the audit trail, for what it does by
// itself.
const PortalActor = "portal"

// Portal is a call of the portal itself in a unit's stage, for work it
// finishes on its own (a decision whose replica stopped): no caller's
// rights are checked, and its upstream calls take the unit's share and
// wait for it.
func (g *Guard) Portal(ctx context.Context, unit, stage string) (context.Context, *Call, error) {
	t := g.tenancy.Current()
	u, ok := t.Unit(unit)
	if !ok {
		return ctx, nil, portal.New(portal.NotFound, "business unit %s is no longer onboarded", unit)
	}
	st, ok := t.Stage(stage)
	if !ok {
		return ctx, nil, portal.New(portal.NotFound, "stage %s is no longer configured", stage)
	}
	p := portal.PrincipalWithRoles(PortalActor, map[string]portal.Role{unit: portal.SuperAdmin})
	call := &Call{Principal: p, Scope: tenancy.Scope{Unit: u, Stage: st}, Role: portal.SuperAdmin, g: g,
		pace: func(ctx context.Context) error { return g.limits.pace(ctx, unit) }}
	env, err := g.envs.Get(call.Scope.Zone().ID, stage)
	if err != nil {
		return ctx, nil, portal.Wrap(err, portal.Internal, "no environment is configured for %s", call.Scope)
	}
	call.Env = env
	return upstream.Patient(upstream.ForTenant(portal.WithPrincipal(ctx, p), unit)), call, nil
}

// FinishStopped runs finish on each of recs that began (began tells when)
// longer than stoppedAfter before now: the changes whose replica may have
// stopped. finish says whether it finished one (it was still under way);
// the count of those is returned, with the first error, which ends the
// round.
func FinishStopped[T any](now time.Time, stoppedAfter time.Duration, recs []T, began func(T) time.Time, finish func(T) (bool, error)) (int, error) {
	n := 0
	for _, r := range recs {
		if began(r).After(now.Add(-stoppedAfter)) {
			continue
		}
		done, err := finish(r)
		if err != nil {
			return n, err
		}
		if done {
			n++
		}
	}
	return n, nil
}
