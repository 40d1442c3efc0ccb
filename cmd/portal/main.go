// Command portal runs the streaming resource portal.
//
//	portal serve --config portal.yaml   production: the configured clusters and identity provider
//	portal dev [--bulk-topics N]         dev mode: everything embedded, in memory, with demo data
//	portal check-config --config FILE    validate a configuration file and exit
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/edh-platform/rms-portal/internal/config"
	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/platform/embedded"
	"github.com/edh-platform/rms-portal/internal/requestid"
	"github.com/edh-platform/rms-portal/internal/tenancy"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "portal:", err)
		os.Exit(1)
	}
}

const usage = `usage:
  portal serve --config FILE        run with a deployment configuration
  portal dev [--bulk-topics N]      run in dev mode: embedded clusters, dev identity provider, demo data
  portal check-config --config FILE validate a configuration file`

func run(ctx context.Context, args []string, env func(string) string, stderr io.Writer) error {
	if len(args) == 0 {
		return errors.New(usage)
	}
	fs := flag.NewFlagSet(args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	path := fs.String("config", env("RMS_CONFIG"), "configuration file (or RMS_CONFIG)")
	bulk := fs.Int("bulk-topics", 0, "dev: add this many topics to scada/dev, to try a large cluster")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	switch args[0] {
	case "dev":
		cfg, err := config.Dev(env)
		if err != nil {
			return err
		}
		return serve(ctx, cfg, env, stderr, *bulk)
	case "serve", "check-config":
		if *path == "" {
			return errors.New("--config is required")
		}
		cfg, err := config.Load(*path, env)
		if err != nil {
			return err
		}
		if cfg.IsDev() {
			return errors.New("this configuration is for dev mode; run `portal dev`, which refuses nothing embedded")
		}
		if args[0] == "check-config" {
			fmt.Fprintln(stderr, "configuration is valid")
			return nil
		}
		return serve(ctx, cfg, env, stderr, 0)
	}
	return errors.New(usage)
}

func newLogger(w io.Writer, dev bool, level string) *slog.Logger {
	lv := slog.LevelInfo
	_ = lv.UnmarshalText([]byte(strings.ToUpper(level)))
	opts := &slog.HandlerOptions{Level: lv}
	var h slog.Handler = slog.NewJSONHandler(w, opts)
	if dev {
		h = slog.NewTextHandler(w, opts)
	}
	return slog.New(requestid.Handler{Handler: h})
}

func serve(ctx context.Context, cfg *config.Config, env func(string) string, stderr io.Writer, bulk int) error {
	log := newLogger(stderr, cfg.IsDev(), env("RMS_LOG_LEVEL"))
	l, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.Listen, err)
	}
	p, err := assemble(cfg, log, hooks{})
	if err != nil {
		l.Close()
		return err
	}
	defer p.Close()
	if cfg.IsDev() {
		start := time.Now()
		o := embedded.SeedOptions{BulkTopics: bulk}
		if bulk > 0 {
			u, _ := p.tenancy.Unit("scada")
			st, _ := p.tenancy.Stage("dev")
			o.BulkScope = tenancy.Scope{Unit: u, Stage: st}
		}
		if err := p.seed(ctx, o); err != nil {
			l.Close()
			return fmt.Errorf("seeding demo data: %w", err)
		}
		log.Info("demo data ready", "ms", time.Since(start).Milliseconds())
		// A steady trickle makes growth charts move in the demo.
		go p.clusters["edh-shared/dev"].Trickle(ctx, "edh-shared-scada-dev-sensor-readings", 5)
		fmt.Fprintf(stderr, "\n  Portal:   %s\n  API docs: %s/api-docs\n  Sign in as a demo user: alice, bob, carol, dave, erin, frank, sam\n\n", cfg.BaseURL, cfg.BaseURL)
	}
	return serveOn(ctx, p, l, log)
}

// serveOn serves an assembled portal on l until ctx ends.
func serveOn(ctx context.Context, p *app, l net.Listener, log *slog.Logger) error {
	go p.sampler.Run(ctx)
	log.Info("portal listening", "addr", l.Addr().String(), "base_url", p.cfg.BaseURL, "mode", p.cfg.Mode)
	return httpserver.Serve(ctx, p.echo, l, 20*time.Second, log)
}
