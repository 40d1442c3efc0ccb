package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/config"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/telemetry"
	"github.com/edh-platform/rms-portal/internal/tenancy"
	"github.com/edh-platform/rms-portal/internal/upstream"
)

// upstreamCheck is one operation the portal needs of an upstream, tried
// with a call that changes nothing.
type upstreamCheck struct {
	scope, what string
	run         func(ctx context.Context) error
}

// checkUpstream tries, with the portal's own keys and read-only calls,
// every operation the portal needs of every configured upstream (each
// environment's cluster, Schema Registry and Confluent Cloud APIs, the
// Metrics API, the identity provider) and prints each with ok or why not:
// for a refused key, the role that grants the operation. It fails when
// one is not ok; it needs no database.
func checkUpstream(ctx context.Context, cfg *config.Config, out io.Writer) error {
	ten, err := cfg.Tenancy()
	if err != nil {
		return err
	}
	p := &app{cfg: cfg, tenancy: ten, live: tenancy.NewLive(ten), envs: platform.NewEnvironments(),
		upstreams: upstream.NewRegistry(upstream.Options{})}
	defer p.Close()
	if p.telemetry, err = telemetry.New(ctx, nil, nil); err != nil {
		return err
	}
	if err := p.connect(newLogger(io.Discard, false, "error")); err != nil {
		return err
	}
	checks := p.upstreamChecks()
	failed := 0
	for _, c := range checks {
		cctx, cancel := context.WithTimeout(ctx, max(cfg.UpstreamTimeout, 5*time.Second))
		err := c.run(cctx)
		cancel()
		if err == nil {
			fmt.Fprintf(out, "ok    %-28s %s\n", c.scope, c.what)
			continue
		}
		failed++
		fmt.Fprintf(out, "FAIL  %-28s %s: %s\n", c.scope, c.what, portal.MessageOf(err))
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d checks failed", failed, len(checks))
	}
	fmt.Fprintf(out, "all %d checks passed\n", len(checks))
	return nil
}

// upstreamChecks lists the read-only calls that stand for what the portal
// does with each upstream.
func (p *app) upstreamChecks() []upstreamCheck {
	var out []upstreamCheck
	add := func(scope, what string, run func(ctx context.Context) error) {
		out = append(out, upstreamCheck{scope: scope, what: what, run: run})
	}
	if issuer := p.cfg.Identity.Issuer; issuer != "" {
		add("identity provider", "OpenID Connect discovery at "+issuer, func(ctx context.Context) error {
			return discover(ctx, issuer)
		})
	}
	cloud := p.cfg.ConfluentCloud.Enabled()
	for i, env := range p.envs.All() {
		name := env.Name()
		add(name, "Kafka: list consumer groups (the cluster's key)", func(ctx context.Context) error {
			_, err := env.Groups.ListGroups(ctx)
			return err
		})
		if _, ok := env.Schemas.(platform.Unconfigured); !ok {
			add(name, "Schema Registry: list subjects (the registry's key)", func(ctx context.Context) error {
				_, err := env.Schemas.ListSchemas(ctx, "rms-portal-check-", true)
				return err
			})
		}
		if !cloud {
			continue
		}
		add(name, "Cloud: list managed connectors", func(ctx context.Context) error {
			_, err := env.Connectors.ListConnectors(ctx)
			return err
		})
		add(name, "Cloud: list role bindings", func(ctx context.Context) error {
			_, err := env.IAM.RoleBindings(ctx, "User:sa-rms-portal-check")
			return err
		})
		add(name, "Cloud: list API keys of the cluster", func(ctx context.Context) error {
			_, err := env.APIKeys.ListAPIKeys(ctx, "", env.Scope.KafkaClusterID)
			return err
		})
		if _, ok := env.Pools.(platform.Unconfigured); !ok {
			add(name, "Cloud: list identity pools", func(ctx context.Context) error {
				_, err := env.Pools.ListPools(ctx)
				return err
			})
		}
		if i == 0 {
			// Organisation-wide: asked once.
			add("organisation", "Cloud: list service accounts", func(ctx context.Context) error {
				_, err := env.IAM.ListServiceAccounts(ctx)
				return err
			})
			if _, ok := env.Metrics.(platform.Unconfigured); !ok && env.ClusterID != "" {
				add("organisation", "Metrics API: one query", func(ctx context.Context) error {
					now := time.Now().UTC().Truncate(time.Minute)
					_, err := env.Metrics.QueryMetric(ctx, platform.MetricQuery{Metric: platform.MetricReceivedBytes, ClusterID: env.ClusterID,
						Granularity: "PT1M", Start: now.Add(-5 * time.Minute), End: now, Limit: 1})
					return err
				})
			}
		}
	}
	return out
}

// discover fetches the identity provider's discovery document.
func discover(ctx context.Context, issuer string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(issuer, "/")+"/.well-known/openid-configuration", nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return portal.Wrap(err, portal.UpstreamUnavailable, "the identity provider did not answer: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return portal.New(portal.UpstreamUnavailable, "the identity provider answered its discovery document with %s", resp.Status)
	}
	return nil
}
