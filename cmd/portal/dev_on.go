//go:build !nodev

package main

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/edh-platform/rms-portal/internal/config"
	"github.com/edh-platform/rms-portal/internal/dev"
	"github.com/edh-platform/rms-portal/internal/dev/seed"
	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

// devMode is dev mode's embedded platform (internal/dev), in binaries
// built with it (without the nodev tag).
type devMode struct {
	platform *dev.Platform
}

// devAvailable tells whether this binary has dev mode.
func devAvailable() error { return nil }

// startDev starts the platform cfg embeds and rewrites cfg to name it.
func startDev(cfg *config.Config) (*devMode, error) {
	p, err := dev.Start(cfg)
	if err != nil {
		return nil, err
	}
	return &devMode{platform: p}, nil
}

// mount serves the identity provider and the Cloud stand-in.
func (d *devMode) mount(e *echo.Echo, cfg *config.Config, log *slog.Logger) error {
	hs, err := d.platform.Handlers(cfg.BaseURL, cfg.Identity.Audience, log)
	if err != nil {
		return err
	}
	for prefix, h := range hs {
		// The portal's own calls to its stand-ins are most of dev mode's
		// traffic: logged at debug level unless they fail.
		e.Any(prefix+"/*", echo.WrapHandler(http.StripPrefix(prefix, h)), httpserver.Quiet)
	}
	return nil
}

// seed puts the demo data in, as a platform admin, through the portal's
// own services for what needs role bindings.
func (d *devMode) seed(ctx context.Context, p *app, o devOptions, log *slog.Logger) error {
	start := time.Now()
	so := seed.Options{BulkTopics: o.bulk}
	u, _ := p.tenancy.Unit("scada")
	for i, st := range p.tenancy.Stages() {
		if i < o.bulkClusters {
			so.BulkScopes = append(so.BulkScopes, tenancy.Scope{Unit: u, Stage: st})
		}
	}
	admin := p.resolver.Resolve(portal.Identity{Subject: "demo-seed", Username: "demo-seed", Groups: []string{p.cfg.PlatformAdminGroup}})
	ids := dev.Identities{Accounts: p.built.Accounts, Pools: p.built.Pools}
	if err := d.platform.Seed(portal.WithPrincipal(ctx, admin), p.tenancy, p.envs, ids, so); err != nil {
		return fmt.Errorf("seeding demo data: %w", err)
	}
	log.Info("demo data ready", "ms", time.Since(start).Milliseconds())
	// A key stripped of roles (RMS_DEV_CLOUD_ROLES), to try the portal
	// and check-upstream with it, holds them all while the demo data is
	// made.
	if roles := p.cfg.ConfluentCloud.EmbeddedRoles; roles != "" && d.platform.Cloud != nil {
		d.platform.Cloud.HoldOnly(strings.Split(strings.ReplaceAll(roles, " ", ""), ","))
		log.Warn("the Confluent Cloud stand-in's key holds only some roles", "roles", roles)
	}
	return nil
}

// writeServeConfig writes a serve configuration whose platform is this
// dev instance.
func (d *devMode) writeServeConfig(cfg *config.Config, path string) error {
	b, err := dev.ServeConfig(cfg)
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// run keeps the Metrics API stand-in fed until ctx ends.
func (d *devMode) run(ctx context.Context) { d.platform.Run(ctx) }

func (d *devMode) close() { d.platform.Close() }
