//go:build race

package main

// raceEnabled: the test binary runs with the race detector, whose cost
// the benchmarks would measure.
const raceEnabled = true
