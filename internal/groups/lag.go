package groups

import (
	"context"
	"maps"
	"strconv"
	"sync"
	"time"

	"github.com/edh-platform/rms-portal/internal/lag"
	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal/group"
)

// lagWatch is how long a group stays sampled after it was last shown: a
// page left open keeps learning its lag in time.
const lagWatch = 10 * time.Minute

// groupLag learns groups' lag in time from the offsets seen: every
// answer's, and those of the groups shown lately sampled in the
// background (SampleLag).
type groupLag struct {
	history *lag.History
	now     func() time.Time

	mu      sync.Mutex
	watched map[string]*watchedEnv
}

type watchedEnv struct {
	env    *platform.Environment
	groups map[string]time.Time
}

func newGroupLag() *groupLag {
	// 360 points a series: an hour of samples every 10 s.
	return &groupLag{history: lag.New(360, 2*time.Hour), now: time.Now, watched: map[string]*watchedEnv{}}
}

func endSeries(env *platform.Environment, tp platform.TopicPartition) string {
	return env.Name() + "\x00" + tp.Topic + "\x00" + strconv.Itoa(tp.Partition)
}

func groupSeries(env *platform.Environment, group string, tp platform.TopicPartition) string {
	return env.Name() + "\x00" + group + "\x00" + tp.Topic + "\x00" + strconv.Itoa(tp.Partition)
}

// observe records positions read upstream and keeps the groups watched.
func (l *groupLag) observe(env *platform.Environment, committed map[string][]platform.GroupOffset, ends map[platform.TopicPartition]int64) {
	now := l.now()
	for tp, end := range ends {
		l.history.Add(endSeries(env, tp), now, end)
	}
	l.mu.Lock()
	w := l.watched[env.Name()]
	if w == nil {
		w = &watchedEnv{env: env, groups: map[string]time.Time{}}
		l.watched[env.Name()] = w
	}
	for g := range committed {
		w.groups[g] = now
	}
	l.mu.Unlock()
	for g, offs := range committed {
		for _, o := range offs {
			if o.Offset >= 0 {
				l.history.Add(groupSeries(env, g, o.TopicPartition), now, o.Offset)
			}
		}
	}
}

// estimate is a group's lag in time on a partition.
func (l *groupLag) estimate(env *platform.Environment, id string, o platform.GroupOffset, end int64) group.LagTime {
	e := l.history.Estimate(endSeries(env, o.TopicPartition), groupSeries(env, id, o.TopicPartition), o.Offset, end, l.now())
	return group.LagTime{Known: e.Known, Age: e.Age, AtLeast: e.AtLeast, CatchUpKnown: e.CatchUpKnown, CatchUp: e.CatchUp, Falling: e.Falling}
}

// latest keeps, of two partitions' lag in time, the later: the older
// record, the longer catch-up (a falling behind wins).
func latest(a, b group.LagTime) group.LagTime {
	out := a
	if b.Known && (!a.Known || b.Age > a.Age) {
		out.Known, out.Age, out.AtLeast = true, b.Age, b.AtLeast
	}
	switch {
	case !b.CatchUpKnown:
	case !a.CatchUpKnown, b.Falling && !a.Falling, !a.Falling && !b.Falling && b.CatchUp > a.CatchUp:
		out.CatchUpKnown, out.CatchUp, out.Falling = true, b.CatchUp, b.Falling
	}
	return out
}

// SetClock replaces the clock the lag in time is reckoned by (tests).
func (s *Service) SetClock(now func() time.Time) { s.lag.now = now }

// SampleLag reads, for each environment, the positions of the groups
// shown in the last ten minutes (two requests an environment), so that
// their lag in time is known when they are next shown.
func (s *Service) SampleLag(ctx context.Context) {
	l := s.lag
	l.mu.Lock()
	var envs []*watchedEnv
	cutoff := l.now().Add(-lagWatch)
	for name, w := range l.watched {
		for g, seen := range w.groups {
			if seen.Before(cutoff) {
				delete(w.groups, g)
			}
		}
		if len(w.groups) == 0 {
			delete(l.watched, name)
			continue
		}
		envs = append(envs, &watchedEnv{env: w.env, groups: maps.Clone(w.groups)})
	}
	l.mu.Unlock()
	for _, w := range envs {
		ids := make([]string, 0, len(w.groups))
		for g := range w.groups {
			ids = append(ids, g)
		}
		cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		committed, ends, err := Positions(cctx, w.env, ids)
		cancel()
		if err == nil {
			l.observe(w.env, committed, ends)
		}
	}
}
