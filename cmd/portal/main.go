// Command portal runs the streaming resource portal.
//
//	portal serve --config portal.yaml   production: the configured clusters, identity provider and database
//	portal dev [--data DIR] [--bulk-topics N [--bulk-clusters K]] [--write-serve-config FILE]
//	                                     dev mode: everything embedded, with demo data
//	portal check-config --config FILE [--strict]
//	                                     validate a configuration file and exit
//	portal check-upstream --config FILE  try, read-only, every operation the portal needs of its upstreams
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/edh-platform/rms-portal/internal/config"
	"github.com/edh-platform/rms-portal/internal/httpserver"
	"github.com/edh-platform/rms-portal/internal/requestid"
	"github.com/edh-platform/rms-portal/internal/version"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// The first signal stops gracefully; a second one, the default way.
	go func() {
		<-ctx.Done()
		stop()
	}()
	if len(os.Args) == 2 && isVersion(os.Args[1]) {
		fmt.Println("portal", version.Get())
		return
	}
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "portal:", err)
		os.Exit(1)
	}
}

const usage = `usage:
  portal version                    print the version, commit and build date
  portal serve --config FILE        run with a deployment configuration (PORT, BASE_URL and DATABASE_URL override it)
  portal dev [flags]                run in dev mode: embedded clusters, dev identity provider, demo data
      --data DIR                    keep the portal's database (sessions, audit, jobs) in DIR across restarts
      --bulk-topics N               add N topics to scada/dev, to try a large cluster
      --bulk-clusters K             ... and to scada in the next stages, K clusters in all (1..3)
      --write-serve-config FILE     write a serve configuration that points at this dev instance
  portal migrate --config FILE      bring the database to this release's schema and exit (a pre-upgrade job)
  portal check-config --config FILE [--strict]
                                    validate a configuration file; --strict refuses keys this release does not know
  portal check-upstream --config FILE
                                    try every operation the portal needs of the configured clusters, registries,
                                    Confluent Cloud APIs and identity provider with read-only calls: ok, or the
                                    missing permission and the role that grants it`

func isVersion(arg string) bool {
	return arg == "version" || arg == "--version" || arg == "-version" || arg == "-v"
}

// devOptions are the flags of dev mode.
type devOptions struct {
	data         string
	bulk         int
	bulkClusters int
	serveConfig  string
}

