package audit

import (
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/edh-platform/rms-portal/internal/portal/trail"
)

// maxAnonymousSources bounds the sources counted apart in one minute;
// beyond it, refusals are counted under the source "*".
const maxAnonymousSources = 10000

// anonymous aggregates the refusals of unauthenticated callers: one event
// per source address and minute, whose count grows as more come, so that
// a flood of garbage tokens leaves a line per minute, not a row per
// request.
type anonymous struct {
	r *Recorder

	mu      sync.Mutex
	minute  time.Time
	sources map[string]*anonCount
}

type anonCount struct {
	id      int64 // the minute's event, 0 until stored
	storing bool  // the first refusal is being stored
	count   int
	written int // the count the stored event holds
	event   trail.AuditEvent
}

func newAnonymous(r *Recorder) *anonymous {
	return &anonymous{r: r, sources: map[string]*anonCount{}}
}

// countChange is the change that carries an aggregated event's count.
func countChange(n int) []trail.Change {
	return []trail.Change{{Field: "requests", After: strconv.Itoa(n)}}
}

// RefusedAnonymous records the refusal of a caller that could not be
// authenticated. The first refusal of a source in a minute is stored at
// once; the others of that minute add to its count, which Run writes.
func (r *Recorder) RefusedAnonymous(ctx context.Context, e trail.AuditEvent) {
	e = r.complete(ctx, e)
	a := r.anon
	minute := e.Time.Truncate(time.Minute)
	a.mu.Lock()
	if !minute.Equal(a.minute) {
		a.mu.Unlock()
		a.flush(ctx, true) // the minute before is complete
		a.mu.Lock()
		if minute.After(a.minute) {
			a.minute, a.sources = minute, map[string]*anonCount{}
		}
	}
	key := e.SourceIP
	if _, seen := a.sources[key]; !seen && len(a.sources) >= maxAnonymousSources {
		key = "*"
	}
	c, seen := a.sources[key]
	if !seen {
		e.SourceIP = key
		e.Changes = countChange(1)
		c = &anonCount{event: e, storing: true}
		a.sources[key] = c
	}
	c.count++
	first := !seen
	a.mu.Unlock()
	if !first {
		return
	}
	id, err := r.append(ctx, c.event, PhaseEvent)
	a.mu.Lock()
	defer a.mu.Unlock()
	c.storing = false
	if err == nil {
		c.id, c.written = id, 1
	}
}

// flush writes the counts that grew since they were stored; ended also
// forgets the minute's sources (a new minute began).
func (a *anonymous) flush(ctx context.Context, ended bool) {
	a.mu.Lock()
	type pending struct {
		c     *anonCount
		id    int64
		count int
	}
	var todo []pending
	for _, c := range a.sources {
		if !c.storing && c.count != c.written {
			todo = append(todo, pending{c, c.id, c.count})
		}
	}
	if ended {
		a.sources = map[string]*anonCount{}
	}
	a.mu.Unlock()
	for _, p := range todo {
		e := p.c.event
		id, err := p.id, error(nil)
		if id == 0 {
			e.Changes = countChange(p.count)
			id, err = a.r.append(ctx, e, PhaseEvent)
		} else {
			err = a.r.settle(ctx, id, settlement{outcome: e.Outcome, detail: e.Detail, resource: e.Resource, changes: countChange(p.count)})
		}
		if err == nil {
			a.mu.Lock()
			p.c.id, p.c.written = id, p.count
			a.mu.Unlock()
		}
	}
}
