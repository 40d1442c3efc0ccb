package portal

import "time"

// AutoRestart is a connector's auto-restart: the portal restarts it, or
// its failed tasks, when they fail, first after a minute and then after
// twice the last wait, up to an hour (the platform may change both), until
// MaxRestarts restarts (0: without limit) have not brought it back.
type AutoRestart struct {
	MaxRestarts int
	// Attempts are the restarts since it last ran well (or a person
	// paused, resumed or restarted it).
	Attempts int
	// GivenUp: MaxRestarts restarts did not bring it back; a person's
	// restart starts again.
	GivenUp bool
	// LastAt is the portal's last restart; NextAt when the next one is due
	// while it is failing (zero otherwise); GivesUpAt, when its restarts
	// are spent, when it gives up if the connector still fails then.
	LastAt, NextAt, GivesUpAt time.Time
	SetBy                     string
	SetAt                     time.Time
}

// AutoRestartSpec turns a connector's auto-restart on or off.
type AutoRestartSpec struct {
	Enabled bool
	// MaxRestarts bounds the restarts before the portal gives up; 0 for
	// no limit.
	MaxRestarts int
}
