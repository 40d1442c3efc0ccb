package gate

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"sort"
	"strconv"
	"strings"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// Pages signs page tokens, so that a token made up by a caller (or taken
// from another list) is refused instead of giving a page that looks like
// the end. Replicas share the key (it derives from the session keys), so a
// token works on any of them.
type Pages struct {
	key []byte
}

func newPages(key []byte) *Pages {
	if len(key) == 0 {
		key = make([]byte, 32)
		_, _ = rand.Read(key)
	}
	return &Pages{key: key}
}

// Encode makes a token for a position in a list.
func (p *Pages) Encode(list, position string) string {
	mac := hmac.New(sha256.New, p.key)
	mac.Write([]byte(list + "\x00" + position))
	return base64.RawURLEncoding.EncodeToString([]byte(position)) + "." + base64.RawURLEncoding.EncodeToString(mac.Sum(nil)[:12])
}

// Decode checks a token of a list and returns its position.
func (p *Pages) Decode(list, token string) (string, bool) {
	raw, sig, ok := strings.Cut(token, ".")
	if !ok {
		return "", false
	}
	pos, err := base64.RawURLEncoding.DecodeString(raw)
	if err != nil || len(pos) == 0 {
		return "", false
	}
	return string(pos), hmac.Equal([]byte(p.Encode(list, string(pos))), []byte(raw+"."+sig))
}

// BadToken is the refusal of a page token this API did not issue.
func BadToken() *portal.Error {
	return portal.Invalid("page_token", "is not a token this API issued for this list; pass next_page_token from the previous page")
}

// CheckQuery validates a list query, filling in the default page size, and
// returns the key the page starts after.
func (p *Pages) CheckQuery(list string, q *portal.ListQuery) (after string, err error) {
	var v portal.Validation
	switch {
	case q.PageSize == 0:
		q.PageSize = portal.DefaultPageSize
	case q.PageSize < 0 || q.PageSize > portal.MaxPageSize:
		v.Add(portal.Invalid("page_size", "must be between 1 and %d", portal.MaxPageSize))
	}
	if q.PageToken != "" {
		pos, ok := p.Decode(list, q.PageToken)
		if !ok {
			v.Add(BadToken())
		}
		after = pos
	}
	if len(q.Search) > 256 {
		v.Add(portal.Invalid("search", "must be at most 256 characters"))
	}
	if q.Offset < 0 {
		v.Add(portal.Invalid("offset", "must not be negative"))
	}
	return after, v.Err()
}

// Paginate filters items (sorted ascending by name) by the query's search,
// then returns the page after the token. Paging is by key, so a page does
// not shift when items are added or removed before it.
func Paginate[T any](p *Pages, list string, items []T, name func(T) string, q portal.ListQuery) (portal.Page[T], error) {
	after, err := p.CheckQuery(list, &q)
	if err != nil {
		return portal.Page[T]{}, err
	}
	if q.Search != "" {
		needle := strings.ToLower(q.Search)
		kept := make([]T, 0, len(items)/4)
		for _, it := range items {
			if strings.Contains(strings.ToLower(name(it)), needle) {
				kept = append(kept, it)
			}
		}
		items = kept
	}
	total := len(items)
	// Positions by number: an offset asked for, a token issued for one,
	// or an order that is not by name (where a name is no position).
	if offset, byNumber := offsetOf(after, q); byNumber {
		return pageAt(p, list, items, offset, q), nil
	}
	var page []T
	if q.Descending {
		end := len(items)
		if after != "" {
			end = sort.Search(len(items), func(i int) bool { return name(items[i]) >= after })
		}
		start := max(0, end-q.PageSize)
		page = make([]T, 0, end-start)
		for i := end - 1; i >= start; i-- {
			page = append(page, items[i])
		}
	} else {
		start := 0
		if after != "" {
			start = sort.Search(len(items), func(i int) bool { return name(items[i]) > after })
		}
		end := min(len(items), start+q.PageSize)
		page = append(make([]T, 0, end-start), items[start:end]...)
	}
	out := portal.Page[T]{Items: page, Total: total}
	if len(page) == q.PageSize && len(page) > 0 {
		last := name(page[len(page)-1])
		more := false
		if q.Descending {
			more = name(items[0]) < last
		} else {
			more = name(items[len(items)-1]) > last
		}
		if more {
			out.NextPageToken = p.Encode(list, last)
		}
	}
	return out, nil
}

// offsetOf tells whether a page is asked by position, and which.
func offsetOf(after string, q portal.ListQuery) (int, bool) {
	if n, ok := strings.CutPrefix(after, "@"); ok {
		// Names never start with "@": this token holds a position.
		off, err := strconv.Atoi(n)
		return max(off, 0), err == nil
	}
	if after == "" && (q.Offset > 0 || (q.SortBy != "" && q.SortBy != portal.SortByName)) {
		return q.Offset, true
	}
	return 0, false
}

// pageAt is the page at a position of items, which are in the order to
// show (reversed here when descending); its token holds the next position.
func pageAt[T any](p *Pages, list string, items []T, offset int, q portal.ListQuery) portal.Page[T] {
	out := portal.Page[T]{Total: len(items), Items: []T{}}
	for i := offset; i < len(items) && len(out.Items) < q.PageSize; i++ {
		j := i
		if q.Descending {
			j = len(items) - 1 - i
		}
		out.Items = append(out.Items, items[j])
	}
	if next := offset + len(out.Items); next < len(items) && len(out.Items) > 0 {
		out.NextPageToken = p.Encode(list, "@"+strconv.Itoa(next))
	}
	return out
}

// SortByName sorts items by a name, for lists assembled in the service.
func SortByName[T any](items []T, name func(T) string) {
	sort.Slice(items, func(i, j int) bool { return name(items[i]) < name(items[j]) })
}
