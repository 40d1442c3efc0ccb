package dev

import (
	"context"
	"fmt"

	"github.com/edh-platform/rms-portal/internal/dev/seed"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/iam"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// Identities are the services the demo's accounts and pools are made
// through, so that they get their role bindings as anyone's would.
type Identities struct {
	Accounts interface {
		Create(ctx context.Context, scope portal.Scope, in iam.NewServiceAccount) (iam.ServiceAccount, error)
	}
	Pools interface {
		Create(ctx context.Context, scope portal.Scope, in iam.NewPool) (iam.Pool, error)
	}
}

// Seed puts the demo data in: topics, connectors and schemas through the
// environments' ports, records and consumer groups on the clusters, and
// per tenant unit in the first stage an account and a pool through the
// services, as the principal in ctx (a platform admin). The portal must be
// serving: the Cloud stand-in is part of it. A producer keeps writing to
// one topic until ctx ends, so that growth charts move.
func (p *Platform) Seed(ctx context.Context, t *tenancy.Tenancy, envs *platform.Environments, ids Identities, o seed.Options) error {
	if err := seed.Seed(ctx, t, envs, p.Clusters, o); err != nil {
		return err
	}
	stage := t.StageNames()[0]
	for _, u := range t.Units() {
		if u.IsMain() {
			continue
		}
		scope := portal.Scope{BU: u.ID, Stage: stage}
		_, err := ids.Accounts.Create(ctx, scope, iam.NewServiceAccount{Name: "demo-app", Type: "producer", Description: "Demo producer of " + u.ID})
		if err != nil && !portal.Is(err, portal.AlreadyExists) {
			return fmt.Errorf("seed service account of %s: %w", u.ID, err)
		}
		_, err = ids.Pools.Create(ctx, scope, iam.NewPool{Name: "ci", Type: "consumer", Description: "CI jobs of " + u.ID,
			Filter: `claims.aud == "confluent" && claims.sub.startsWith("ci-` + u.ID + `")`})
		if err != nil && !portal.Is(err, portal.AlreadyExists) {
			return fmt.Errorf("seed identity pool of %s: %w", u.ID, err)
		}
	}
	if cl := p.Clusters["edh-shared/dev"]; cl != nil {
		go cl.Trickle(ctx, "edh-shared-scada-dev-sensor-readings", 5)
	}
	return nil
}
