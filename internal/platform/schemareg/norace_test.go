//go:build !race

package schemareg

const raceEnabled = false
