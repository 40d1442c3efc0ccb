package main

import (
	"io"
	"log/slog"
	"runtime"
	"testing"

	"github.com/edh-platform/rms-portal/internal/config"
)

// TestProcessorsLeavesRoomForPages: without GOMAXPROCS the process runs
// twice as many Go processors as CPUs, and costly work takes half the
// CPUs; an operator's GOMAXPROCS and costly_work.total are kept.
func TestProcessorsLeavesRoomForPages(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	t.Cleanup(func() { runtime.GOMAXPROCS(before) })
	runtime.SetDefaultGOMAXPROCS()
	cpus := runtime.GOMAXPROCS(0)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))

	cfg := &config.Config{}
	processors(func(string) string { return "" }, cfg, log)
	if got := runtime.GOMAXPROCS(0); got != 2*cpus {
		t.Errorf("GOMAXPROCS %d with %d CPUs, want %d", got, cpus, 2*cpus)
	}
	if got := cfg.RateLimits.CostlyWork.Total; got != max(1, cpus/2) {
		t.Errorf("costly work at once: %d, want %d", got, max(1, cpus/2))
	}
	processors(func(string) string { return "" }, cfg, log)
	if got := runtime.GOMAXPROCS(0); got != 2*cpus {
		t.Errorf("a second call doubled again: GOMAXPROCS %d", got)
	}

	runtime.GOMAXPROCS(3)
	cfg = &config.Config{}
	cfg.RateLimits.CostlyWork.Total = 5
	processors(func(k string) string {
		if k == "GOMAXPROCS" {
			return "3"
		}
		return ""
	}, cfg, log)
	if got := runtime.GOMAXPROCS(0); got != 3 || cfg.RateLimits.CostlyWork.Total != 5 {
		t.Errorf("the operator's settings changed: GOMAXPROCS %d, costly work %d", got, cfg.RateLimits.CostlyWork.Total)
	}
}
