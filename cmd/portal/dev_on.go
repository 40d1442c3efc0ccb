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
	if err := describeDemoTopics(portal.WithPrincipal(ctx, admin), p); err != nil {
		return fmt.Errorf("describing the demo topics: %w", err)
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

// demoEntries are the catalog entries of some demo topics in every stage,
// so that the catalog has something to find.
var demoEntries = []struct {
	unit, topic string
	meta        portal.TopicMetadata
}{
	{"scada", "sensor-readings", portal.TopicMetadata{Description: "Readings of every plant sensor, one record a reading (Avro: sensorId, value, unit).",
		Contact: "scada-platform@example.com", Tags: []string{"iot", "telemetry"}, Classification: "internal"}},
	{"scada", "alarms", portal.TopicMetadata{Description: "Alarms raised by the control systems, keyed by alarm id (compacted: the latest state).",
		Contact: "scada-ops@example.com", Tags: []string{"iot", "operations"}, Classification: "confidential"}},
	{"crm", "orders", portal.TopicMetadata{Description: "Orders as customers place them.", Contact: "crm-team@example.com",
		Tags: []string{"sales", "pii"}, Classification: "restricted"}},
}

// describeDemoTopics writes the demo catalog entries a stage does not
// have yet (a restart keeps what people wrote since).
func describeDemoTopics(ctx context.Context, p *app) error {
	for _, st := range p.tenancy.Stages() {
		for _, e := range demoEntries {
			scope := portal.Scope{BU: e.unit, Stage: st.Name}
			u, ok := p.tenancy.Unit(e.unit)
			if !ok {
				continue
			}
			full := tenancy.Scope{Unit: u, Stage: st}.Qualify(e.topic)
			if cur, err := p.built.Catalog.Entry(ctx, scope, full); err == nil && (cur.Classified || cur.Description != "") {
				continue
			}
			if _, err := p.built.Catalog.Describe(ctx, scope, e.topic, e.meta); err != nil && !portal.Is(err, portal.ReadOnlyEnvironment) {
				return err
			}
		}
	}
	return nil
}