func run(ctx context.Context, args []string, env func(string) string, stderr io.Writer) error {
	if len(args) == 0 {
		return errors.New(usage)
	}
	if isVersion(args[0]) {
		fmt.Fprintln(stderr, "portal", version.Get())
		return nil
	}
	fs := flag.NewFlagSet(args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	path := fs.String("config", env("RMS_CONFIG"), "configuration file (or RMS_CONFIG)")
	var dev devOptions
	fs.IntVar(&dev.bulk, "bulk-topics", 0, "dev: add this many topics to scada/dev, to try a large cluster")
	fs.IntVar(&dev.bulkClusters, "bulk-clusters", 1, "dev: add the bulk topics to scada in this many stages (dev, qas, run)")
	fs.StringVar(&dev.data, "data", "", "dev: keep the portal's database in this directory")
	fs.StringVar(&dev.serveConfig, "write-serve-config", "", "dev: write a serve configuration pointing at this instance")
	strict := fs.Bool("strict", false, "check-config: refuse keys this release does not know")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	switch args[0] {
	case "dev":
		if err := devAvailable(); err != nil {
			return err
		}
		cfg, err := config.Dev(env)
		if err != nil {
			return err
		}
		cleanup, err := devDatabase(cfg, dev.data)
		if err != nil {
			return err
		}
		defer cleanup()
		return serve(ctx, cfg, env, stderr, dev)
	case "serve", "check-config", "check-upstream", "migrate":
		if *path == "" {
			return errors.New("--config is required")
		}
		load := env
		if args[0] == "check-upstream" {
			// It opens no database: one need not be configured.
			load = func(k string) string {
				if v := env(k); v != "" || k != "DATABASE_URL" {
					return v
				}
				return "sqlite:check-upstream-opens-no-database.db"
			}
		}
		cfg, err := config.Load(*path, load)
		if err != nil {
			return err
		}
		if cfg.IsDev() {
			return errors.New("this configuration is for dev mode; run `portal dev`, which refuses nothing embedded")
		}
		switch args[0] {
		case "check-config":
			return checkConfig(cfg, *strict, stderr)
		case "check-upstream":
			return checkUpstream(ctx, cfg, stderr)
		case "migrate":
			return migrate(ctx, cfg, stderr)
		}
		return serve(ctx, cfg, env, stderr, devOptions{})
	}
	return errors.New(usage)
}

// migrate opens the database, which migrates it (under a lock, so that
// replicas starting at the same time wait), and closes it.
func migrate(ctx context.Context, cfg *config.Config, stderr io.Writer) error {
	log := newLogger(stderr, false, "info")
	st, took, err := openStore(ctx, cfg, log)
	if err != nil {
		return fmt.Errorf("migrating the database: %w", err)
	}
	defer st.Close()
	fmt.Fprintf(stderr, "the database is at this release's schema (migrations took %d ms)\n", took.Milliseconds())
	return nil
}

// checkConfig reports a valid configuration's unknown keys: warnings, or
// errors when strict (CI, where a misspelt key must not pass).
func checkConfig(cfg *config.Config, strict bool, stderr io.Writer) error {
	for _, k := range cfg.Unknown {
		fmt.Fprintf(stderr, "unknown key %s: this release ignores it\n", k)
	}
	if strict && len(cfg.Unknown) > 0 {
		return fmt.Errorf("%d unknown keys (--strict)", len(cfg.Unknown))
	}
	fmt.Fprintln(stderr, "configuration is valid")
	return nil
}

// devDatabase gives dev mode a database when none is configured: SQLite in
// DIR (kept), or in a temporary directory (removed on exit).
func devDatabase(cfg *config.Config, dir string) (func(), error) {
	if cfg.Database.URL != "" {
		return func() {}, nil
	}
	cleanup := func() {}
	if dir == "" {
		tmp, err := os.MkdirTemp("", "rms-portal-dev-")
		if err != nil {
			return nil, err
		}
		dir, cleanup = tmp, func() { os.RemoveAll(tmp) }
	} else if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	cfg.Database.URL = "sqlite:" + filepath.Join(dir, "portal.db")
	if len(cfg.Session.Keys) == 0 {
		key, err := devSessionKey(dir)
		if err != nil {
			cleanup()
			return nil, err
		}
		cfg.Session.Keys = []string{key}
	}
	return cleanup, nil
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

func serve(ctx context.Context, cfg *config.Config, env func(string) string, stderr io.Writer, dev devOptions) error {
	log := newLogger(stderr, cfg.IsDev(), env("RMS_LOG_LEVEL"))
	for _, k := range cfg.Unknown {
		log.Warn("configuration key ignored: this release does not know it", "key", k)
	}
	processors(env, cfg, log)
	l, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.Listen, err)
	}
	p, err := assemble(ctx, cfg, log, hooks{})
	if err != nil {
		l.Close()
		return err
	}
	defer p.Close()
	// Assembling compressed the static files (brotli at its best level
	// takes tens of megabytes for a moment): give that memory back now
	// rather than over the next minutes.
	debug.FreeOSMemory()
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	done := make(chan error, 1)
	go func() { done <- serveOn(ctx, p, l, log) }()
	if p.dev != nil {
		// The dev platform's Cloud API is served by this process, so the
		// demo data goes in once it serves.
		if err := p.dev.seed(ctx, p, dev, log); err != nil {
			stop()
			<-done
			return err
		}
		if dev.serveConfig != "" {
			if err := p.dev.writeServeConfig(cfg, dev.serveConfig); err != nil {
				stop()
				<-done
				return err
			}
			log.Info("serve configuration written", "file", dev.serveConfig)
		}
		p.settled.Store(true)
		fmt.Fprintf(stderr, "\n  Portal:   %s\n  API docs: %s/api-docs\n  Sign in as a demo user: %s\n\n", cfg.BaseURL, cfg.BaseURL, demoUsers(cfg))
	}
	return <-done
}

// demoUsers names the dev identity provider's users.
func demoUsers(cfg *config.Config) string {
	if cfg.DevIDP == nil {
		return "(none)"
	}
	var names []string
	for _, u := range cfg.DevIDP.Users {
		names = append(names, u.Username)
	}
	return strings.Join(names, ", ")
}

// serveOn serves an assembled portal on l until ctx ends, with its
// background work (and /metrics on its own port when configured).
func serveOn(ctx context.Context, p *app, l net.Listener, log *slog.Logger) error {
	// Background work outlives the listener: it runs through the drain and
	// stops once the requests in flight have finished.
	bg, stopBackground := context.WithCancel(context.WithoutCancel(ctx))
	waitBackground := p.background(bg, log)
	defer func() {
		stopBackground()
		waitBackground()
	}()
	if addr := p.cfg.Metrics.Listen; addr != "" {
		ml, err := net.Listen("tcp", addr)
		if err != nil {
			close(p.metricsReady)
			return fmt.Errorf("metrics: listen on %s: %w", addr, err)
		}
		p.metricsBound = ml.Addr().String()
		close(p.metricsReady)
		mux := http.NewServeMux()
		mux.Handle("GET /metrics", p.metricsHandler())
		// The management port is the operators': the upstream report is
		// served here as it is, behind the metrics credentials if any.
		mux.Handle("GET /healthz/upstreams", p.protectManagement(httpserver.UpstreamsHandler(p.upstreamReport, 3*time.Second)))
		if p.cfg.Metrics.Profiling {
			mux.Handle("/debug/pprof/", p.protectManagement(profiles()))
		}
		srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
		go func() { _ = srv.Serve(ml) }()
		go func() {
			<-bg.Done()
			_ = srv.Close()
		}()
		log.Info("metrics listening", "addr", ml.Addr().String())
	}
	log.Info("portal listening", "addr", l.Addr().String(), "base_url", p.cfg.BaseURL, "mode", p.cfg.Mode)
	return httpserver.Serve(ctx, p.echo, l, httpserver.Stop{Drain: p.cfg.Shutdown.DrainPeriod(), Grace: p.cfg.Shutdown.Grace,
		Draining: func() { p.draining.Store(true) }}, log)
}
