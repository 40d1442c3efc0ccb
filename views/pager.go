package views

import (
	"net/url"
	"strconv"
)

// PageSizes are the page sizes a list offers.
var PageSizes = []int{25, 50, 100, 200}

// Page numbers of a list: the current one (1-based), and how many.
func (l TopicList) pageNumber() int { return l.Offset/max(l.PageSize, 1) + 1 }

func (l TopicList) pages() int {
	if l.Total == 0 {
		return 1
	}
	return (l.Total + l.PageSize - 1) / l.PageSize
}

// pageWindow is the page numbers the pager links: the first, the last,
// and two either side of the current one; 0 stands for a gap.
func (l TopicList) pageWindow() []int {
	cur, last := l.pageNumber(), l.pages()
	var out []int
	for n := 1; n <= last; n++ {
		switch {
		case n == 1 || n == last || (n >= cur-2 && n <= cur+2):
			out = append(out, n)
		case len(out) > 0 && out[len(out)-1] != 0:
			out = append(out, 0)
		}
	}
	return out
}

// href is the list's address with its state (search, order, sort, page
// size) and the given page, sort and order: a list can be shared.
func (l TopicList) href(c *Context, page int, sort string, desc bool) string {
	q := url.Values{}
	if l.Search != "" {
		q.Set("q", l.Search)
	}
	if sort != "" && sort != "name" {
		q.Set("sort", sort)
	}
	if desc {
		q.Set("order", "desc")
	}
	if l.PageSize != DefaultTopicPageSize {
		q.Set("page_size", strconv.Itoa(l.PageSize))
	}
	if page > 1 {
		q.Set("page", strconv.Itoa(page))
	}
	if l.Unit != "" {
		q.Set("unit", l.Unit)
	}
	if len(q) == 0 {
		return c.Path("topics")
	}
	return c.Path("topics") + "?" + q.Encode()
}

// DefaultTopicPageSize is the topic list's page size unless one is chosen.
const DefaultTopicPageSize = 50

// sortHref toggles a column's order, or sorts by it ascending.
func (l TopicList) sortHref(c *Context, sort string) string {
	if l.sortKey() == sort {
		return l.href(c, 1, sort, !l.Desc)
	}
	return l.href(c, 1, sort, sort == "partitions")
}

func (l TopicList) sortKey() string {
	if l.SortBy == "" {
		return "name"
	}
	return l.SortBy
}

// ariaSortOf is a column's aria-sort.
func (l TopicList) ariaSortOf(sort string) string {
	if l.sortKey() != sort {
		return "none"
	}
	return ariaSort(l.Desc)
}
