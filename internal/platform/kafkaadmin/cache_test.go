package kafkaadmin

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal"
)

// fakeFetch is a cluster's list for the cache: what it answers, how
// often it was asked, and an error to fail with.
type fakeFetch struct {
	mu     sync.Mutex
	topics []platform.TopicInfo
	calls  int
	err    error
}

func (f *fakeFetch) fetch(context.Context) ([]platform.TopicInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if f.err != nil {
		return nil, f.err
	}
	return append([]platform.TopicInfo(nil), f.topics...), nil
}

func (f *fakeFetch) set(topics []platform.TopicInfo, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.topics, f.err = topics, err
}

func (f *fakeFetch) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls
}

func listNames(ts []platform.TopicInfo) string {
	var out []string
	for _, t := range ts {
		out = append(out, fmt.Sprintf("%s/%d", t.Name, t.Partitions))
	}
	return strings.Join(out, " ")
}

// TestListCacheServesStaleAndPatches: past its refresh interval a list is
// still served at once (the loop is woken to refetch); writes patch it in
// place without touching the lists already handed out, and survive a
// fetch that does not show them yet; a failing cluster is hidden up to the
// staleness bound, then said with the list's age.
func TestListCacheServesStaleAndPatches(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	l := newListCache(30*time.Second, 5*time.Minute, nil)
	l.now = func() time.Time { return now }
	f := &fakeFetch{topics: []platform.TopicInfo{{Name: "a", Partitions: 1}, {Name: "c", Partitions: 3}}}

	first, err := l.get(ctx, f.fetch)
	if err != nil || listNames(first) != "a/1 c/3" || f.count() != 1 {
		t.Fatalf("first list %s %v, %d fetches", listNames(first), err, f.count())
	}
	now = now.Add(time.Minute)
	if got, _ := l.get(ctx, f.fetch); listNames(got) != "a/1 c/3" || f.count() != 1 {
		t.Fatalf("a stale list waited for a fetch: %d fetches", f.count())
	}
	select {
	case <-l.kick:
	default:
		t.Error("a list past its refresh interval did not wake the loop")
	}

	l.apply(platform.TopicChange{Name: "b", Partitions: 2})
	l.apply(platform.TopicChange{Name: "c", Deleted: true})
	l.apply(platform.TopicChange{Name: "a", Partitions: 4})
	patched, _ := l.get(ctx, f.fetch)
	if listNames(patched) != "a/4 b/2" || listNames(first) != "a/1 c/3" || f.count() != 1 {
		t.Fatalf("patched %s, first now %s, %d fetches", listNames(patched), listNames(first), f.count())
	}
	// A fetch that raced the writes (the cluster still shows c, not b).
	if _, err := l.fetch(ctx, f.fetch); err != nil {
		t.Fatal(err)
	}
	if got, _ := l.get(ctx, f.fetch); listNames(got) != "a/4 b/2" {
		t.Errorf("after a racing fetch: %s", listNames(got))
	}
	// Long after, the cluster's word is final again.
	now = now.Add(2 * time.Minute)
	f.set([]platform.TopicInfo{{Name: "a", Partitions: 4}, {Name: "d", Partitions: 1}}, nil)
	if _, err := l.fetch(ctx, f.fetch); err != nil {
		t.Fatal(err)
	}
	if got, _ := l.get(ctx, f.fetch); listNames(got) != "a/4 d/1" {
		t.Errorf("after the writes' window: %s", listNames(got))
	}

	down := portal.New(portal.UpstreamUnavailable, "cluster x is unreachable")
	f.set(nil, down)
	now = now.Add(4 * time.Minute)
	if got, err := l.get(ctx, f.fetch); err != nil || listNames(got) != "a/4 d/1" {
		t.Fatalf("within the bound: %s %v", listNames(got), err)
	}
	now = now.Add(2 * time.Minute)
	_, err = l.get(ctx, f.fetch)
	if !portal.Is(err, portal.UpstreamUnavailable) || !strings.Contains(err.Error(), "6m0s old") {
		t.Errorf("past the bound: %v", err)
	}
}

// TestSlowListsAreRefetchedLessOften: a list that takes long to fetch
// (a large cluster) is refetched at most every refreshShare fetches' time,
// so a list request finds it fresh enough for that long and does not wake
// the loop; past that it does.
func TestSlowListsAreRefetchedLessOften(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	l := newListCache(time.Second, 10*time.Minute, nil)
	l.now = func() time.Time { return now }
	slow := func(ctx context.Context) ([]platform.TopicInfo, error) {
		now = now.Add(2 * time.Second) // the cluster takes 2 s to answer
		return []platform.TopicInfo{{Name: "a", Partitions: 1}}, nil
	}
	if _, err := l.get(ctx, slow); err != nil {
		t.Fatal(err)
	}
	l.mu.Lock()
	every := l.everyLocked()
	l.mu.Unlock()
	if every != 40*time.Second {
		t.Fatalf("a list fetched in 2 s is refetched every %v, want 40s", every)
	}
	woken := func() bool {
		select {
		case <-l.kick:
			return true
		default:
			return false
		}
	}
	now = now.Add(30 * time.Second)
	if _, err := l.get(ctx, slow); err != nil || woken() {
		t.Fatalf("30 s after a 2 s fetch the loop was woken (%v)", err)
	}
	now = now.Add(11 * time.Second)
	if _, err := l.get(ctx, slow); err != nil || !woken() {
		t.Fatalf("41 s after a 2 s fetch the loop was not woken (%v)", err)
	}
}

// TestListStaysWarm: the client refetches its list in the background, so
// a topic created outside the portal shows without a list waiting, and
// the portal's own writes show at once without a metadata request.
func TestListStaysWarm(t *testing.T) {
	ctx := context.Background()
	c := newCluster(t)
	var metadata sync.Map
	count := func() (n int) {
		metadata.Range(func(_, _ any) bool { n++; return true })
		return n
	}
	cl := newClient(t, c, 50*time.Millisecond)
	if _, err := cl.ListTopics(ctx); err != nil {
		t.Fatal(err)
	}
	if err := c.CreateTopic("outside", 2, nil); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		list, err := cl.ListTopics(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(listNames(list), "outside/2") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the background refresh never showed the new topic: %s", listNames(list))
		}
		time.Sleep(10 * time.Millisecond)
	}
	// From here, count full metadata requests (all topics).
	var seq int
	c.ControlKey(int16(kmsg.Metadata), func(req kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		if req.(*kmsg.MetadataRequest).Topics == nil {
			seq++
			metadata.Store(seq, true)
		}
		return nil, nil, false
	})
	// A client whose loop will not tick again during the test.
	cl = newClient(t, c, time.Hour)
	if _, err := cl.ListTopics(ctx); err != nil {
		t.Fatal(err)
	}
	before := count()
	if err := cl.CreateTopic(ctx, platform.TopicSpec{Name: "mine", Partitions: 3}); err != nil {
		t.Fatal(err)
	}
	list, _ := cl.ListTopics(ctx)
	if !strings.Contains(listNames(list), "mine/3") {
		t.Errorf("own write not in the list: %s", listNames(list))
	}
	if err := cl.DeleteTopic(ctx, "outside"); err != nil {
		t.Fatal(err)
	}
	list, _ = cl.ListTopics(ctx)
	if strings.Contains(listNames(list), "outside") {
		t.Errorf("deleted topic still listed: %s", listNames(list))
	}
	if n := count() - before; n > 1 {
		t.Errorf("writes cost %d full metadata requests", n)
	}
}
