//go:build race

package schemareg

// raceEnabled: with the race detector, sync.Pool drops a part of what it
// is given on purpose, so what a kept buffer saves cannot be counted.
const raceEnabled = true
