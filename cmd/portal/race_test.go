//go:build race

package main

// raceEnabled: the test binary runs with the race detector, and binaries
// it builds should too (so that they reuse the same build cache).
const raceEnabled = true
