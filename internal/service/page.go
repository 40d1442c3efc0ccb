package service

import (
	"encoding/base64"
	"sort"
	"strings"

	"github.com/edh-platform/rms-portal/internal/fault"
)

// Paging limits shared by every list.
const (
	DefaultPageSize = 100
	MaxPageSize     = 1000
)

// ListQuery selects one page of a list sorted by name.
type ListQuery struct {
	// PageSize is the number of items wanted; 0 means DefaultPageSize.
	PageSize int
	// PageToken continues after the page that returned it.
	PageToken string
	// Search keeps items whose name contains it, ignoring case.
	Search string
	// Descending sorts from Z to A.
	Descending bool
}

// Page is one page of a list.
type Page[T any] struct {
	Items []T
	// NextPageToken fetches the next page; empty on the last page.
	NextPageToken string
	// Total counts the items matching the query on every page.
	Total int
}

func (q *ListQuery) validate() (after string, err error) {
	var v fault.Validation
	switch {
	case q.PageSize == 0:
		q.PageSize = DefaultPageSize
	case q.PageSize < 0 || q.PageSize > MaxPageSize:
		v.Add(fault.Invalid("page_size", "must be between 1 and %d", MaxPageSize))
	}
	if q.PageToken != "" {
		b, derr := base64.RawURLEncoding.DecodeString(q.PageToken)
		if derr != nil || len(b) == 0 {
			v.Add(fault.Invalid("page_token", "is not a token this API issued; pass next_page_token from the previous page"))
		}
		after = string(b)
	}
	if len(q.Search) > 256 {
		v.Add(fault.Invalid("search", "must be at most 256 characters"))
	}
	return after, v.Err()
}

// paginate filters items (sorted ascending by name) by the query's search,
// then returns the page after the token. Paging is by key, so a page does
// not shift when items are added or removed before it.
func paginate[T any](items []T, name func(T) string, q ListQuery) (Page[T], error) {
	after, err := q.validate()
	if err != nil {
		return Page[T]{}, err
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
	out := Page[T]{Items: page, Total: total}
	if len(page) == q.PageSize && len(page) > 0 {
		last := name(page[len(page)-1])
		more := false
		if q.Descending {
			more = name(items[0]) < last
		} else {
			more = name(items[len(items)-1]) > last
		}
		if more {
			out.NextPageToken = base64.RawURLEncoding.EncodeToString([]byte(last))
		}
	}
	return out, nil
}

// sortByName sorts items by a name, for lists assembled in the service.
func sortByName[T any](items []T, name func(T) string) {
	sort.Slice(items, func(i, j int) bool { return name(items[i]) < name(items[j]) })
}
