package main

import (
	"log/slog"
	"runtime"

	"github.com/edh-platform/rms-portal/internal/config"
)

// processors gives the process twice as many Go processors as it has
// CPUs (the runtime's default, which follows the container's limit),
// unless the operator set GOMAXPROCS, and bounds costly work (filtered
// record scans, large bodies) to half the CPUs. Costly work runs for tens
// of milliseconds without a pause; with one Go processor per CPU, a page
// whose request arrives while every processor is taken waits for Go's
// preemption (10 ms and more) however little it needs. With spare Go
// processors it runs at once and the kernel shares the CPUs between it and
// the costly work in finer slices: on 2 CPUs beside a unit's flood of
// costly work, another unit's p99 went from 26-32 ms to 11-14 ms, two to
// three times its quiet p99 (BenchmarkNoisyNeighbour); four times the
// CPUs did no better.
func processors(env func(string) string, cfg *config.Config, log *slog.Logger) {
	if env("GOMAXPROCS") != "" {
		return
	}
	runtime.SetDefaultGOMAXPROCS()
	cpus := runtime.GOMAXPROCS(0)
	if cfg.RateLimits.CostlyWork.Total == 0 {
		cfg.RateLimits.CostlyWork.Total = max(1, cpus/2)
	}
	runtime.GOMAXPROCS(2 * cpus)
	log.Debug("processors", "cpus", cpus, "go_processors", 2*cpus, "costly_work_at_once", cfg.RateLimits.CostlyWork.Total)
}
