package records

import "time"

// SetTailClock replaces the clock of m's tails (tests).
func SetTailClock(m *Service, now func() time.Time) { m.tails.now = now }

// TailIdle is how long a tail goes without a poll before it has ended.
const TailIdle = tailIdle
