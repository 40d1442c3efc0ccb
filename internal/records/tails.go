package records

import (
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/edh-platform/rms-portal/internal/gate"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/trail"
)

const (
	// tailIdle is how long a tail goes without a poll before it has
	// ended: a page that follows a topic polls every few seconds.
	tailIdle = time.Minute
	// tailAmendEvery bounds how far the trail's counts of a tail that
	// goes on lag behind it.
	tailAmendEvery = 15 * time.Second
)

// tails make one audit event of each records tail, with its polls and
// records counted, rather than one per poll: a page following a topic
// for an hour would otherwise write a thousand events. A tail is a
// caller's polls of one topic in one environment (reads that continue
// from the ends of an earlier one) on this replica, until it goes idle.
type tails struct {
	now  func() time.Time
	mu   sync.Mutex
	open map[string]*tail
}

type tail struct {
	event          *gate.Trace
	polls, records int
	// masking is what the tail's polls masked (nil where the stage does
	// not mask).
	masking     *maskNote
	first, last time.Time
	amended     time.Time
}

func newTails(now func() time.Time) *tails {
	return &tails{now: now, open: map[string]*tail{}}
}

// poll counts one poll of a tail, recording the tail's event at its
// first poll and amending its counts now and then; masking is what the
// poll masked (Messages.masked).
func (ts *tails) poll(ctx context.Context, g *gate.Guard, call *gate.Call, topic string, records int, masking *maskNote) {
	now := ts.now()
	key := call.Principal.Subject + " " + call.Env.Name() + " " + topic
	ts.mu.Lock()
	ended := ts.sweep(now)
	t := ts.open[key]
	if t == nil {
		t = &tail{first: now, amended: now}
		ts.open[key] = t
	}
	t.polls++
	t.records += records
	if t.masking == nil {
		t.masking = masking
	} else {
		t.masking.add(masking)
	}
	t.last = now
	first, amend, event := t.polls == 1, now.Sub(t.amended) >= tailAmendEvery, t.event
	if amend {
		t.amended = now
	}
	changes := t.changes()
	ts.mu.Unlock()
	for _, e := range ended {
		e.event.Settle(ctx, "ok", "", e.event.Resource(), e.changes())
	}
	switch {
	case first:
		att := g.Traced(ctx, call, portal.ActTopicReadRecords, topic, changes)
		ts.mu.Lock()
		t.event = att
		ts.mu.Unlock()
	case amend && event != nil:
		event.Settle(ctx, "ok", "", topic, changes)
	}
}

// sweep takes out the tails that went idle, for their last amendment;
// ts.mu is held.
func (ts *tails) sweep(now time.Time) []*tail {
	var out []*tail
	for k, t := range ts.open {
		if now.Sub(t.last) > tailIdle {
			delete(ts.open, k)
			if t.event != nil {
				out = append(out, t)
			}
		}
	}
	return out
}

func (t *tail) changes() []trail.Change {
	out := []trail.Change{{Field: "tail", After: strconv.Itoa(t.polls) + " polls, " + strconv.Itoa(t.records) + " records, from " +
		t.first.UTC().Format(time.RFC3339) + " to " + t.last.UTC().Format(time.RFC3339)}}
	if t.masking != nil {
		out = append(out, t.masking.change())
	}
	return out
}
