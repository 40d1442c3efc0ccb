package topics

import (
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/edh-platform/rms-portal/internal/platform"
)

// listMemo remembers the views of a topic list that requests ask for (a
// unit's run of names, the whole cluster without internal topics, a
// search in either), for as long as the list they came from is the one
// in force. A cached list is never modified, only replaced, so its first
// element's address and its length name it: a list page costs a lookup
// and a copy of 100 items, not a pass over every topic of the cluster.
type listMemo struct {
	mu    sync.Mutex
	views map[memoKey]memoView
	// current is each environment's list in force (its first element):
	// views of an older list are dropped when a newer one is seen, so
	// that a kept view never holds a replaced list alive (a cluster of
	// 100,000 topics is a list of several megabytes, replaced at every
	// refresh and every write).
	current map[string]*platform.TopicInfo
}

// memoView keeps the list it came from alive, so that its address cannot
// be reused by a later list while the view is kept.
type memoView struct {
	src, view []platform.TopicInfo
}

type memoKey struct {
	env    string
	first  *platform.TopicInfo
	n      int
	scope  string
	search string
}

// memoViews bounds the views kept; when full they are all dropped (the
// list they came from is usually gone by then anyway).
const memoViews = 512

func newListMemo() *listMemo {
	return &listMemo{views: map[memoKey]memoView{}, current: map[string]*platform.TopicInfo{}}
}

// view returns the topics of all that a scope sees and that contain
// search (any case): the names starting with prefix, or, when prefix is
// empty, every topic but the internal ones.
func (m *listMemo) view(env string, all []platform.TopicInfo, prefix, search string) []platform.TopicInfo {
	if len(all) == 0 {
		return nil
	}
	key := memoKey{env: env, first: &all[0], n: len(all), scope: prefix, search: strings.ToLower(search)}
	if v, ok := m.lookup(key); ok {
		return v
	}
	v := scopeView(all, prefix)
	if key.search != "" {
		// Counted first: a kept view holds exactly its items.
		n := 0
		for _, t := range v {
			if containsFold(t.Name, key.search) {
				n++
			}
		}
		kept := make([]platform.TopicInfo, 0, n)
		for _, t := range v {
			if containsFold(t.Name, key.search) {
				kept = append(kept, t)
			}
		}
		v = kept
	}
	return m.remember(key, all, v, true)
}

// lookup returns a kept view.
func (m *listMemo) lookup(key memoKey) ([]platform.TopicInfo, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	kept, ok := m.views[key]
	return kept.view, ok
}

// remember keeps a view of src and returns it. A view of the whole list
// (fromList) that is not the environment's list in force makes it so, and
// drops the views of the one before.
func (m *listMemo) remember(key memoKey, src, view []platform.TopicInfo, fromList bool) []platform.TopicInfo {
	m.mu.Lock()
	defer m.mu.Unlock()
	if fromList && m.current[key.env] != key.first {
		// A newer list (or, racing, an older one): the kept views of the
		// environment are of another list, and go.
		m.current[key.env] = key.first
		for k := range m.views {
			if k.env == key.env {
				delete(m.views, k)
			}
		}
	}
	if len(m.views) >= memoViews {
		clear(m.views)
	}
	m.views[key] = memoView{src: src, view: view}
	return view
}

// scopeView is the run of names starting with prefix (the list is sorted
// by name), or every non-internal topic when prefix is empty.
func scopeView(all []platform.TopicInfo, prefix string) []platform.TopicInfo {
	if prefix == "" {
		out := make([]platform.TopicInfo, 0, len(all))
		for _, t := range all {
			if !t.Internal {
				out = append(out, t)
			}
		}
		return out
	}
	lo := sort.Search(len(all), func(i int) bool { return all[i].Name >= prefix })
	// Every name with the prefix sorts before the prefix with its last
	// byte raised by one.
	end := prefix[:len(prefix)-1] + string([]byte{prefix[len(prefix)-1] + 1})
	hi := lo + sort.Search(len(all)-lo, func(i int) bool { return all[lo+i].Name >= end })
	return all[lo:hi:hi]
}

// containsFold reports whether s contains the lower-case needle, in any
// case; names are ASCII in practice, so the common case allocates nothing.
func containsFold(s, needle string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' || c >= 0x80 {
			return strings.Contains(strings.ToLower(s), needle)
		}
	}
	return strings.Contains(s, needle)
}

// byPartitions is a view ordered by partition count, then name (kept like
// the views it comes from, for as long as its list is in force).
func (m *listMemo) byPartitions(env string, view []platform.TopicInfo) []platform.TopicInfo {
	if len(view) == 0 {
		return view
	}
	key := memoKey{env: env, first: &view[0], n: len(view), scope: "\x00partitions"}
	if v, ok := m.lookup(key); ok {
		return v
	}
	sorted := slices.Clone(view)
	slices.SortStableFunc(sorted, func(a, b platform.TopicInfo) int { return a.Partitions - b.Partitions })
	return m.remember(key, view, sorted, false)
}
