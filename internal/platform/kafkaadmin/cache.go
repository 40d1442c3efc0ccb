package kafkaadmin

import (
	"context"
	"sort"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// listCache keeps a cluster's topic list warm so that no request waits
// for a metadata fetch: a background loop refetches it every refresh
// interval, a list up to maxStale old is served while a refetch fails,
// and writes (the portal's own, and other replicas' through the store's
// notifications) patch the cached list in place instead of dropping it.
//
// Lists are never modified once published: a patch builds a new slice,
// so callers may keep the one they got.
type listCache struct {
	refresh  time.Duration
	maxStale time.Duration
	observe  platform.CacheObserver
	now      func() time.Time
	group    singleflight.Group

	mu     sync.Mutex
	topics []platform.TopicInfo
	// at is when the cached list was fetched (patches keep it).
	at time.Time
	// took is how long the last fetch took.
	took time.Duration
	// recent are writes applied lately (within two of the loop's intervals),
	// re-applied to lists fetched after them: a fetch may have started
	// before a write, or reached a broker whose metadata lags the
	// controller's.
	recent map[string]recentChange
	// kick wakes the loop for an early refetch.
	kick chan struct{}
}

type recentChange struct {
	change platform.TopicChange
	at     time.Time
}

func newListCache(refresh, maxStale time.Duration, observe platform.CacheObserver) *listCache {
	if observe == nil {
		observe = func(string, bool) {}
	}
	if maxStale < refresh {
		maxStale = refresh
	}
	return &listCache{refresh: refresh, maxStale: maxStale, observe: observe, now: time.Now,
		recent: map[string]recentChange{}, kick: make(chan struct{}, 1)}
}

// forget drops the cached list: nothing kept it fresh while the client
// was idle, so the next use fetches it.
func (l *listCache) forget() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.topics, l.at = nil, time.Time{}
}

// seed takes another cache's list when this one has none: an environment
// that starts using a cluster another one uses already starts from that
// list (a second full metadata request right after another one waits for
// librdkafka's backoff, about 250 ms).
func (l *listCache) seed(from *listCache) {
	from.mu.Lock()
	topics, at := from.topics, from.at
	from.mu.Unlock()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.topics == nil && topics != nil {
		l.topics, l.at = topics, at
	}
}

// fetcher fetches the whole list from the cluster.
type fetcher func(ctx context.Context) ([]platform.TopicInfo, error)

// get returns the cached list while it is within the staleness bound,
// else fetches it (one fetch shared by every waiter).
func (l *listCache) get(ctx context.Context, fetch fetcher) ([]platform.TopicInfo, error) {
	if l.refresh <= 0 {
		l.observe("topics", false)
		return fetch(ctx)
	}
	l.mu.Lock()
	topics, age, every := l.topics, l.now().Sub(l.at), l.everyLocked()
	l.mu.Unlock()
	if topics != nil && age < l.maxStale {
		l.observe("topics", true)
		if age >= every {
			// The loop is late (a slow or failing fetch): ask again.
			l.wake()
		}
		return topics, nil
	}
	l.observe("topics", false)
	v, err, _ := l.group.Do("list", func() (any, error) { return l.fetch(ctx, fetch) })
	if err != nil {
		if topics == nil {
			return nil, err
		}
		e := portal.Wrap(err, portal.KindOf(err), "the topic list is %s old, past the bound of %s, and the cluster does not answer (%s)",
			age.Round(time.Second), l.maxStale, portal.MessageOf(err))
		if ps := portal.Problems(err); len(ps) > 0 {
			e.RetryAfter = ps[0].RetryAfter
		}
		return nil, e
	}
	return v.([]platform.TopicInfo), nil
}

// fetch fetches the list, re-applies recent writes and caches it.
func (l *listCache) fetch(ctx context.Context, fetch fetcher) ([]platform.TopicInfo, error) {
	started := l.now()
	topics, err := fetch(ctx)
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.took = l.now().Sub(started)
	for name, r := range l.recent {
		if started.Sub(r.at) > 2*l.everyLocked() {
			delete(l.recent, name)
			continue
		}
		topics = ensured(topics, r.change)
	}
	l.topics, l.at = topics, started
	return topics, nil
}

// refreshShare is how many times as long as a fetch the loop waits at
// least before the next one: the background refresh of a large cluster
// takes at most about 5% of the time, whatever the refresh interval says.
// A fetch of 100,000 topics takes about half a second (metadata of every
// topic, decoded into Go), so such a cluster is refetched every 10 s or
// so; each refetch also leaves that answer's garbage, about 25 MB, to the
// collector.
const refreshShare = 20

// every is how long the loop waits between fetches: the refresh interval,
// or refreshShare times the last fetch's time when that is longer.
func (l *listCache) everyLocked() time.Duration {
	return max(l.refresh, refreshShare*l.took)
}

// run refetches the list every refresh interval (or every refreshShare
// fetches' time, when longer), or at once when woken, until ctx ends. A
// failed refetch is retried at the next tick; the old list is served
// meanwhile, within the staleness bound.
func (l *listCache) run(ctx context.Context, fetch fetcher, log func(error)) {
	if l.refresh <= 0 {
		return
	}
	for {
		if _, err, _ := l.group.Do("list", func() (any, error) { return l.fetch(ctx, fetch) }); err != nil && ctx.Err() == nil {
			log(err)
		}
		l.mu.Lock()
		every := l.everyLocked()
		l.mu.Unlock()
		t := time.NewTimer(every)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		case <-l.kick:
			t.Stop()
		}
	}
}

func (l *listCache) wake() {
	select {
	case l.kick <- struct{}{}:
	default:
	}
}

// apply patches the cached list with a write and remembers the write for
// lists fetched in the next while.
func (l *listCache) apply(c platform.TopicChange) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.recent[c.Name] = recentChange{change: c, at: l.now()}
	if l.topics != nil {
		l.topics = patched(l.topics, c)
	}
}

// ensured applies a recent write to a fetched list where the list does
// not show it yet: a created topic missing, a deleted one present, fewer
// partitions than were added.
func ensured(topics []platform.TopicInfo, c platform.TopicChange) []platform.TopicInfo {
	i := sort.Search(len(topics), func(i int) bool { return topics[i].Name >= c.Name })
	found := i < len(topics) && topics[i].Name == c.Name
	if c.Deleted == found || (found && topics[i].Partitions < c.Partitions) {
		return patched(topics, c)
	}
	return topics
}

// patched returns a copy of a sorted list with one change applied; the
// list given is left as it is.
func patched(topics []platform.TopicInfo, c platform.TopicChange) []platform.TopicInfo {
	i := sort.Search(len(topics), func(i int) bool { return topics[i].Name >= c.Name })
	found := i < len(topics) && topics[i].Name == c.Name
	switch {
	case c.Deleted && !found:
		return topics
	case c.Deleted:
		out := make([]platform.TopicInfo, 0, len(topics)-1)
		return append(append(out, topics[:i]...), topics[i+1:]...)
	case found && topics[i].Partitions == c.Partitions:
		return topics
	}
	info := platform.TopicInfo{Name: c.Name, Partitions: c.Partitions, Internal: c.Name != "" && c.Name[0] == '_'}
	if found {
		out := make([]platform.TopicInfo, len(topics))
		copy(out, topics)
		out[i] = info
		return out
	}
	out := make([]platform.TopicInfo, 0, len(topics)+1)
	out = append(append(out, topics[:i]...), info)
	return append(out, topics[i:]...)
}
