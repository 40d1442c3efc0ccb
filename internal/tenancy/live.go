package tenancy

import "sync/atomic"

// Live is the tenancy in force: the configuration's, with the business
// units and read-only switches kept in the database laid over it. It is
// replaced whole when those change, so that a request works with one
// consistent tenancy from start to end.
type Live struct {
	cur atomic.Pointer[Tenancy]
}

// NewLive starts with t.
func NewLive(t *Tenancy) *Live {
	l := &Live{}
	l.cur.Store(t)
	return l
}

// Current returns the tenancy in force.
func (l *Live) Current() *Tenancy { return l.cur.Load() }

// Set puts t in force.
func (l *Live) Set(t *Tenancy) { l.cur.Store(t) }
