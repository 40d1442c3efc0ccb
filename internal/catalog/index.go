package catalog

import (
	"strings"
	"sync"
	"time"

	"github.com/edh-platform/rms-portal/internal/platform"
	"github.com/edh-platform/rms-portal/internal/portal/schema"
	"github.com/edh-platform/rms-portal/internal/portal/topiccatalog"
)

// indexTTL is how long a built index answers searches: an edit on this
// replica replaces it at once, one on another within this.
const indexTTL = 15 * time.Second

// item is an entry with its search text (lower case, every searchable
// field on one line), made once per build.
type item struct {
	e    topiccatalog.CatalogEntry
	text string
}

func newItem(e topiccatalog.CatalogEntry) item {
	var b strings.Builder
	for _, s := range []string{e.Topic, e.Owner, e.Description, e.Contact, e.Classification} {
		b.WriteString(strings.ToLower(s))
		b.WriteByte('\n')
	}
	for _, list := range [][]string{e.Tags, e.Fields} {
		for _, s := range list {
			b.WriteString(s)
			b.WriteByte('\n')
		}
	}
	return item{e: e, text: b.String()}
}

// Query is a search, lower-cased once.
type Query struct {
	Text, Tag, Classification, Owner, Field string
}

// NewQuery lower-cases a catalog query.
func NewQuery(q topiccatalog.CatalogQuery) Query {
	l := func(s string) string { return strings.ToLower(strings.TrimSpace(s)) }
	return Query{Text: l(q.Search), Tag: l(q.Tag), Classification: l(q.Classification), Owner: l(q.Owner), Field: l(q.Field)}
}

// matches tells whether an entry is found by a query: every part given
// must match (the text anywhere, a tag or a field exactly, an owner as
// the unit or within the contact).
func (q Query) matches(it *item) bool {
	e := &it.e
	switch {
	case q.Text != "" && !strings.Contains(it.text, q.Text),
		q.Tag != "" && !contains(e.Tags, q.Tag),
		q.Classification != "" && e.Classification != q.Classification,
		q.Field != "" && !contains(e.Fields, q.Field),
		q.Owner != "" && strings.ToLower(e.Owner) != q.Owner && !strings.Contains(strings.ToLower(e.Contact), q.Owner):
		return false
	}
	return true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// index is one environment's catalog as last built, sorted by topic,
// and the topic list it was built from.
type index struct {
	built time.Time
	src   []platform.TopicInfo
	items []item
}

// of tells whether the index was built from this list: a cached list is
// never modified, only replaced.
func (x *index) of(topics []platform.TopicInfo) bool {
	if len(topics) != len(x.src) {
		return false
	}
	return len(topics) == 0 || &topics[0] == &x.src[0]
}

// search returns the entries a query finds, in topic order.
func (x *index) search(q Query) []topiccatalog.CatalogEntry {
	out := []topiccatalog.CatalogEntry{}
	for i := range x.items {
		if q.matches(&x.items[i]) {
			out = append(out, x.items[i].e)
		}
	}
	return out
}

// indexes keeps each environment's index, and the field names of the
// schemas seen (by registry id, which never changes its text).
type indexes struct {
	mu     sync.Mutex
	byEnv  map[string]*index
	fields map[int][]string
}

func newIndexes() *indexes {
	return &indexes{byEnv: map[string]*index{}, fields: map[int][]string{}}
}

func (x *indexes) get(env string, now time.Time) *index {
	x.mu.Lock()
	defer x.mu.Unlock()
	if i := x.byEnv[env]; i != nil && now.Sub(i.built) < indexTTL && now.Sub(i.built) >= 0 {
		return i
	}
	return nil
}

func (x *indexes) put(env string, i *index) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.byEnv[env] = i
}

// forget drops an environment's index (an edit made here).
func (x *indexes) forget(env string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	delete(x.byEnv, env)
}

// fieldsOf returns a schema's field names, parsed once per schema id.
func (x *indexes) fieldsOf(v schema.SchemaVersion) []string {
	x.mu.Lock()
	f, ok := x.fields[v.ID]
	x.mu.Unlock()
	if ok {
		return f
	}
	f = Fields(v.Type, v.Schema)
	x.mu.Lock()
	if len(x.fields) > 100_000 {
		clear(x.fields)
	}
	x.fields[v.ID] = f
	x.mu.Unlock()
	return f
}
