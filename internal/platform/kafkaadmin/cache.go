package kafkaadmin

import (
	"strconv"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/edh-platform/rms-portal/internal/platform"
)

// listCache keeps the latest topic list for a short time and shares one
// in-flight metadata request among concurrent callers. Invalidation bumps a
// generation so that a fetch started before a write is never stored as
// fresh after it.
type listCache struct {
	ttl     time.Duration
	observe platform.CacheObserver
	group   singleflight.Group
	mu      sync.Mutex
	gen     uint64
	topics  []platform.TopicInfo
	at      time.Time
}

func newListCache(ttl time.Duration, observe platform.CacheObserver) *listCache {
	if observe == nil {
		observe = func(string, bool) {}
	}
	return &listCache{ttl: ttl, observe: observe}
}

func (l *listCache) get(fetch func() ([]platform.TopicInfo, error)) ([]platform.TopicInfo, error) {
	l.mu.Lock()
	gen := l.gen
	if l.ttl > 0 && l.topics != nil && time.Since(l.at) < l.ttl {
		t := l.topics
		l.mu.Unlock()
		l.observe("topics", true)
		return t, nil
	}
	l.mu.Unlock()
	l.observe("topics", false)
	v, err, _ := l.group.Do(strconv.FormatUint(gen, 10), func() (any, error) {
		topics, err := fetch()
		if err != nil {
			return nil, err
		}
		l.mu.Lock()
		if l.gen == gen {
			l.topics, l.at = topics, time.Now()
		}
		l.mu.Unlock()
		return topics, nil
	})
	if err != nil {
		return nil, err
	}
	return v.([]platform.TopicInfo), nil
}

func (l *listCache) invalidate() {
	l.mu.Lock()
	l.gen++
	l.topics = nil
	l.mu.Unlock()
}
